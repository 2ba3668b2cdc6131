//! Backward of reductions.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::ReduceOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &ReduceOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match op {
        ReduceOp::Sum | ReduceOp::SumToSize(_) => vec![b.when(0, || grad.expand(b.shape(0)))?],
        ReduceOp::Mean => vec![b.when(0, || {
            let numel: usize = b.shape(0).iter().product();
            grad.expand(b.shape(0))?.div(&Tensor::scalar(numel as f64))
        })?],
    })
}
