//! Backward of views.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::ViewOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &ViewOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match op {
        ViewOp::Expand(_) => vec![b.when(0, || grad.sum_to_size(b.shape(0)))?],
    })
}
