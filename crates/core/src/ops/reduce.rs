//! Reductions.

use super::{Op, OpInfo, SavedSlot, apply, inputs, new_tensor};
use crate::cpu;
use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::Tensor;

/// A reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    /// `sum()` over all elements.
    Sum,
    /// `mean()` over all elements.
    Mean,
    /// `sum_to_size(shape)`: the reverse of broadcasting.
    SumToSize(Vec<usize>),
}

impl OpInfo for ReduceOp {
    fn node_name(&self) -> &'static str {
        match self {
            ReduceOp::Sum => "SumBackward0",
            ReduceOp::Mean => "MeanBackward0",
            ReduceOp::SumToSize(_) => "SumBackward1",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Mean => "mean",
            ReduceOp::SumToSize(_) => "sum_to_size",
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        match self {
            // Backward needs only the input's shape, which every node keeps.
            ReduceOp::Sum | ReduceOp::Mean | ReduceOp::SumToSize(_) => vec![],
        }
    }
}

impl ReduceOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        // Integer and bool sums are int64, as in PyTorch.
        let dtype = if x.dtype().is_float() {
            x.dtype()
        } else {
            DType::Int64
        };
        let data = x.storage().data();
        let promoted;
        let (buffer, layout) = if data.dtype() == dtype {
            (&*data, x.layout().clone())
        } else {
            promoted = data.gather_as(x.layout(), dtype);
            (&promoted, crate::Layout::contiguous(x.shape()))
        };
        Ok(match self {
            ReduceOp::Sum => new_tensor(cpu::sum_all(buffer, &layout)?, &[]),
            ReduceOp::Mean => {
                let sum =
                    cpu::sum_all(buffer, &layout)?.to_f64_vec(&crate::Layout::contiguous(&[]));
                let mean = sum.first().copied().unwrap_or(0.0) / x.numel() as f64;
                new_tensor(cpu::CpuBuffer::full(dtype, 1, mean), &[])
            }
            ReduceOp::SumToSize(shape) => {
                new_tensor(cpu::sum_to_shape(buffer, &layout, shape)?, shape)
            }
        })
    }
}

impl Tensor {
    /// Sum of all elements, PyTorch's `sum()`.
    pub fn sum(&self) -> Result<Tensor> {
        apply(Op::Reduce(ReduceOp::Sum), &[self])
    }

    /// Mean of all elements, PyTorch's `mean()`.
    pub fn mean(&self) -> Result<Tensor> {
        apply(Op::Reduce(ReduceOp::Mean), &[self])
    }

    /// Sums broadcast dimensions away so the result has `shape`, PyTorch's
    /// `sum_to_size`: the reverse of [`Tensor::expand`].
    pub fn sum_to_size(&self, shape: &[usize]) -> Result<Tensor> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        apply(Op::Reduce(ReduceOp::SumToSize(shape.to_vec())), &[self])
    }
}
