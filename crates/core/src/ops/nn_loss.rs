//! The losses: `mse_loss`, `nll_loss`, `cross_entropy` (`log_softmax` then
//! `nll_loss`, as PyTorch composes it), `binary_cross_entropy` and
//! `binary_cross_entropy_with_logits`, each one node with PyTorch's name.

use num_traits::{NumCast, One, Zero};

use super::nn::{Dense, NnOp, Reduction, dense, float_dispatch, float_tensor, or_absent};
use super::{Op, OpInfo, apply, inputs};
use crate::backend::NllGeometry;
use crate::cpu::Float;
use crate::dtype::{DType, Priority};
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped, tensor_kernels};
use crate::layout::broadcast_shapes;
use crate::tensor::Tensor;

/// `nll_loss`'s and `cross_entropy`'s optional arguments, PyTorch's defaults.
#[derive(Clone, Debug)]
pub struct NllLossOptions {
    /// A weight per class (`weight=`).
    pub weight: Option<Tensor>,
    /// Targets equal to this contribute nothing (`ignore_index=-100`).
    pub ignore_index: i64,
    /// `reduction='mean'`.
    pub reduction: Reduction,
    /// `cross_entropy`'s `label_smoothing=0.0` (`nll_loss` ignores it).
    pub label_smoothing: f64,
}

impl Default for NllLossOptions {
    fn default() -> Self {
        Self {
            weight: None,
            ignore_index: -100,
            reduction: Reduction::Mean,
            label_smoothing: 0.0,
        }
    }
}

fn cast<T: Float>(v: f64) -> T {
    <T as NumCast>::from(v).unwrap_or_else(T::nan)
}

/// The reduced losses as a tensor: of `shape` for `none`, else 0-dim;
/// a reduction sums as it goes, so only the output is allocated.
fn reduced<T: Float>(
    losses: impl Iterator<Item = T>,
    shape: &[usize],
    reduction: Reduction,
    total: T,
) -> Tensor {
    // Accumulated in f64, as the core's `sum` does: a float32 running sum
    // drifts by 1e-5 relative over ~10^5 losses, where PyTorch's cascade
    // sum (and the GPU's tree) keep their digits.
    let sum = |losses: &mut dyn Iterator<Item = T>| {
        T::from_f64(losses.fold(0.0f64, |a, b| a + b.to_f64()))
    };
    let mut losses = losses;
    match reduction {
        Reduction::None => float_tensor(losses.collect(), shape),
        Reduction::Sum => float_tensor(vec![sum(&mut losses)], &[]),
        Reduction::Mean => float_tensor(vec![sum(&mut losses) / total], &[]),
    }
}

/// Per-element GPU losses reduced as `reduction` asks: kept, summed, or
/// summed over their count, by the reduction and binary kernels.
fn reduce_on_device(
    k: &dyn Kernels,
    losses: Option<Tensor>,
    reduction: Reduction,
) -> Result<Option<Tensor>> {
    let (_, binary_number, reduce, _) = tensor_kernels(k);
    let Some(losses) = losses else {
        return Ok(None);
    };
    if reduction == Reduction::None {
        return Ok(Some(losses));
    }
    let all: Vec<usize> = (0..losses.shape().len()).collect();
    let Some(total) = reduce(crate::ReduceKernel::Sum, &losses, &all)? else {
        return Ok(None);
    };
    match reduction {
        Reduction::Mean => {
            binary_number(crate::BinaryOp::Div, &total, losses.numel() as f64, false)
        }
        _ => Ok(Some(total)),
    }
}

/// `mse_loss` on the GPU: the binary kernel's difference and square, then
/// [`reduce_on_device`].
fn mse_on_device(
    k: &dyn Kernels,
    x: &Tensor,
    target: &Tensor,
    reduction: Reduction,
) -> Result<Option<Tensor>> {
    use crate::BinaryOp as B;
    let (binary, ..) = tensor_kernels(k);
    let shape = x.shape();
    let Some(diff) = binary(B::Sub, x, target, shape, DType::Float32)? else {
        return Ok(None);
    };
    reduce_on_device(
        k,
        binary(B::Mul, &diff, &diff, shape, DType::Float32)?,
        reduction,
    )
}

/// `binary_cross_entropy_with_logits` without `pos_weight` on the GPU:
/// `(1 - t) * z + softplus(-z)` (the host's `(1 - t) * z - log_sigmoid(z)`;
/// the softplus kernel keeps log1p's digits), times `weight`, reduced.
fn bce_with_logits_on_device(
    k: &dyn Kernels,
    z: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    reduction: Reduction,
) -> Result<Option<Tensor>> {
    use super::UnaryOp;
    use crate::BinaryOp as B;
    let (binary, binary_number, _, unary) = tensor_kernels(k);
    let (shape, f32) = (z.shape(), DType::Float32);
    let softplus = UnaryOp::Softplus {
        beta: 1.0,
        threshold: 20.0,
    };
    let Some(negated) = unary(&UnaryOp::Neg, z, f32)? else {
        return Ok(None);
    };
    let Some(soft) = unary(&softplus, &negated, f32)? else {
        return Ok(None);
    };
    let Some(other) = binary_number(B::Sub, target, 1.0, true)? else {
        return Ok(None);
    };
    let Some(linear) = binary(B::Mul, &other, z, shape, f32)? else {
        return Ok(None);
    };
    let mut losses = binary(B::Add, &linear, &soft, shape, f32)?;
    if let (Some(l), Some(w)) = (&losses, weight) {
        losses = binary(B::Mul, l, w, shape, f32)?;
    }
    reduce_on_device(k, losses, reduction)
}

pub(crate) fn forward(op: &NnOp, ins: &[&Tensor]) -> Result<Tensor> {
    match *op {
        NnOp::MseLoss(reduction) => {
            let [x, target] = inputs::<2>(op, ins)?;
            let dtype = x.dtype();
            let on_device = |k: &dyn Kernels| mse_on_device(k, x, target, reduction);
            kernels::run_or(on_device, || {
                float_dispatch!(dtype, "mse_cpu", T => {
                    let (a, b) = (dense::<T>(x), dense::<T>(target));
                    let losses = a.iter().zip(b.iter()).map(|(&a, &b)| (a - b) * (a - b));
                    Ok(reduced(losses, x.shape(), reduction, cast(x.numel() as f64)))
                })
            })
        }
        NnOp::NllLoss {
            reduction,
            ignore_index,
            weighted,
            ..
        } => {
            let [x, target, weight, total] = inputs::<4>(op, ins)?;
            let (classes, spatial) = nll_geometry(x.shape());
            let reduction = match (reduction, x.shape().len()) {
                (Reduction::None, 1) => Reduction::Sum,
                (r, _) => r,
            };
            let divisor = match reduction {
                Reduction::None => None,
                Reduction::Sum => Some(1.0),
                Reduction::Mean => Some(dense::<f64>(total).first().copied().unwrap_or(0.0)),
            };
            let geometry = NllGeometry {
                batch: target.numel() / spatial,
                classes,
                spatial,
            };
            let shape = if divisor.is_some() {
                &[][..]
            } else {
                target.shape()
            };
            let weight_tensor = weighted.then_some(weight);
            let on_device = |k: &dyn Kernels| {
                let weight = weight_tensor.map(operand);
                let out = k.nll_loss(
                    operand(x),
                    operand(target),
                    weight,
                    ignore_index,
                    geometry,
                    divisor,
                )?;
                Ok(shaped(out, shape))
            };
            kernels::run_or(on_device, || {
                float_dispatch!(x.dtype(), "nll_loss_out_frame", T => {
                    let (x_values, targets) = (dense::<T>(x), dense::<i64>(target));
                    let weights = weighted.then(|| dense::<T>(weight));
                    let losses = targets
                        .iter()
                        .enumerate()
                        .map(|(j, &t)| match t == ignore_index {
                            true => T::zero(),
                            false => {
                                let w = weights.as_ref().map_or(T::one(), |w| w[t as usize]);
                                let (n, s) = (j / spatial, j % spatial);
                                -w * x_values[(n * classes + t as usize) * spatial + s]
                            }
                        });
                    let total = dense::<T>(total).first().copied().unwrap_or_else(T::zero);
                    Ok(reduced(losses, target.shape(), reduction, total))
                })
            })
        }
        NnOp::BinaryCrossEntropy {
            reduction,
            weighted,
        } => {
            let [x, target, weight] = inputs::<3>(op, ins)?;
            float_dispatch!(x.dtype(), "binary_cross_entropy", T => {
                let (p, t) = (dense::<T>(x), dense::<T>(target));
                let w = weighted.then(|| dense::<T>(weight));
                let floor: T = cast(-100.0);
                if p.iter().any(|&p| !(p >= T::zero() && p <= T::one())) {
                    return Err(Error::BceInputRange);
                }
                let losses = p.iter().zip(t.iter()).enumerate().map(|(i, (&p, &t))| {
                    let loss = (t - T::one()) * (-p).ln_1p().max(floor) - t * p.ln().max(floor);
                    w.as_ref().map_or(loss, |w| loss * w[i])
                });
                Ok(reduced(losses, x.shape(), reduction, cast(x.numel() as f64)))
            })
        }
        NnOp::BceWithLogits {
            reduction,
            weighted,
            pos_weighted,
        } => {
            let [x, target, weight, pos_weight] = inputs::<4>(op, ins)?;
            let on_device = |k: &dyn Kernels| match pos_weighted {
                true => Ok(None),
                false => {
                    bce_with_logits_on_device(k, x, target, weighted.then_some(weight), reduction)
                }
            };
            kernels::run_or(on_device, || {
                float_dispatch!(x.dtype(), "binary_cross_entropy_with_logits", T => {
                    let (z, t) = (dense::<T>(x), dense::<T>(target));
                    let w = weighted.then(|| dense::<T>(weight));
                    let pw: Option<Dense<'_, T>> = pos_weighted.then(|| dense::<T>(pos_weight));
                    let losses = z
                        .iter()
                        .zip(t.iter())
                        .enumerate()
                        .map(|(i, (&z, &t))| {
                            let log_sigmoid = z.min(T::zero()) - (-z.abs()).exp().ln_1p();
                            let log_weight = pw.as_ref().map_or(T::one(), |pw| (pw[i] - T::one()) * t + T::one());
                            let loss = (T::one() - t) * z - log_weight * log_sigmoid;
                            w.as_ref().map_or(loss, |w| loss * w[i])
                        });
                    Ok(reduced(losses, x.shape(), reduction, cast(x.numel() as f64)))
                })
            })
        }
        NnOp::MaskedFill(value) => {
            let [x, mask] = inputs::<2>(op, ins)?;
            float_dispatch!(x.dtype(), "masked_fill", T => {
                let (values, mask, fill) = (dense::<T>(x), dense::<bool>(mask), cast::<T>(value));
                let out = values.iter().zip(mask.iter()).map(|(&v, &m)| if m { fill } else { v });
                Ok(float_tensor(out.collect(), x.shape()))
            })
        }
        NnOp::MulScalar(factor) => {
            let [x] = inputs::<1>(op, ins)?;
            let on_device = |k: &dyn Kernels| {
                let out = k.binary_number(crate::BinaryOp::Mul, operand(x), factor, false)?;
                Ok(shaped(out, x.shape()))
            };
            kernels::run_or(on_device, || {
                float_dispatch!(x.dtype(), "mul", T => {
                    let factor = cast::<T>(factor);
                    Ok(float_tensor(dense::<T>(x).iter().map(|&v| v * factor).collect(), x.shape()))
                })
            })
        }
        _ => Err(Error::Backend(format!(
            "internal error: {} is not a loss",
            op.name()
        ))),
    }
}

/// `t` broadcast to `shape` as a view, without a node: for weights that
/// carry no gradient, as PyTorch's `weight.expand(...)` on them.
fn broadcast_view(t: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let out = broadcast_shapes(t.shape(), shape)?;
    if out != shape {
        return Err(Error::BroadcastSize {
            lhs: t.shape().first().copied().unwrap_or(1),
            rhs: shape.first().copied().unwrap_or(1),
            dim: 0,
        });
    }
    Ok(Tensor::from_parts(
        t.storage().clone(),
        t.layout().broadcast_to(shape)?,
    ))
}

fn no_grad_arg(t: Option<&Tensor>, function: &'static str, argument: &'static str) -> Result<()> {
    if t.is_some_and(|t| t.requires_grad() && crate::grad_mode::is_grad_enabled()) {
        return Err(Error::NotDifferentiable { function, argument });
    }
    Ok(())
}

impl Tensor {
    /// The mean (or sum, or each) squared difference to `target`,
    /// PyTorch's `F.mse_loss(input, target, reduction=...)`; a target of
    /// another shape is broadcast (PyTorch warns there).
    ///
    /// ```
    /// use gradscope_core::{Tensor, ops::nn::Reduction};
    /// let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let loss = x.mse_loss(&Tensor::zeros(&[2]), Reduction::Mean)?;
    /// assert_eq!(loss.item()?, 2.5);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn mse_loss(&self, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
        let shape = broadcast_shapes(self.shape(), target.shape())?;
        let expand = |t: &Tensor| match t.shape() == shape.as_slice() {
            true => Ok(t.clone()),
            false => t.expand(&shape),
        };
        let (x, target) = (expand(self)?, expand(target)?);
        let dtype = DType::result_type(&[
            (x.dtype(), Priority::Dimensioned),
            (target.dtype(), Priority::Dimensioned),
        ]);
        let x = if x.dtype() == dtype {
            x
        } else {
            x.to_dtype(dtype)?
        };
        apply(Op::Nn(NnOp::MseLoss(reduction)), &[&x, &target])
    }

    /// The negative log-likelihood of class indices `target` under
    /// log-probabilities `self` (`[N, C]`, `[C]`, or `[N, C, d1, ...]` with
    /// `[N, d1, ...]` targets, through `nll_loss2d` as in PyTorch),
    /// PyTorch's `F.nll_loss(input, target, weight, ignore_index, reduction)`.
    ///
    /// ```
    /// use gradscope_core::{Tensor, ops::nn_loss::NllLossOptions};
    /// let logp = Tensor::from_vec(vec![-0.5f32, -1.0, -2.0, -0.1], &[2, 2])?;
    /// let target = Tensor::from_vec(vec![0i64, 1], &[2])?;
    /// let loss = logp.nll_loss(&target, &NllLossOptions::default())?;
    /// assert!((loss.item()? - 0.3).abs() < 1e-6);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn nll_loss(&self, target: &Tensor, options: &NllLossOptions) -> Result<Tensor> {
        let rank = self.shape().len();
        if rank < 1 {
            return Err(Error::LossInputRank { rank });
        }
        if rank != 1 && target.shape().first() != self.shape().first() {
            return Err(Error::NllBatchSize {
                input: self.shape()[0],
                target: target.shape().first().copied().unwrap_or(1),
            });
        }
        let weight = options.weight.as_ref();
        no_grad_arg(weight, "nll_loss_forward", "weight")?;
        let classes = self.shape()[if rank == 1 { 0 } else { 1 }];
        match rank {
            1 | 2 => {
                if target.shape().len() > 1 {
                    return Err(Error::NllTargetRank);
                }
                if rank == 1 && target.shape().len() == 1 && target.numel() != 1 {
                    return Err(Error::NllTarget1d {
                        size: target.numel(),
                    });
                }
                if let Some(w) = weight
                    && (w.shape().len() != 1 || w.numel() != classes)
                {
                    return Err(Error::NllWeightSize {
                        classes,
                        shape: w.shape().to_vec(),
                    });
                }
            }
            4 => {
                if target.shape().len() != 3 {
                    return Err(Error::NllSpatialTarget {
                        rank: target.shape().len(),
                    });
                }
                if weight.is_some_and(|w| w.numel() != classes) {
                    return Err(Error::NllSpatialWeight);
                }
                let s = self.shape();
                if target.shape() != [s[0], s[2], s[3]] {
                    return Err(Error::NllSpatialSize {
                        input: s.to_vec(),
                        target: target.shape().to_vec(),
                    });
                }
            }
            _ => return self.nll_loss_nd(target, options),
        }
        if target.dtype() != DType::Int64 {
            return Err(Error::NllTargetDtype {
                dtype: target.dtype(),
            });
        }
        if let Some(w) = weight {
            super::nn::same_dtype(self, w)?;
        }
        let total = total_weight(self, target, weight, options)?;
        let op = NnOp::NllLoss {
            reduction: options.reduction,
            ignore_index: options.ignore_index,
            weighted: weight.is_some(),
            spatial: rank == 4,
        };
        apply(Op::Nn(op), &[self, target, &or_absent(weight), &total])
    }

    /// PyTorch's `nll_loss_nd` for 3 or more than 4 dimensions: the spatial
    /// dimensions viewed as one, through `nll_loss2d`.
    fn nll_loss_nd(&self, target: &Tensor, options: &NllLossOptions) -> Result<Tensor> {
        let s = self.shape();
        let (n, c) = (s[0], s[1]);
        let mut out_size = vec![n];
        out_size.extend_from_slice(&s[2..]);
        if target.shape().get(1..) != Some(&s[2..]) {
            return Err(Error::NllTargetSize {
                expected: out_size,
                got: target.shape().to_vec(),
            });
        }
        let empty = self.numel() == 0;
        let input_shape = if empty {
            [n, c, 0, 0].map(|d| d as i64)
        } else {
            [n as i64, c as i64, 1, -1]
        };
        let target_shape = if empty {
            [n as i64, 0, 0]
        } else {
            [n as i64, 1, -1]
        };
        let input = self.contiguous()?.view(&input_shape)?;
        let target = target.contiguous()?.view(&target_shape)?;
        let out = input.nll_loss(&target, options)?;
        match options.reduction {
            Reduction::None => out.view(&super::view_shape::signed(&out_size)),
            Reduction::Mean | Reduction::Sum => Ok(out),
        }
    }

    /// `log_softmax` over the class dimension, then `nll_loss`, PyTorch's
    /// `F.cross_entropy(input, target, weight, ignore_index, reduction,
    /// label_smoothing)` for class indices, composed as PyTorch composes
    /// it: the graph shows `NllLossBackward0` over `LogSoftmaxBackward0`
    /// (and with label smoothing, PyTorch's mix of that with the mean
    /// log-probability). Probability targets are not supported yet.
    ///
    /// ```
    /// use gradscope_core::{Tensor, ops::nn_loss::NllLossOptions};
    /// let logits = Tensor::zeros(&[2, 4]).requires_grad_(true);
    /// let target = Tensor::from_vec(vec![3i64, 0], &[2])?;
    /// let loss = logits.cross_entropy(&target, &NllLossOptions::default())?;
    /// assert!((loss.item()? - 4f64.ln()).abs() < 1e-6);
    /// assert_eq!(loss.grad_fn().map(|n| n.name().to_string()).as_deref(), Some("NllLossBackward0"));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn cross_entropy(&self, target: &Tensor, options: &NllLossOptions) -> Result<Tensor> {
        let smoothing = options.label_smoothing;
        if smoothing > 1.0 {
            return Err(Error::LabelSmoothing { value: smoothing });
        }
        // PyTorch reads a target of the input's shape as class probabilities.
        if !self.shape().is_empty() && self.shape() == target.shape() && !target.dtype().is_float()
        {
            return Err(Error::CrossEntropyProbabilityDtype {
                dtype: target.dtype(),
            });
        }
        let class_dim = if self.shape().len() == 1 { 0 } else { 1 };
        let input = self.log_softmax(class_dim)?;
        let nll = input.nll_loss(target, options)?;
        if smoothing <= 0.0 {
            return Ok(nll);
        }
        let classes = self.shape()[class_dim as usize];
        let ignored = target.eq(&Tensor::scalar_int(options.ignore_index))?;
        let weighted = match &options.weight {
            Some(w) => {
                let mut shape = vec![1i64; self.shape().len()];
                shape[class_dim as usize] = classes as i64;
                input.mul(&w.reshape(&shape)?)?
            }
            None => input,
        };
        let smooth = weighted.sum_dim(&[class_dim], false)?.neg()?;
        let smooth = masked_fill(&smooth, &ignored, 0.0)?;
        let smooth = match options.reduction {
            Reduction::Mean => {
                let divisor = match &options.weight {
                    Some(w) => kept_weight(target, w, options.ignore_index)?,
                    None => ignored.logical_not()?.sum()?,
                };
                smooth.sum()?.div(&divisor)?
            }
            Reduction::Sum => smooth.sum()?,
            Reduction::None => smooth,
        };
        let nll = mul_scalar(&nll, 1.0 - smoothing)?;
        nll.add(&mul_scalar(&smooth, smoothing / classes as f64)?)
    }

    /// Binary cross entropy of probabilities `self` against `target`,
    /// PyTorch's `F.binary_cross_entropy(input, target, weight, reduction)`.
    pub fn binary_cross_entropy(
        &self,
        target: &Tensor,
        weight: Option<&Tensor>,
        reduction: Reduction,
    ) -> Result<Tensor> {
        if target.shape() != self.shape() {
            return Err(Error::BceTargetSize {
                target: target.shape().to_vec(),
                input: self.shape().to_vec(),
            });
        }
        no_grad_arg(weight, "binary_cross_entropy", "weight")?;
        super::nn::same_dtype(self, target)?;
        let weight = weight
            .map(|w| broadcast_view(w, self.shape()))
            .transpose()?;
        let op = NnOp::BinaryCrossEntropy {
            reduction,
            weighted: weight.is_some(),
        };
        apply(Op::Nn(op), &[self, target, &or_absent(weight.as_ref())])
    }

    /// Binary cross entropy of logits `self` against `target`, computed
    /// stably, PyTorch's `F.binary_cross_entropy_with_logits(input, target,
    /// weight, pos_weight=..., reduction)`.
    pub fn binary_cross_entropy_with_logits(
        &self,
        target: &Tensor,
        weight: Option<&Tensor>,
        pos_weight: Option<&Tensor>,
        reduction: Reduction,
    ) -> Result<Tensor> {
        if target.shape() != self.shape() {
            return Err(Error::BceLogitsTargetSize {
                target: target.shape().to_vec(),
                input: self.shape().to_vec(),
            });
        }
        no_grad_arg(weight, "binary_cross_entropy_with_logits", "weight")?;
        no_grad_arg(pos_weight, "binary_cross_entropy_with_logits", "pos_weight")?;
        super::nn::same_dtype(self, target)?;
        let weight = weight
            .map(|w| broadcast_view(w, self.shape()))
            .transpose()?;
        let pos_weight = pos_weight
            .map(|w| broadcast_view(w, self.shape()))
            .transpose()?;
        let op = NnOp::BceWithLogits {
            reduction,
            weighted: weight.is_some(),
            pos_weighted: pos_weight.is_some(),
        };
        let (weight, pos_weight) = (or_absent(weight.as_ref()), or_absent(pos_weight.as_ref()));
        apply(Op::Nn(op), &[self, target, &weight, &pos_weight])
    }
}

/// `nll_loss`'s total weight (the mean's divisor: the summed weights of
/// the targets not ignored; 0 for `reduction='none'` over a batch, as
/// PyTorch), checking every target is a class.
fn total_weight(
    x: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    options: &NllLossOptions,
) -> Result<Tensor> {
    let classes = nll_geometry(x.shape()).0 as i64;
    let targets = dense::<i64>(target);
    let weights = weight.map(dense::<f64>);
    let mut total = 0.0;
    for &t in targets.iter() {
        if t == options.ignore_index {
            continue;
        }
        if !(0..classes).contains(&t) {
            return Err(Error::NllTargetBounds { target: t });
        }
        total += weights.as_ref().map_or(1.0, |w| w[t as usize]);
    }
    if options.reduction == Reduction::None && x.shape().len() >= 2 {
        total = 0.0;
    }
    Ok(Tensor::full_dtype(&[], total, x.dtype()))
}

/// The number of classes and of positions per sample: `[C]`, `[N, C]` and
/// `[N, C, H, W]` inputs.
fn nll_geometry(shape: &[usize]) -> (usize, usize) {
    match shape {
        [c] => (*c, 1),
        [_, c, rest @ ..] => (*c, rest.iter().product::<usize>().max(1)),
        [] => (0, 1),
    }
}

/// `nll_loss`'s backward coefficients: `-weight[target]` at each row's
/// target class, 0 elsewhere and on ignored rows; the gradient is these
/// times the incoming gradient, so the backward stays a tensor op.
pub(crate) fn nll_coefficients(
    x_shape: &[usize],
    dtype: DType,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
) -> Result<Tensor> {
    let (classes, spatial) = nll_geometry(x_shape);
    let geometry = NllGeometry {
        batch: target.numel() / spatial,
        classes,
        spatial,
    };
    // On the GPU only the targets travel (as indices), not N * C zeros.
    let on_device = |k: &dyn Kernels| {
        let weight = weight.map(operand);
        let out = k.nll_coefficients(operand(target), weight, ignore_index, geometry, dtype)?;
        Ok(shaped(out, x_shape))
    };
    kernels::run_or(on_device, || {
        nll_coefficients_on_host(x_shape, dtype, target, weight, ignore_index)
    })
}

/// [`nll_coefficients`] on the host.
fn nll_coefficients_on_host(
    x_shape: &[usize],
    dtype: DType,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
) -> Result<Tensor> {
    let (classes, spatial) = nll_geometry(x_shape);
    let numel: usize = x_shape.iter().product();
    let targets = dense::<i64>(target);
    let weights = weight.map(dense::<f64>);
    float_dispatch!(dtype, "nll_loss_backward", T => {
        let mut out = vec![T::zero(); numel];
        for (j, &t) in targets.iter().enumerate() {
            if t != ignore_index && (0..classes as i64).contains(&t) {
                let w = weights.as_ref().map_or(1.0, |w| w[t as usize]);
                let (n, s) = (j / spatial, j % spatial);
                if let Some(v) = out.get_mut((n * classes + t as usize) * spatial + s) {
                    *v = cast(-w);
                }
            }
        }
        Ok(float_tensor(out, x_shape))
    })
}

/// The summed class weights of the targets not ignored: label smoothing's
/// divisor for the mean (PyTorch's `weight.gather(0, target[~ignored]).sum()`).
fn kept_weight(target: &Tensor, weight: &Tensor, ignore_index: i64) -> Result<Tensor> {
    let weights = dense::<f64>(weight);
    let total = dense::<i64>(target)
        .iter()
        .filter(|&&t| t != ignore_index)
        .map(|&t| weights.get(t as usize).copied().unwrap_or(0.0))
        .sum();
    Ok(Tensor::full_dtype(&[], total, weight.dtype()))
}

/// `x` with `value` where `mask` is true, PyTorch's `masked_fill`
/// (`MaskedFillBackward0`), for a mask of `x`'s shape.
pub(crate) fn masked_fill(x: &Tensor, mask: &Tensor, value: f64) -> Result<Tensor> {
    apply(Op::Nn(NnOp::MaskedFill(value)), &[x, mask])
}

/// `x * factor` as ATen's C++ calls it (`MulBackward1`).
pub(crate) fn mul_scalar(x: &Tensor, factor: f64) -> Result<Tensor> {
    apply(Op::Nn(NnOp::MulScalar(factor)), &[x])
}
