//! Backward of binary arithmetic.

use super::BackwardInputs;
use crate::backend::BinaryOp;
use crate::error::Result;
use crate::ops::ArithOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &ArithOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match op.0 {
        BinaryOp::Add => vec![
            b.when(0, || Ok(grad.clone()))?,
            b.when(1, || Ok(grad.clone()))?,
        ],
        BinaryOp::Sub => vec![b.when(0, || Ok(grad.clone()))?, b.when(1, || grad.neg())?],
        BinaryOp::Mul => {
            vec![
                b.when(0, || grad.mul(b.input(1)?))?,
                b.when(1, || grad.mul(b.input(0)?))?,
            ]
        }
        BinaryOp::Div => vec![
            b.when(0, || grad.div(b.input(1)?))?,
            b.when(1, || div_other_backward(grad, b.input(0)?, b.input(1)?))?,
        ],
    })
}

/// `other: -grad * self / (other * other)`
fn div_other_backward(grad: &Tensor, this: &Tensor, other: &Tensor) -> Result<Tensor> {
    grad.neg()?.mul(this)?.div(&other.mul(other)?)
}
