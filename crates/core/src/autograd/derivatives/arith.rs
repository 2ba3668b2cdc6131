//! Backward of arithmetic, as PyTorch's `derivatives.yaml` writes it.

use super::BackwardInputs;
use super::unary::{masked, zeros_like};
use crate::error::Result;
use crate::ops::ArithOp;
use crate::ops::arith::Scalar;
use crate::tensor::Tensor;

/// PyTorch's `maybe_multiply`: `grad * alpha`, skipped when `alpha` is 1.
fn times(grad: Tensor, alpha: Scalar) -> Result<Tensor> {
    if alpha.is_one() {
        Ok(grad)
    } else {
        grad.mul(&alpha.to_tensor())
    }
}

pub(super) fn backward(op: &ArithOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    let same = || Ok(grad.clone());
    Ok(match *op {
        ArithOp::Add { alpha } => vec![b.when(0, same)?, b.when(1, || times(grad.clone(), alpha))?],
        ArithOp::Sub { alpha } => vec![b.when(0, same)?, b.when(1, || times(grad.neg()?, alpha))?],
        ArithOp::Rsub { alpha } => vec![b.when(0, || times(grad.neg()?, alpha))?, b.when(1, same)?],
        ArithOp::Mul => vec![
            b.when(0, || grad.mul(b.input(1)?))?,
            b.when(1, || grad.mul(b.input(0)?))?,
        ],
        ArithOp::Div => vec![
            b.when(0, || grad.div(b.input(1)?))?,
            b.when(1, || div_other_backward(grad, b.input(0)?, b.input(1)?))?,
        ],
        ArithOp::Pow => vec![
            b.when(0, || pow_backward_self(grad, b.input(0)?, b.input(1)?))?,
            b.when(1, || {
                pow_backward_exponent(grad, b.input(0)?, b.input(1)?, b.result()?)
            })?,
        ],
        ArithOp::RsubScalar { alpha, .. } => vec![b.when(0, || times(grad.neg()?, alpha))?],
        ArithOp::PowScalar { exponent } => vec![b.when(0, || {
            // x ** 0 is constant; otherwise grad * (e * x^(e - 1))
            if exponent.to_f64() == 0.0 {
                return Ok(zeros_like(grad));
            }
            let e = exponent.to_f64();
            let power = b.input(0)?.pow_scalar(Scalar::Float(e - 1.0))?;
            grad.mul(&power.mul(&Tensor::scalar(e))?)
        })?],
        ArithOp::ScalarPow { base } => vec![b.when(0, || {
            // grad * result * ln(base), zero where 0 ** exponent is flat
            let slope = b.result()?.mul(&Tensor::scalar(base.to_f64().ln()))?;
            if base.to_f64() != 0.0 {
                return grad.mul(&slope);
            }
            let flat = b.input(0)?.ge(&Tensor::scalar(0.0))?;
            grad.mul(&Tensor::scalar(0.0).where_cond(&flat, &slope)?)
        })?],
        ArithOp::TanhBackward => vec![
            // grad_output: tanh_backward(grad, output)
            b.when(0, || grad.tanh_backward(b.input(1)?))?,
            // output: grad * (-2 * output * grad_output)
            b.when(1, || {
                let output = b.input(1)?;
                grad.mul(&output.mul(&Tensor::scalar(-2.0))?.mul(b.input(0)?)?)
            })?,
        ],
        ArithOp::Hypot => vec![
            // self: grad * self / result; other: grad * other / result
            b.when(0, || grad.mul(b.input(0)?)?.div(b.result()?))?,
            b.when(1, || grad.mul(b.input(1)?)?.div(b.result()?))?,
        ],
    })
}

/// `other: -grad * self / (other * other)`
fn div_other_backward(grad: &Tensor, this: &Tensor, other: &Tensor) -> Result<Tensor> {
    grad.neg()?.mul(this)?.div(&other.mul(other)?)
}

/// `where(exponent == 0, 0, grad * exponent * self^(exponent - 1))`
fn pow_backward_self(grad: &Tensor, this: &Tensor, exponent: &Tensor) -> Result<Tensor> {
    let power = this.pow(&exponent.sub(&Tensor::scalar_int(1))?)?;
    let full = grad.mul(&exponent.mul(&power)?)?;
    let constant = exponent.eq(&Tensor::scalar(0.0))?;
    Tensor::scalar(0.0).where_cond(&constant, &full)
}

/// `grad * where(self == 0 & exponent >= 0, 0, result * log(self))`
fn pow_backward_exponent(
    grad: &Tensor,
    this: &Tensor,
    exponent: &Tensor,
    result: &Tensor,
) -> Result<Tensor> {
    let zero = Tensor::scalar(0.0);
    let flat = this.eq(&zero)?.logical_and(&exponent.ge(&zero)?)?;
    let slope = result.mul(&this.log()?)?;
    grad.mul(&masked(&slope, &flat.logical_not()?)?)
}
