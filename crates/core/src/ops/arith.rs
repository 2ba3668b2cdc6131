//! Binary arithmetic: `add sub mul div` with broadcasting and PyTorch's type
//! promotion.

use super::{Op, OpInfo, SavedSlot, apply, inputs, new_tensor};
use crate::backend::BinaryOp;
use crate::cpu;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::broadcast_shapes;
use crate::tensor::Tensor;

/// A binary arithmetic op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArithOp(pub BinaryOp);

impl OpInfo for ArithOp {
    fn node_name(&self) -> &'static str {
        match self.0 {
            BinaryOp::Add => "AddBackward0",
            BinaryOp::Sub => "SubBackward0",
            BinaryOp::Mul => "MulBackward0",
            BinaryOp::Div => "DivBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self.0 {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
        }
    }

    fn arity(&self) -> usize {
        2
    }

    fn saved(&self, needs: &[bool]) -> Vec<SavedSlot> {
        let needs = |i: usize| needs.get(i).copied().unwrap_or(false);
        let slots = match self.0 {
            BinaryOp::Add | BinaryOp::Sub => vec![],
            // self: grad * other; other: grad * self
            BinaryOp::Mul => vec![(0, needs(1)), (1, needs(0))],
            // self: grad / other; other: -grad * self / other^2
            BinaryOp::Div => vec![(0, needs(1)), (1, true)],
        };
        slots
            .into_iter()
            .filter(|s| s.1)
            .map(|s| SavedSlot::Input(s.0))
            .collect()
    }
}

impl ArithOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [lhs, rhs] = inputs::<2>(self, ins)?;
        let shape = broadcast_shapes(lhs.shape(), rhs.shape())?;
        let promoted = DType::result_type(&[
            (lhs.dtype(), lhs.promotion_priority()),
            (rhs.dtype(), rhs.promotion_priority()),
        ]);
        // True division: integers divide as floats, as PyTorch's `/` does.
        let dtype = match (self.0, promoted) {
            (BinaryOp::Div, DType::Bool | DType::Int64) => DType::DEFAULT_FLOAT,
            (_, DType::Bool) => DType::Int64,
            (_, d) => d,
        };
        let l = lhs.layout().broadcast_to(&shape)?;
        let r = rhs.layout().broadcast_to(&shape)?;
        let (lb, rb) = (lhs.storage().data(), rhs.storage().data());
        let buffer = match (lb.dtype() == dtype, rb.dtype() == dtype) {
            (true, true) => cpu::binary_map(self.0, &lb, &l, &rb, &r)?,
            _ => {
                let lc = lb.gather_as(&l, dtype);
                let rc = rb.gather_as(&r, dtype);
                let dense = crate::Layout::contiguous(&shape);
                cpu::binary_map(self.0, &lc, &dense, &rc, &dense)?
            }
        };
        Ok(new_tensor(buffer, &shape))
    }
}

impl Tensor {
    fn arith(&self, op: BinaryOp, other: &Tensor) -> Result<Tensor> {
        apply(Op::Arith(ArithOp(op)), &[self, other])
    }

    /// `self + other` with broadcasting, PyTorch's `add`.
    pub fn add(&self, other: &Tensor) -> Result<Tensor> {
        self.arith(BinaryOp::Add, other)
    }

    /// `self - other`, PyTorch's `sub`.
    pub fn sub(&self, other: &Tensor) -> Result<Tensor> {
        self.arith(BinaryOp::Sub, other)
    }

    /// `self * other`, PyTorch's `mul`.
    pub fn mul(&self, other: &Tensor) -> Result<Tensor> {
        self.arith(BinaryOp::Mul, other)
    }

    /// `self / other` (true division), PyTorch's `div`.
    pub fn div(&self, other: &Tensor) -> Result<Tensor> {
        self.arith(BinaryOp::Div, other)
    }
}
