//! Backward of elementwise maths.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::UnaryOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &UnaryOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match op {
        UnaryOp::Neg => vec![b.when(0, || grad.neg())?],
        UnaryOp::Exp => vec![b.when(0, || grad.mul(b.result()?))?],
        UnaryOp::ToDtype { from, .. } => vec![b.when(0, || grad.to_dtype(*from))?],
    })
}
