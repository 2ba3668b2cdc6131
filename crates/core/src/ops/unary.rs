//! Elementwise maths on one tensor.

use super::{Op, OpInfo, SavedSlot, apply, inputs, new_tensor};
use crate::cpu::{CpuBuffer, Float};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// An elementwise op on one tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `neg`
    Neg,
    /// `exp`
    Exp,
    /// `to(dtype)`: a copy in another dtype.
    ToDtype {
        /// The input's dtype, which the gradient goes back to.
        from: DType,
        /// The result's dtype.
        to: DType,
    },
}

impl UnaryOp {
    /// Every unary op, for tests that check each has a name, a kernel and a derivative.
    pub const ALL: &[UnaryOp] = &[UnaryOp::Neg, UnaryOp::Exp];

    fn apply<T: Float>(self, x: T) -> T {
        match self {
            UnaryOp::Neg => -x,
            UnaryOp::Exp => x.exp(),
            UnaryOp::ToDtype { .. } => x,
        }
    }

    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        if let UnaryOp::ToDtype { to, .. } = self {
            let buffer = x.storage().data().gather_as(x.layout(), *to);
            return Ok(new_tensor(buffer, x.shape()));
        }
        // Maths on integers computes in the default float dtype, as PyTorch does.
        let dtype = match (x.dtype(), self) {
            (d, _) if d.is_float() => d,
            (DType::Bool, UnaryOp::Neg) => return Err(Error::NegBool),
            (DType::Int64, UnaryOp::Neg) => DType::Int64,
            _ => DType::DEFAULT_FLOAT,
        };
        let data = x.storage().data();
        let converted;
        let (buffer, layout) = if data.dtype() == dtype {
            (&*data, x.layout().clone())
        } else {
            converted = data.gather_as(x.layout(), dtype);
            (&converted, Layout::contiguous(x.shape()))
        };
        let out = match buffer {
            CpuBuffer::F32(d) => {
                CpuBuffer::F32(layout.indices().map(|i| self.apply(d[i])).collect())
            }
            CpuBuffer::F64(d) => {
                CpuBuffer::F64(layout.indices().map(|i| self.apply(d[i])).collect())
            }
            CpuBuffer::I64(d) => {
                CpuBuffer::I64(layout.indices().map(|i| d[i].wrapping_neg()).collect())
            }
            CpuBuffer::Bool(_) => return Err(Error::NegBool),
        };
        Ok(new_tensor(out, x.shape()))
    }
}

impl OpInfo for UnaryOp {
    fn node_name(&self) -> &'static str {
        match self {
            UnaryOp::Neg => "NegBackward0",
            UnaryOp::Exp => "ExpBackward0",
            UnaryOp::ToDtype { .. } => "ToCopyBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Exp => "exp",
            UnaryOp::ToDtype { .. } => "to",
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        match self {
            UnaryOp::Neg | UnaryOp::ToDtype { .. } => vec![],
            // result: grad * result
            UnaryOp::Exp => vec![SavedSlot::Output],
        }
    }
}

impl Tensor {
    /// `-self`, PyTorch's `neg`.
    pub fn neg(&self) -> Result<Tensor> {
        apply(Op::Unary(UnaryOp::Neg), &[self])
    }

    /// A copy in `dtype`, PyTorch's `to(dtype)`; the same tensor when it
    /// already has that dtype, as in PyTorch.
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        if self.dtype() == dtype {
            return Ok(self.clone());
        }
        apply(
            Op::Unary(UnaryOp::ToDtype {
                from: self.dtype(),
                to: dtype,
            }),
            &[self],
        )
    }

    /// `e ** self`, PyTorch's `exp`.
    pub fn exp(&self) -> Result<Tensor> {
        apply(Op::Unary(UnaryOp::Exp), &[self])
    }
}
