//! Backward of the in-place ops PyTorch records under names of their own
//! (`derivatives.yaml`'s `leaky_relu_` and `copy_` entries).

use super::BackwardInputs;
use super::unary::zeros_like;
use crate::error::{Error, Result};
use crate::ops::inplace::InplaceOp;
use crate::tensor::Tensor;

pub(crate) fn backward(op: &InplaceOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    match *op {
        // leaky_relu_backward(grad, result, negative_slope, true): the
        // result's sign is the input's only for a slope of at least zero.
        InplaceOp::LeakyRelu { negative_slope } => Ok(vec![b.when(0, || {
            if negative_slope < 0.0 {
                return Err(Error::LeakyReluInplaceNegativeSlope);
            }
            let positive = b.result()?.gt(&Tensor::scalar(0.0))?;
            grad.where_cond(&positive, &grad.mul(&Tensor::scalar(negative_slope))?)
        })?]),
        // The old value is overwritten; `src` gets the gradient, which the
        // engine sums back to its shape and casts to its dtype.
        InplaceOp::Copy => Ok(vec![
            b.when(0, || Ok(zeros_like(grad)))?,
            b.when(1, || Ok(grad.clone()))?,
        ]),
    }
}
