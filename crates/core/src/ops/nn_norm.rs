//! `layer_norm`, `batch_norm` (training and evaluation, with running
//! statistics) and `dropout`.
//!
//! The statistics a norm's backward reads (mean and rstd per row, or per
//! channel) are computed before the op and passed to it as inputs, so its
//! node saves them as PyTorch's saves `result1` and `result2`.

use num_traits::{NumCast, One, Zero};

use super::nn::{NnOp, absent, dense, float_dispatch, float_tensor, or_absent, write_values};
use super::random::with_generator;
use super::{Op, OpInfo, apply, inputs};
use crate::cpu::{Element, Float};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped, tensor_kernels};
use crate::layout::Layout;
use crate::tensor::Tensor;

fn cast<T: Float>(v: f64) -> T {
    <T as NumCast>::from(v).unwrap_or_else(T::nan)
}

/// `y = x * scale[g] + shift[g]`, where group `g` of element `i` is
/// `(i / inner) % groups`: the affine map both norms end in.
fn scale_shift<T: Float>(x: &[T], inner: usize, scale: &[f64], shift: &[f64]) -> Vec<T> {
    let groups = scale.len().max(1);
    let inner = inner.max(1);
    x.iter()
        .enumerate()
        .map(|(i, &v)| {
            let g = (i / inner) % groups;
            cast(Element::to_f64(v) * scale[g] + shift[g])
        })
        .collect()
}

/// `layer_norm`'s statistics on the GPU, each of `rows` rows' mean and
/// `1 / sqrt(var + eps)` over its `cols` elements, shaped `stats_shape`: the
/// reduction kernel's sums (two passes, the variance of the centred
/// values) and the binary and unary kernels, in float32 where the host
/// path accumulates in f64.
fn layer_norm_stats_on_device(
    k: &dyn Kernels,
    x: &Tensor,
    [rows, cols]: [usize; 2],
    eps: f64,
    stats_shape: &[usize],
) -> Result<Option<(Tensor, Tensor)>> {
    use crate::BinaryOp as B;
    use crate::ReduceKernel as K;
    let (binary, binary_number, reduce, unary) = tensor_kernels(k);
    let copy =
        |t: &Tensor| -> Result<Option<Tensor>> { Ok(shaped(k.copy(operand(t))?, t.shape())) };
    let f32 = DType::Float32;
    if x.device() == crate::Device::Cpu || x.dtype() != f32 || rows * cols == 0 {
        return Ok(None);
    }
    // Outside any op: compute where x lives, whatever the default device.
    let _scope = crate::device::Scope::new(x.device());
    let shaped = |t: &Tensor, shape: &[usize]| {
        Tensor::from_parts(t.storage().clone(), Layout::contiguous(shape))
    };
    let flat = match x.layout().view(&[rows, cols]) {
        Some(layout) => Tensor::from_parts(x.storage().clone(), layout),
        None => match copy(x)? {
            Some(dense) => shaped(&dense, &[rows, cols]),
            None => return Ok(None),
        },
    };
    let row_mean = |t: &Tensor| -> Result<Option<Tensor>> {
        match reduce(K::Sum, t, &[1])? {
            Some(sum) => binary_number(B::Div, &sum, cols as f64, false),
            None => Ok(None),
        }
    };
    let Some(mean) = row_mean(&flat)? else {
        return Ok(None);
    };
    let Some(centred) = binary(
        B::Sub,
        &flat,
        &shaped(&mean, &[rows, 1]),
        &[rows, cols],
        f32,
    )?
    else {
        return Ok(None);
    };
    let Some(squares) = binary(B::Mul, &centred, &centred, &[rows, cols], f32)? else {
        return Ok(None);
    };
    let Some(var) = row_mean(&squares)? else {
        return Ok(None);
    };
    let Some(shifted) = binary_number(B::Add, &var, eps, false)? else {
        return Ok(None);
    };
    let Some(std) = unary(&super::UnaryOp::Sqrt, &shifted, f32)? else {
        return Ok(None);
    };
    let Some(rstd) = binary_number(B::Div, &std, 1.0, true)? else {
        return Ok(None);
    };
    Ok(Some((
        shaped(&mean, stats_shape),
        shaped(&rstd, stats_shape),
    )))
}

/// `layer_norm`'s forward on the GPU, `(x - mean) * rstd * weight + bias`
/// by the binary kernel, the statistics broadcast over each row and the
/// affine parameters over each row's elements.
fn layer_norm_on_device(
    k: &dyn Kernels,
    x: &Tensor,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    mean: &Tensor,
    rstd: &Tensor,
) -> Result<Option<Tensor>> {
    use crate::BinaryOp as B;
    let (binary, ..) = tensor_kernels(k);
    let (shape, f32) = (x.shape(), DType::Float32);
    if x.device() == crate::Device::Cpu || x.dtype() != f32 {
        return Ok(None);
    }
    let Some(centred) = binary(B::Sub, x, mean, shape, f32)? else {
        return Ok(None);
    };
    let Some(mut out) = binary(B::Mul, &centred, rstd, shape, f32)? else {
        return Ok(None);
    };
    for (op, parameter) in [(B::Mul, weight), (B::Add, bias)] {
        if let Some(p) = parameter {
            match binary(op, &out, p, shape, f32)? {
                Some(next) => out = next,
                None => return Ok(None),
            }
        }
    }
    Ok(Some(out))
}

/// Whether `t` can take part in a GPU norm: a float32 tensor on the GPU.
fn on_gpu(t: &Tensor) -> bool {
    t.device() != crate::Device::Cpu && t.dtype() == DType::Float32
}

/// A per-channel `[C]` tensor as `[C, 1, ...]` of `rank - 1` dimensions,
/// broadcasting over each channel of an `[N, C, ...]` input.
fn per_channel(t: &Tensor, rank: usize) -> Option<Tensor> {
    let mut shape = vec![1; rank.saturating_sub(1).max(1)];
    shape[0] = t.numel();
    let layout = t.layout().view(&shape)?;
    Some(Tensor::from_parts(t.storage().clone(), layout))
}

/// `batch_norm`'s training statistics on the GPU: each channel's mean and
/// `1 / sqrt(var + eps)` over the batch and spatial positions (two passes of
/// the reduction kernel), and the running statistics updated in place by
/// the write kernel, as [`Tensor::batch_statistics`] does on the host.
fn batch_statistics_on_device(
    k: &dyn Kernels,
    x: &Tensor,
    channels: usize,
    rm: Option<&Tensor>,
    rv: Option<&Tensor>,
    o: &BatchNormOptions,
) -> Result<Option<(Tensor, Tensor)>> {
    use crate::BinaryOp as B;
    use crate::ReduceKernel as K;
    let (binary, binary_number, reduce, unary) = tensor_kernels(k);
    let copy =
        |t: &Tensor| -> Result<Option<Tensor>> { Ok(shaped(k.copy(operand(t))?, t.shape())) };
    // Every operand on the GPU first: nothing is written unless all is.
    if !on_gpu(x) || rm.is_some_and(|t| !on_gpu(t)) || rv.is_some_and(|t| !on_gpu(t)) {
        return Ok(None);
    }
    let _scope = crate::device::Scope::new(x.device());
    let f32 = DType::Float32;
    let batch = x.shape()[0];
    let inner: usize = x.shape().iter().skip(2).product();
    let dims = [batch, channels, inner];
    let count = batch * inner;
    let by_channel = match x.layout().view(&dims) {
        Some(layout) => Tensor::from_parts(x.storage().clone(), layout),
        None => match copy(x)? {
            Some(dense) => Tensor::from_parts(dense.storage().clone(), Layout::contiguous(&dims)),
            None => return Ok(None),
        },
    };
    let channel_mean = |t: &Tensor| -> Result<Option<Tensor>> {
        match reduce(K::Sum, t, &[0, 2])? {
            Some(sum) => binary_number(B::Div, &sum, count as f64, false),
            None => Ok(None),
        }
    };
    let Some(mean) = channel_mean(&by_channel)? else {
        return Ok(None);
    };
    let Some(column) = per_channel(&mean, 3) else {
        return Ok(None);
    };
    let Some(centred) = binary(B::Sub, &by_channel, &column, &dims, f32)? else {
        return Ok(None);
    };
    let Some(squares) = binary(B::Mul, &centred, &centred, &dims, f32)? else {
        return Ok(None);
    };
    let Some(var) = channel_mean(&squares)? else {
        return Ok(None);
    };
    // running = momentum * batch + (1 - momentum) * running, in place.
    let unbiased = count as f64 / (count as f64 - 1.0);
    for (running, batch_stat, factor) in [(rm, &mean, 1.0), (rv, &var, unbiased)] {
        let Some(running) = running else { continue };
        let (Some(new), Some(old)) = (
            binary_number(B::Mul, batch_stat, o.momentum * factor, false)?,
            binary_number(B::Mul, running, 1.0 - o.momentum, false)?,
        ) else {
            return Ok(None);
        };
        let Some(sum) = binary(B::Add, &new, &old, &[channels], f32)? else {
            return Ok(None);
        };
        if !k.write(operand(running), operand(&sum))? {
            return Ok(None);
        }
    }
    let Some(shifted) = binary_number(B::Add, &var, o.eps, false)? else {
        return Ok(None);
    };
    let Some(std) = unary(&super::UnaryOp::Sqrt, &shifted, f32)? else {
        return Ok(None);
    };
    let Some(invstd) = binary_number(B::Div, &std, 1.0, true)? else {
        return Ok(None);
    };
    Ok(Some((mean, invstd)))
}

/// `batch_norm`'s forward on the GPU: `x * scale + shift` per channel by
/// the binary kernel, `scale = invstd * weight` and `shift = bias - mean *
/// scale`. With `eps` (evaluation) `stats` are the running mean and
/// variance, else the batch's mean and inverse standard deviation.
fn batch_norm_on_device(
    k: &dyn Kernels,
    x: &Tensor,
    [weight, bias]: [Option<&Tensor>; 2],
    [mean, spread]: [&Tensor; 2],
    eps: Option<f64>,
) -> Result<Option<Tensor>> {
    use crate::BinaryOp as B;
    let (binary, binary_number, _, unary) = tensor_kernels(k);
    let f32 = DType::Float32;
    if !on_gpu(x) || !on_gpu(mean) || !on_gpu(spread) || x.shape().len() < 2 {
        return Ok(None);
    }
    let channels = [x.shape()[1]];
    let invstd = match eps {
        None => Some(spread.clone()),
        Some(eps) => match binary_number(B::Add, spread, eps, false)? {
            Some(shifted) => match unary(&super::UnaryOp::Sqrt, &shifted, f32)? {
                Some(std) => binary_number(B::Div, &std, 1.0, true)?,
                None => None,
            },
            None => None,
        },
    };
    let Some(mut scale) = invstd else {
        return Ok(None);
    };
    if let Some(w) = weight {
        let Some(scaled) = binary(B::Mul, &scale, w, &channels, f32)? else {
            return Ok(None);
        };
        scale = scaled;
    }
    let Some(moved) = binary(B::Mul, mean, &scale, &channels, f32)? else {
        return Ok(None);
    };
    let shift = match bias {
        Some(b) => binary(B::Sub, b, &moved, &channels, f32)?,
        None => unary(&super::UnaryOp::Neg, &moved, f32)?,
    };
    let rank = x.shape().len();
    let (Some(shift), Some(scale)) = (shift, Some(scale)) else {
        return Ok(None);
    };
    let (Some(scale), Some(shift)) = (per_channel(&scale, rank), per_channel(&shift, rank)) else {
        return Ok(None);
    };
    let Some(scaled) = binary(B::Mul, x, &scale, x.shape(), f32)? else {
        return Ok(None);
    };
    binary(B::Add, &scaled, &shift, x.shape(), f32)
}

pub(crate) fn forward(op: &NnOp, ins: &[&Tensor]) -> Result<Tensor> {
    match *op {
        NnOp::LayerNorm { dims, affine, .. } => {
            let [x, weight, bias, mean, rstd] = inputs::<5>(op, ins)?;
            let shape = x.shape();
            let (w, b) = (affine[0].then_some(weight), affine[1].then_some(bias));
            let on_device = |k: &dyn Kernels| layer_norm_on_device(k, x, w, b, mean, rstd);
            kernels::run_or(on_device, || {
                let cols: usize = shape[shape.len().saturating_sub(dims)..].iter().product();
                float_dispatch!(x.dtype(), "LayerNormKernelImpl", T => {
                    let (values, mean, rstd) = (dense::<T>(x), dense::<f64>(mean), dense::<f64>(rstd));
                    let w = affine[0].then(|| dense::<f64>(weight));
                    let b = affine[1].then(|| dense::<f64>(bias));
                    let out = values
                        .iter()
                        .enumerate()
                        .map(|(i, &v)| {
                            let (row, col) = (i / cols.max(1), i % cols.max(1));
                            let normed = (Element::to_f64(v) - mean[row]) * rstd[row];
                            let scaled = w.as_ref().map_or(normed, |w| normed * w[col]);
                            cast::<T>(b.as_ref().map_or(scaled, |b| scaled + b[col]))
                        })
                        .collect();
                    Ok(float_tensor(out, shape))
                })
            })
        }
        NnOp::BatchNorm {
            training,
            eps,
            affine,
            ..
        } => {
            let [
                x,
                weight,
                bias,
                running_mean,
                running_var,
                save_mean,
                save_invstd,
            ] = inputs::<7>(op, ins)?;
            let shape = x.shape();
            let channels = shape.get(1).copied().unwrap_or(1);
            let inner: usize = shape.iter().skip(2).product();
            let (mean, invstd) = match training {
                true => (save_mean, save_invstd),
                false => (running_mean, running_var),
            };
            let (w, b) = (affine[0].then_some(weight), affine[1].then_some(bias));
            let on_device = |k: &dyn Kernels| {
                batch_norm_on_device(k, x, [w, b], [mean, invstd], (!training).then_some(eps))
            };
            kernels::run_or(on_device, || {
                let (mean, invstd): (Vec<f64>, Vec<f64>) = if training {
                    (
                        dense::<f64>(save_mean).to_vec(),
                        dense::<f64>(save_invstd).to_vec(),
                    )
                } else {
                    let var = dense::<f64>(running_var);
                    let invstd = var.iter().map(|v| 1.0 / (v + eps).sqrt()).collect();
                    (dense::<f64>(running_mean).to_vec(), invstd)
                };
                let w = affine[0].then(|| dense::<f64>(weight));
                let b = affine[1].then(|| dense::<f64>(bias));
                let scale: Vec<f64> = (0..channels)
                    .map(|c| invstd[c] * w.as_ref().map_or(1.0, |w| w[c]))
                    .collect();
                let shift: Vec<f64> = (0..channels)
                    .map(|c| b.as_ref().map_or(0.0, |b| b[c]) - mean[c] * scale[c])
                    .collect();
                float_dispatch!(x.dtype(), "batch_norm", T => {
                    Ok(float_tensor(scale_shift(&dense::<T>(x), inner, &scale, &shift), shape))
                })
            })
        }
        _ => Err(Error::Backend(format!(
            "internal error: {} is not a norm",
            op.name()
        ))),
    }
}

/// Mean and biased variance of each of `groups` groups, where element `i`
/// of `x` belongs to group `(i / inner) % groups`.
/// Reads `x` in place (no float64 copy of the input), sums in float64.
fn moments<T: Element>(x: &[T], inner: usize, groups: usize) -> (Vec<f64>, Vec<f64>, usize) {
    if groups == 0 {
        return (vec![], vec![], 0);
    }
    let inner = inner.max(1);
    let mut sum = vec![0.0; groups];
    for (i, v) in x.iter().enumerate() {
        sum[(i / inner) % groups] += v.to_f64();
    }
    let count = x.len() / groups;
    let mean: Vec<f64> = sum.iter().map(|s| s / count as f64).collect();
    let mut sq = vec![0.0; groups];
    for (i, v) in x.iter().enumerate() {
        let g = (i / inner) % groups;
        let d = v.to_f64() - mean[g];
        sq[g] += d * d;
    }
    let var = sq.iter().map(|s| s / count as f64).collect();
    (mean, var, count)
}

fn check_features(name: &'static str, t: Option<&Tensor>, expected: usize) -> Result<()> {
    match t {
        Some(t) if t.numel() != expected => Err(Error::BatchNormParamSize {
            name,
            expected,
            got: t.numel(),
        }),
        _ => Ok(()),
    }
}

/// `F.batch_norm`'s optional tensors and settings, PyTorch's defaults.
#[derive(Clone, Debug)]
pub struct BatchNormOptions {
    /// Running mean, updated in place when training (`running_mean=`).
    pub running_mean: Option<Tensor>,
    /// Running variance, updated in place with the unbiased batch variance.
    pub running_var: Option<Tensor>,
    /// Per-channel scale.
    pub weight: Option<Tensor>,
    /// Per-channel shift.
    pub bias: Option<Tensor>,
    /// Batch statistics (`True`) or the running ones.
    pub training: bool,
    /// The running statistics' update factor (`0.1`).
    pub momentum: f64,
    /// Added to the variance (`1e-5`).
    pub eps: f64,
}

impl Default for BatchNormOptions {
    fn default() -> Self {
        Self {
            running_mean: None,
            running_var: None,
            weight: None,
            bias: None,
            training: false,
            momentum: 0.1,
            eps: 1e-5,
        }
    }
}

impl Tensor {
    /// Normalizes over the last `normalized_shape.len()` dimensions, then
    /// scales and shifts, PyTorch's `F.layer_norm(input, normalized_shape,
    /// weight, bias, eps)`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f32, 3.0], &[1, 2])?.requires_grad_(true);
    /// let y = x.layer_norm(&[2], None, None, 0.0)?;
    /// assert_eq!(y.to_vec::<f32>(), vec![-1.0, 1.0]);
    /// assert_eq!(y.grad_fn().map(|n| n.name().to_string()).as_deref(), Some("NativeLayerNormBackward0"));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn layer_norm(
        &self,
        normalized_shape: &[usize],
        weight: Option<&Tensor>,
        bias: Option<&Tensor>,
        eps: f64,
    ) -> Result<Tensor> {
        if normalized_shape.is_empty() {
            return Err(Error::LayerNormEmpty);
        }
        for (name, t) in [("weight", weight), ("bias", bias)] {
            if let Some(t) = t
                && t.shape() != normalized_shape
            {
                return Err(Error::LayerNormParam {
                    name,
                    shape: t.shape().to_vec(),
                    normalized: normalized_shape.to_vec(),
                });
            }
        }
        let shape = self.shape();
        let dims = normalized_shape.len();
        if shape.len() < dims || &shape[shape.len() - dims..] != normalized_shape {
            return Err(Error::LayerNormShape {
                normalized: normalized_shape.to_vec(),
                input: shape.to_vec(),
            });
        }
        for t in [weight, bias].into_iter().flatten() {
            super::nn::same_dtype(self, t)?;
        }
        let cols: usize = normalized_shape.iter().product();
        // Rows from the leading sizes, not numel / cols: with a size-0
        // normalized dim there is still one row per leading index.
        let rows: usize = shape[..shape.len() - dims].iter().product();
        let mut stats_shape = shape[..shape.len() - dims].to_vec();
        stats_shape.extend(std::iter::repeat_n(1, dims));
        let on_device =
            |k: &dyn Kernels| layer_norm_stats_on_device(k, self, [rows, cols], eps, &stats_shape);
        let (mean, rstd) = kernels::run_or_on(self.device(), on_device, || {
            let (mean, var, _) = float_dispatch!(self.dtype(), "LayerNormKernelImpl", T => {
                Ok(moments(&dense::<T>(self), cols, rows))
            })?;
            let rstd: Vec<f64> = var
                .iter()
                .map(|v| 1.0 / (v.max(0.0) + eps).sqrt())
                .collect();
            float_dispatch!(self.dtype(), "LayerNormKernelImpl", T => Ok((
                float_tensor(mean.iter().map(|&m| cast::<T>(m)).collect(), &stats_shape),
                float_tensor(rstd.iter().map(|&r| cast::<T>(r)).collect(), &stats_shape),
            )))
        })?;
        let op = NnOp::LayerNorm {
            dims,
            eps,
            affine: [weight.is_some(), bias.is_some()],
        };
        let (w, b) = (or_absent(weight), or_absent(bias));
        apply(Op::Nn(op), &[self, &w, &b, &mean, &rstd])
    }

    /// Normalizes each channel (dimension 1) over the batch and spatial
    /// dimensions, PyTorch's `F.batch_norm(input, running_mean, running_var,
    /// weight, bias, training, momentum, eps)`. Training uses the batch's
    /// statistics and updates the running ones in place (variance
    /// unbiased); evaluation uses the running ones.
    ///
    /// The update bumps the running statistics' version counter, which
    /// PyTorch's does not; so in training the node does not save them
    /// (PyTorch saves them though no formula reads them there).
    pub fn batch_norm(&self, options: &BatchNormOptions) -> Result<Tensor> {
        let shape = self.shape().to_vec();
        let o = options;
        if o.training {
            let per_channel =
                shape.first().copied().unwrap_or(1) * shape.iter().skip(2).product::<usize>();
            if per_channel == 1 {
                return Err(Error::BatchNormOneValue { shape });
            }
        }
        let channels = if shape.len() > 1 { shape[1] } else { 0 };
        let (rm, rv) = (o.running_mean.as_ref(), o.running_var.as_ref());
        check_features("running_mean", rm, channels)?;
        if rm.is_none() && !o.training {
            return Err(Error::BatchNormEvalStats);
        }
        check_features("running_var", rv, channels)?;
        check_features("weight", o.weight.as_ref(), channels)?;
        check_features("bias", o.bias.as_ref(), channels)?;
        if shape.len() < 2 {
            return Err(Error::DimOutOfRange {
                dim: 1,
                rank: shape.len(),
            });
        }
        if self.numel() == 0 {
            // As PyTorch: no statistics to take or update; a copy keeps the graph.
            let mut out = self.clone_tensor()?;
            if let Some(w) = &o.weight {
                out = out.mul(&w.select(0, 0)?)?;
            }
            if let Some(b) = &o.bias {
                out = out.add(&b.select(0, 0)?)?;
            }
            return Ok(out);
        }
        for t in [rm, rv, o.weight.as_ref(), o.bias.as_ref()]
            .into_iter()
            .flatten()
        {
            super::nn::same_dtype(self, t)?;
        }
        let (save_mean, save_invstd) = if o.training {
            let on_device =
                |k: &dyn Kernels| batch_statistics_on_device(k, self, channels, rm, rv, o);
            kernels::run_or_on(self.device(), on_device, || {
                self.batch_statistics(channels, rm, rv, o)
            })?
        } else {
            (absent_like(self)?, absent_like(self)?)
        };
        let op = NnOp::BatchNorm {
            training: o.training,
            eps: o.eps,
            affine: [o.weight.is_some(), o.bias.is_some()],
            stats: rm.is_some() && rv.is_some(),
        };
        let (w, b) = (or_absent(o.weight.as_ref()), or_absent(o.bias.as_ref()));
        let (rm, rv) = (or_absent(rm), or_absent(rv));
        apply(
            Op::Nn(op),
            &[self, &w, &b, &rm, &rv, &save_mean, &save_invstd],
        )
    }

    /// The batch's mean and inverse standard deviation per channel, after
    /// updating the running statistics.
    fn batch_statistics(
        &self,
        channels: usize,
        rm: Option<&Tensor>,
        rv: Option<&Tensor>,
        o: &BatchNormOptions,
    ) -> Result<(Tensor, Tensor)> {
        let inner: usize = self.shape().iter().skip(2).product();
        let (mean, var, count) = float_dispatch!(self.dtype(), "batch_norm", T => {
            Ok(moments(&dense::<T>(self), inner, channels))
        })?;
        if let Some(rm) = rm {
            let old = dense::<f64>(rm).to_vec();
            let new = old
                .iter()
                .zip(&mean)
                .map(|(r, m)| o.momentum * m + (1.0 - o.momentum) * r);
            write_values(rm, new.collect::<Vec<f64>>())?;
        }
        if let Some(rv) = rv {
            let unbiased = count as f64 / (count as f64 - 1.0);
            let old = dense::<f64>(rv).to_vec();
            let new = old
                .iter()
                .zip(&var)
                .map(|(r, v)| o.momentum * v * unbiased + (1.0 - o.momentum) * r);
            write_values(rv, new.collect::<Vec<f64>>())?;
        }
        let invstd: Vec<f64> = var.iter().map(|v| 1.0 / (v + o.eps).sqrt()).collect();
        float_dispatch!(self.dtype(), "batch_norm", T => Ok((
            float_tensor(mean.iter().map(|&m| cast::<T>(m)).collect(), &[channels]),
            float_tensor(invstd.iter().map(|&s| cast::<T>(s)).collect(), &[channels]),
        )))
    }

    /// Zeroes each element with probability `p` and scales the rest by
    /// `1 / (1 - p)` when `training`, PyTorch's `F.dropout(input, p,
    /// training)`. As PyTorch on the CPU, it is `input * noise` (a
    /// `MulBackward0` saving the noise), the noise drawn by `bernoulli_(1 -
    /// p)` from the default generator: one float64 uniform per element, as
    /// PyTorch's CPU kernel without MKL draws (PyTorch built with MKL on an
    /// Intel CPU draws differently). Without training, or with `p = 0`, it
    /// returns `self` itself.
    ///
    /// ```
    /// use gradscope_core::{Tensor, ops::random::manual_seed};
    /// manual_seed(0);
    /// let y = Tensor::ones(&[4]).dropout(0.5, true)?;
    /// assert!(y.to_vec::<f32>().iter().all(|&v| v == 0.0 || v == 2.0));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn dropout(&self, p: f64, training: bool) -> Result<Tensor> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::DropoutProbability { p });
        }
        if p == 0.0 || !training || self.numel() == 0 {
            return Ok(self.clone());
        }
        if p == 1.0 {
            return self.mul(&Tensor::full_dtype(&[], 0.0, self.dtype()));
        }
        let keep = 1.0 - p;
        let noise = float_dispatch!(self.dtype(), "bernoulli_scalar_cpu_", T => {
            let scale = T::one() / cast::<T>(keep);
            let noise = with_generator(|g| {
                (0..self.numel())
                    .map(|_| if g.uniform_f64() < keep { scale } else { T::zero() })
                    .collect()
            });
            Ok(float_tensor::<T>(noise, self.shape()))
        })?;
        self.mul(&noise)
    }
}

/// The empty statistics evaluation-mode `batch_norm` saves, as PyTorch's.
fn absent_like(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == absent().dtype() {
        return Ok(absent());
    }
    Ok(Tensor::full_dtype(&[0], 0.0, x.dtype()))
}
