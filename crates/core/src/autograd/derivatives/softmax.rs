//! Backward of the softmax family, from the saved result alone.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::SoftmaxOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &SoftmaxOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match *op {
        // self: _softmax_backward_data(grad, result, dim) =
        //   result * (grad - (grad * result).sum(dim, keepdim=True))
        SoftmaxOp::Softmax(dim) => vec![b.when(0, || {
            let y = b.result()?;
            let dot = grad.mul(y)?.sum_dim(&dims(dim, y), true)?;
            y.mul(&grad.sub(&dot)?)
        })?],
        // self: _log_softmax_backward_data(grad, result, dim) =
        //   grad - exp(result) * grad.sum(dim, keepdim=True)
        SoftmaxOp::LogSoftmax(dim) => vec![b.when(0, || {
            let y = b.result()?;
            grad.sub(&y.exp()?.mul(&grad.sum_dim(&dims(dim, y), true)?)?)
        })?],
    })
}

/// The softmax dimension as a reduction's dim list (none for a 0-dim result,
/// which sums over nothing).
fn dims(dim: usize, y: &Tensor) -> Vec<i64> {
    vec![dim as i64; usize::from(!y.shape().is_empty())]
}
