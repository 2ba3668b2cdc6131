//! Backward of elementwise maths, formula by formula as PyTorch's
//! `derivatives.yaml`; the longer ones (`gelu`) are named functions below.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::UnaryOp;
use crate::ops::arith::Scalar;
use crate::ops::unary::GeluApproximate;
use crate::tensor::Tensor;

/// A Python float as PyTorch's formulas write constants.
fn c(v: f64) -> Tensor {
    Tensor::scalar(v)
}

/// `where(mask, grad, 0)`: the gradient passes where the mask holds.
pub(super) fn masked(grad: &Tensor, mask: &Tensor) -> Result<Tensor> {
    grad.where_cond(mask, &c(0.0))
}

/// `zeros_like(grad)`: ops whose derivative is zero almost everywhere.
pub(super) fn zeros_like(grad: &Tensor) -> Tensor {
    Tensor::full_dtype(grad.shape(), 0.0, grad.dtype())
}

pub(super) fn backward(op: &UnaryOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    let x = || b.input(0);
    let result = || b.result();
    let formula = || -> Result<Tensor> {
        match *op {
            UnaryOp::Neg => grad.neg(),
            UnaryOp::Exp => grad.mul(result()?),
            UnaryOp::Log => grad.div(x()?),
            // grad / (2 * result)
            UnaryOp::Sqrt => grad.div(&result()?.mul(&c(2.0))?),
            // -0.5 * grad * result^3
            UnaryOp::Rsqrt => grad
                .mul(&c(-0.5))?
                .mul(&result()?.pow_scalar(Scalar::Int(3))?),
            // grad * sgn(self): zero at zero
            UnaryOp::Abs => grad.mul(&x()?.sign()?),
            UnaryOp::Sign | UnaryOp::Round | UnaryOp::Floor => Ok(zeros_like(grad)),
            UnaryOp::Sin => grad.mul(&x()?.cos()?),
            UnaryOp::Cos => grad.mul(&x()?.sin()?.neg()?),
            // tanh_backward(grad, result): grad * (1 - result^2), with
            // `1 - result^2` rounded once as in PyTorch's kernel.
            UnaryOp::Tanh => grad.tanh_backward(result()?),
            // grad * (1 - result) * result
            UnaryOp::Sigmoid => {
                let y = result()?;
                grad.mul(&y.rsub(&c(1.0))?)?.mul(y)
            }
            // threshold_backward(grad, result, 0)
            UnaryOp::Relu => masked(grad, &result()?.gt(&c(0.0))?),
            UnaryOp::Gelu(approximate) => gelu_backward(grad, x()?, approximate),
            UnaryOp::LeakyRelu { negative_slope } => {
                let x = x()?;
                grad.where_cond(&x.gt(&c(0.0))?, &grad.mul(&c(negative_slope))?)
            }
            UnaryOp::Softplus { beta, threshold } => {
                // where(beta x > threshold, grad, grad * z / (z + 1)), z = exp(beta x)
                let scaled = x()?.mul(&c(beta))?;
                // PyTorch's double backward masks with `beta x < threshold`,
                // so at equality the slope is used but not differentiated.
                let live = scaled.lt(&c(threshold))?;
                let slope = scaled
                    .sigmoid()?
                    .where_cond(&live, &scaled.detach().sigmoid()?)?;
                grad.where_cond(&scaled.gt(&c(threshold))?, &grad.mul(&slope)?)
            }
            // The bounds themselves get no gradient: the masks are strict.
            UnaryOp::Clamp { min, max } => {
                let x = x()?;
                let above = min.map(|m| x.gt(&m.to_tensor())).transpose()?;
                let below = max.map(|m| x.lt(&m.to_tensor())).transpose()?;
                let mask = match (above, below) {
                    (Some(a), Some(b)) => a.logical_and(&b)?,
                    (Some(m), None) | (None, Some(m)) => m,
                    (None, None) => return Ok(grad.clone()),
                };
                masked(grad, &mask)
            }
            UnaryOp::ClampMin(min) => masked(grad, &x()?.gt(&min.to_tensor())?),
            UnaryOp::ClampMax(max) => masked(grad, &x()?.lt(&max.to_tensor())?),
            // -grad * result^2
            UnaryOp::Reciprocal => {
                let y = result()?;
                grad.neg()?.mul(&y.mul(y)?)
            }
            // 2 / sqrt(pi) * exp(-self^2) * grad
            UnaryOp::Erf => {
                let x = x()?;
                let density = x.mul(x)?.neg()?.exp()?;
                density.mul(&c(std::f64::consts::FRAC_2_SQRT_PI))?.mul(grad)
            }
            // log1p_backward: grad / (self + 1)
            UnaryOp::Log1p => grad.div(&x()?.add(&c(1.0))?),
            // grad * (result + 1)
            UnaryOp::Expm1 => grad.mul(&result()?.add(&c(1.0))?),
            // grad / (self * ln(10)), grad / (self * ln(2))
            UnaryOp::Log10 => grad.div(&x()?.mul(&c(std::f64::consts::LN_10))?),
            UnaryOp::Log2 => grad.div(&x()?.mul(&c(std::f64::consts::LN_2))?),
            // angle_backward of a real input: zero, NaN included.
            UnaryOp::Angle => Ok(zeros_like(grad)),
            UnaryOp::ToDtype { from, .. } => grad.to_dtype(from),
            UnaryOp::ToDevice { from, .. } => grad.to_device(from),
        }
    };
    Ok(vec![b.when(0, formula)?])
}

/// PyTorch's `gelu_backward`, as tensor ops so it differentiates again.
fn gelu_backward(grad: &Tensor, x: &Tensor, approximate: GeluApproximate) -> Result<Tensor> {
    use std::f64::consts::{FRAC_1_SQRT_2, FRAC_2_SQRT_PI, SQRT_2};
    match approximate {
        GeluApproximate::None => {
            // grad * (cdf + x * pdf)
            let cdf = x
                .mul(&c(FRAC_1_SQRT_2))?
                .erf()?
                .add(&c(1.0))?
                .mul(&c(0.5))?;
            let pdf = x
                .mul(x)?
                .mul(&c(-0.5))?
                .exp()?
                .mul(&c(FRAC_2_SQRT_PI * FRAC_1_SQRT_2 * 0.5))?;
            grad.mul(&cdf.add(&x.mul(&pdf)?)?)
        }
        GeluApproximate::Tanh => {
            let (beta, kappa) = (SQRT_2 * FRAC_2_SQRT_PI * 0.5, 0.044715);
            let x_sq = x.mul(x)?;
            let x_cube = x_sq.mul(x)?;
            let inner = x.add(&x_cube.mul(&c(kappa))?)?.mul(&c(beta))?;
            let tanh_inner = inner.tanh()?;
            let left = x.mul(&c(0.5))?;
            let right = tanh_inner.add(&c(1.0))?;
            let left_derivative = right.mul(&c(0.5))?;
            let sech2 = tanh_inner.mul(&tanh_inner)?.rsub(&c(1.0))?;
            let slope = x_sq.mul(&c(3.0 * kappa))?.add(&c(1.0))?.mul(&c(beta))?;
            let right_derivative = left.mul(&sech2)?.mul(&slope)?;
            grad.mul(&left_derivative.add(&right_derivative)?)
        }
    }
}
