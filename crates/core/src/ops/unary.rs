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
}

impl UnaryOp {
    /// Every unary op, for tests that check each has a name, a kernel and a derivative.
    pub const ALL: &[UnaryOp] = &[UnaryOp::Neg, UnaryOp::Exp];

    fn apply<T: Float>(self, x: T) -> T {
        match self {
            UnaryOp::Neg => -x,
            UnaryOp::Exp => x.exp(),
        }
    }

    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
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
        }
    }

    fn name(&self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Exp => "exp",
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        match self {
            UnaryOp::Neg => vec![],
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

    /// `e ** self`, PyTorch's `exp`.
    pub fn exp(&self) -> Result<Tensor> {
        apply(Op::Unary(UnaryOp::Exp), &[self])
    }
}
