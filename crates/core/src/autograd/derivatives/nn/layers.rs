//! Backward of the norms, convolution and pooling, in tensor ops.
//!
//! The norms' formulas read the saved statistics, except under
//! `create_graph` with an input that needs a gradient: there they recompute
//! the statistics from the input with tensor ops, so second derivatives
//! flow through them as PyTorch's `layer_norm_double_backward` does.

use crate::autograd::derivatives::BackwardInputs;
use crate::error::{Error, Result};
use crate::grad_mode::is_grad_enabled;
use crate::ops::nn_conv::{ConvParams, Window2d};
use crate::ops::nn_pool::{AvgPoolParams, avg_pool2d_backward, avg_pool2d_with};
use crate::ops::view_shape::signed;
use crate::tensor::Tensor;

type Grads = Result<Vec<Option<Tensor>>>;

/// input, weight, bias: `native_layer_norm_backward`.
pub(super) fn layer_norm(
    b: &BackwardInputs<'_>,
    dims: usize,
    eps: f64,
    affine: [bool; 2],
) -> Grads {
    let grad = b.grad;
    let rank = b.shape(0).len();
    let axes: Vec<i64> = (rank - dims..rank).map(|d| d as i64).collect();
    let n = Normalized::new(b, &axes, eps, 3, 4)?;
    let weight = affine[0].then(|| b.input(1)).transpose()?;
    Ok(vec![
        b.when(0, || n.input_grad(grad, weight, &axes))?,
        b.when(1, || grad.mul(&n.xhat()?))?,
        b.when(2, || Ok(grad.clone()))?,
        None,
        None,
    ])
}

/// input, weight, bias: `native_batch_norm_backward`.
pub(super) fn batch_norm(
    b: &BackwardInputs<'_>,
    training: bool,
    eps: f64,
    affine: [bool; 2],
) -> Grads {
    let grad = b.grad;
    let shape = b.shape(0).to_vec();
    let axes: Vec<i64> = (0..shape.len())
        .filter(|&d| d != 1)
        .map(|d| d as i64)
        .collect();
    let per_channel = |t: &Tensor| -> Result<Tensor> {
        let mut s = vec![1i64; shape.len()];
        if let Some(c) = s.get_mut(1) {
            *c = t.numel() as i64;
        }
        t.reshape(&s)
    };
    let weight = affine[0]
        .then(|| b.input(1).and_then(per_channel))
        .transpose()?;
    let (input_grad, xhat) = if training {
        let n = Normalized::per_channel(b, &axes, eps, &per_channel)?;
        let xhat = n.xhat()?;
        (n.input_grad(grad, weight.as_ref(), &axes), xhat)
    } else {
        // The running statistics are constants: the map is affine.
        let invstd = per_channel(&b.input(4)?.add(&Tensor::scalar(eps))?.rsqrt()?)?;
        let mean = per_channel(b.input(3)?)?;
        let xhat = b.input(0)?.sub(&mean)?.mul(&invstd)?;
        let weighted = match &weight {
            Some(w) => grad.mul(w),
            None => Ok(grad.clone()),
        };
        (weighted.and_then(|g| g.mul(&invstd)), xhat)
    };
    Ok(vec![
        b.when(0, || input_grad)?,
        b.when(1, || grad.mul(&xhat)?.sum_dim(&axes, false))?,
        b.when(2, || grad.sum_dim(&axes, false))?,
        None,
        None,
        None,
        None,
    ])
}

/// input, weight, bias: `convolution_backward` as im2col, GEMMs and col2im.
pub(super) fn conv2d(b: &BackwardInputs<'_>, params: &ConvParams) -> Grads {
    let grad = b.grad;
    let x_shape = b.shape(0).to_vec();
    let w_shape = b.shape(1).to_vec();
    let [n, cin, h, w] = four(&x_shape)?;
    let [cout, cig, kh, kw] = four(&w_shape)?;
    let groups = params.groups.max(1);
    let win = Window2d {
        kernel: [kh, kw],
        stride: params.stride,
        padding: params.padding,
        dilation: params.dilation,
    };
    let out = grad.shape();
    let l = out.get(2).copied().unwrap_or(0) * out.get(3).copied().unwrap_or(0);
    let k = cig * kh * kw;
    let grad_r = || grad.reshape(&signed(&[n, groups, cout / groups, l]));
    Ok(vec![
        // The columns' gradient, weight^T @ grad per group, folded back.
        b.when(0, || {
            let weight = b.input(1)?.reshape(&signed(&[groups, cout / groups, k]))?;
            let cols = weight.transpose(1, 2)?.matmul(&grad_r()?)?;
            cols.reshape(&signed(&[n, cin * kh * kw, l]))?
                .col2im([h, w], &win)
        })?,
        // grad @ columns^T per group, summed over the batch.
        b.when(1, || {
            let cols = b.input(0)?.im2col(&win)?;
            let cols = cols.reshape(&signed(&[n, groups, k, l]))?;
            let per_sample = grad_r()?.matmul(&cols.transpose(2, 3)?)?;
            per_sample.sum_dim(&[0], false)?.reshape(&signed(&w_shape))
        })?,
        b.when(2, || grad.sum_dim(&[0, 2, 3], false))?,
    ])
}

/// self: `col2im(grad)`, im2col's adjoint.
pub(super) fn im2col(b: &BackwardInputs<'_>, win: &Window2d) -> Grads {
    let shape = b.shape(0);
    let (h, w) = (
        shape.get(2).copied().unwrap_or(0),
        shape.get(3).copied().unwrap_or(0),
    );
    Ok(vec![b.when(0, || b.grad.col2im([h, w], win))?])
}

/// self: `im2col(grad)`, col2im's adjoint.
pub(super) fn col2im(b: &BackwardInputs<'_>, win: &Window2d) -> Grads {
    Ok(vec![b.when(0, || b.grad.im2col(win))?])
}

/// self: the gradient scattered to where each maximum was.
pub(super) fn max_pool2d(b: &BackwardInputs<'_>) -> Grads {
    let grad = b.grad;
    let grad_input = b.when(0, || {
        let shape = b.shape(0);
        let rank = shape.len();
        let mut flat: Vec<usize> = shape[..rank - 2].to_vec();
        flat.push(shape[rank - 2] * shape[rank - 1]);
        let mut out_flat: Vec<usize> = grad.shape()[..rank - 2].to_vec();
        out_flat.push(grad.shape()[rank - 2..].iter().product());
        let indices = b.input(1)?.reshape(&signed(&out_flat))?;
        let zeros = Tensor::full_dtype(&flat, 0.0, grad.dtype());
        let src = grad.reshape(&signed(&out_flat))?;
        zeros
            .scatter_add(rank as i64 - 2, &indices, &src)?
            .reshape(&signed(shape))
    })?;
    Ok(vec![grad_input, None])
}

/// self: `avg_pool2d_backward(grad)`.
pub(super) fn avg_pool2d(b: &BackwardInputs<'_>, params: &AvgPoolParams) -> Grads {
    Ok(vec![b.when(0, || {
        avg_pool2d_backward(b.grad, params, b.shape(0))
    })?])
}

/// grad: `avg_pool2d(grad)`, the backward's adjoint.
pub(super) fn avg_pool2d_backward_backward(
    b: &BackwardInputs<'_>,
    params: &AvgPoolParams,
) -> Grads {
    Ok(vec![b.when(0, || avg_pool2d_with(b.grad, params))?])
}

fn four(shape: &[usize]) -> Result<[usize; 4]> {
    shape
        .try_into()
        .map_err(|_| Error::Backend("internal error: expected a 4-D shape".into()))
}

/// The input and its statistics over `axes`, for a norm's backward.
struct Normalized {
    x: Tensor,
    mean: Tensor,
    rstd: Tensor,
}

impl Normalized {
    /// Saved statistics (inputs `mean_at`, `rstd_at`), or under
    /// `create_graph` ones recomputed from the input.
    fn new(
        b: &BackwardInputs<'_>,
        axes: &[i64],
        eps: f64,
        mean_at: usize,
        rstd_at: usize,
    ) -> Result<Self> {
        Self::build(b, axes, eps, |_, t| Ok(t.clone()), mean_at, rstd_at)
    }

    fn per_channel(
        b: &BackwardInputs<'_>,
        axes: &[i64],
        eps: f64,
        shape: &dyn Fn(&Tensor) -> Result<Tensor>,
    ) -> Result<Self> {
        Self::build(b, axes, eps, |_, t| shape(t), 5, 6)
    }

    fn build(
        b: &BackwardInputs<'_>,
        axes: &[i64],
        eps: f64,
        shape: impl Fn(usize, &Tensor) -> Result<Tensor>,
        mean_at: usize,
        rstd_at: usize,
    ) -> Result<Self> {
        let x = b.input(0)?.clone();
        let recompute = is_grad_enabled() && x.requires_grad();
        let (mean, rstd) = if recompute {
            let mean = x.mean_dim(axes, true)?;
            let var = x.var(Some(axes), 0.0, true)?;
            (mean, var.add(&Tensor::scalar(eps))?.rsqrt()?)
        } else {
            (
                shape(mean_at, b.input(mean_at)?)?,
                shape(rstd_at, b.input(rstd_at)?)?,
            )
        };
        Ok(Self { x, mean, rstd })
    }

    fn xhat(&self) -> Result<Tensor> {
        self.x.sub(&self.mean)?.mul(&self.rstd)
    }

    /// `rstd * (g - mean(g) - xhat * mean(g * xhat))` with `g` the
    /// incoming gradient times the weight.
    fn input_grad(&self, grad: &Tensor, weight: Option<&Tensor>, axes: &[i64]) -> Result<Tensor> {
        let g = match weight {
            Some(w) => grad.mul(w)?,
            None => grad.clone(),
        };
        let xhat = self.xhat()?;
        let centered = g.sub(&g.mean_dim(axes, true)?)?;
        let projected = xhat.mul(&g.mul(&xhat)?.mean_dim(axes, true)?)?;
        centered.sub(&projected)?.mul(&self.rstd)
    }
}
