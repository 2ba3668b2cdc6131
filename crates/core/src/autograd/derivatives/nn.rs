//! Backward of neural-network functions, as PyTorch's `derivatives.yaml`
//! writes them, in tensor ops so double backward works (PyTorch supports it
//! for all of these). The losses and `addmm` are here; the norms,
//! convolution and pooling in `nn/layers.rs`.
//!
//! Inputs that carry no gradient (class indices, statistics, pooling
//! indices) get `None`; the engine gives them no edge anyway.

mod layers;

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::NnOp;
use crate::ops::nn::Reduction;
use crate::ops::nn_loss::{masked_fill, mul_scalar, nll_coefficients};
use crate::tensor::Tensor;

pub(super) fn backward(op: &NnOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match op {
        // self: grad; mat1: grad.mm(mat2.t()); mat2: mm_mat2_backward,
        // which for a column-major mat2 computes grad.t().mm(mat1).t() so
        // the gradient has mat2's layout.
        NnOp::Addmm { mat2_column_major } => vec![
            b.when(0, || Ok(grad.clone()))?,
            b.when(1, || grad.mm(&b.input(2)?.t()?))?,
            b.when(2, || match mat2_column_major {
                true => grad.t()?.mm(b.input(1)?)?.t(),
                false => b.input(1)?.t()?.mm(grad),
            })?,
        ],
        // self: mse_loss_backward(grad, self, target); target: its negation
        NnOp::MseLoss(reduction) => {
            let scale = match reduction {
                Reduction::Mean => 2.0 / b.shape(0).iter().product::<usize>() as f64,
                Reduction::Sum | Reduction::None => 2.0,
            };
            let forward = || {
                let diff = b.input(0)?.sub(b.input(1)?)?;
                diff.mul(grad)?.mul(&Tensor::scalar(scale))
            };
            vec![b.when(0, forward)?, b.when(1, || forward()?.neg())?]
        }
        // self: nll_loss_backward (nll_loss2d_backward)(grad, self, target, weight,
        // reduction, ignore_index, total_weight)
        NnOp::NllLoss {
            reduction,
            ignore_index,
            weighted,
            ..
        } => {
            let grad_input = b.when(0, || {
                let weight = if *weighted { Some(b.input(2)?) } else { None };
                let dtype = b.input(0)?.dtype();
                let coefficients =
                    nll_coefficients(b.shape(0), dtype, b.input(1)?, weight, *ignore_index)?;
                let scaled = match (reduction, b.shape(0).len()) {
                    (Reduction::None, rank) if rank >= 2 => grad.unsqueeze(1)?,
                    // Every target ignored: PyTorch's kernel writes no
                    // gradient, so 0, not 0 * (grad / 0).
                    (Reduction::Mean, _) if b.input(3)?.item()? == 0.0 => {
                        grad.mul(&Tensor::scalar(0.0))?
                    }
                    (Reduction::Mean, _) => grad.div(b.input(3)?)?,
                    _ => grad.clone(),
                };
                coefficients.mul(&scaled)
            })?;
            vec![grad_input, None, None, None]
        }
        NnOp::BinaryCrossEntropy {
            reduction,
            weighted,
        } => {
            let finish = |g: Tensor| weigh_and_reduce(b, g, *weighted, *reduction);
            vec![
                // grad * (self - target) / clamp_min(self * (1 - self), EPSILON)
                b.when(0, || {
                    let (x, t) = (b.input(0)?, b.input(1)?);
                    let denominator = x
                        .mul(&Tensor::scalar(1.0).sub(x)?)?
                        .clamp_min(1e-12.into())?;
                    finish(grad.mul(&x.sub(t)?)?.div(&denominator)?)
                })?,
                // grad * -logit(self)
                b.when(1, || {
                    let x = b.input(0)?;
                    let logit = x.log()?.sub(&Tensor::scalar(1.0).sub(x)?.log()?)?;
                    finish(grad.mul(&logit.neg()?)?)
                })?,
                None,
            ]
        }
        NnOp::BceWithLogits {
            reduction,
            weighted,
            pos_weighted,
        } => {
            let finish = |g: Tensor| weigh_and_reduce(b, g, *weighted, *reduction);
            vec![
                // (pos_weight * target + 1 - target) * sigmoid(self) - pos_weight * target,
                // or sigmoid(self) - target
                b.when(0, || {
                    let (z, t) = (b.input(0)?, b.input(1)?);
                    let d = if *pos_weighted {
                        let pt = b.input(3)?.mul(t)?;
                        pt.add(&Tensor::scalar(1.0))?
                            .sub(t)?
                            .mul(&z.sigmoid()?)?
                            .sub(&pt)?
                    } else {
                        z.sigmoid()?.sub(t)?
                    };
                    finish(d.mul(grad)?)
                })?,
                // log_sigmoid(-self) - log_sigmoid(self) * pos_weight, or -self
                b.when(1, || {
                    let z = b.input(0)?;
                    let d = if *pos_weighted {
                        let softplus = |v: &Tensor| v.softplus(1.0, 20.0);
                        softplus(&z.neg()?)?.mul(b.input(3)?)?.sub(&softplus(z)?)?
                    } else {
                        z.neg()?
                    };
                    finish(d.mul(grad)?)
                })?,
                None,
                None,
            ]
        }
        // self: grad.masked_fill(mask, 0)
        NnOp::MaskedFill(_) => vec![b.when(0, || masked_fill(grad, b.input(1)?, 0.0))?, None],
        // self: grad * other
        NnOp::MulScalar(factor) => vec![b.when(0, || mul_scalar(grad, *factor))?],
        NnOp::LayerNorm { dims, eps, affine } => layers::layer_norm(b, *dims, *eps, *affine)?,
        NnOp::BatchNorm {
            training,
            eps,
            affine,
            ..
        } => layers::batch_norm(b, *training, *eps, *affine)?,
        NnOp::Conv2d { params, .. } => layers::conv2d(b, params)?,
        NnOp::Im2Col(win) => layers::im2col(b, win)?,
        NnOp::Col2Im { params, .. } => layers::col2im(b, params)?,
        NnOp::MaxPool2d(_) => layers::max_pool2d(b)?,
        NnOp::AvgPool2d(params) => layers::avg_pool2d(b, params)?,
        NnOp::AvgPool2dBackward { params, .. } => layers::avg_pool2d_backward_backward(b, params)?,
    })
}

/// A loss gradient times the element weight (input 2) and, for the mean,
/// divided by the number of elements.
fn weigh_and_reduce(
    b: &BackwardInputs<'_>,
    g: Tensor,
    weighted: bool,
    reduction: Reduction,
) -> Result<Tensor> {
    let g = if weighted { g.mul(b.input(2)?)? } else { g };
    match reduction {
        Reduction::Mean => {
            let n = b.shape(0).iter().product::<usize>() as f64;
            g.div(&Tensor::scalar(n))
        }
        Reduction::Sum | Reduction::None => Ok(g),
    }
}
