//! `max_pool2d` and `avg_pool2d` (and `avg_pool2d`'s backward as an op,
//! so its double backward works), with PyTorch's argument checks, output
//! sizes and window rules.

use super::nn::{NnOp, dense, float_dispatch, float_tensor};
use super::{Op, OpInfo, apply, inputs};
pub use crate::cpu::conv::Divisor;

use crate::cpu::conv::{Window2d, avg_pool, avg_pool_backward, gather_planes, max_pool_indices};
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped, tensor_kernels};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// `max_pool2d`'s window and rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PoolParams {
    /// The window.
    pub window: Window2d,
    /// Whether output sizes round up.
    pub ceil_mode: bool,
}

/// `avg_pool2d`'s window, rounding and divisor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AvgPoolParams {
    /// The window (dilation 1).
    pub window: Window2d,
    /// Whether output sizes round up.
    pub ceil_mode: bool,
    /// What each average divides by.
    pub divisor: Divisor,
}

/// `F.max_pool2d`'s and `F.avg_pool2d`'s settings; `stride: None` is the
/// kernel size, as in PyTorch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool2dOptions {
    /// `kernel_size=`.
    pub kernel: [i64; 2],
    /// `stride=` (`None`: the kernel size).
    pub stride: Option<[i64; 2]>,
    /// `padding=0`.
    pub padding: [i64; 2],
    /// `dilation=1` (`max_pool2d` only).
    pub dilation: [i64; 2],
    /// `ceil_mode=False`.
    pub ceil_mode: bool,
    /// `count_include_pad=True` (`avg_pool2d` only).
    pub count_include_pad: bool,
    /// `divisor_override=None` (`avg_pool2d` only).
    pub divisor_override: Option<i64>,
}

impl Pool2dOptions {
    /// A square window of `kernel` with PyTorch's defaults for the rest.
    pub fn new(kernel: i64) -> Self {
        Self {
            kernel: [kernel; 2],
            stride: None,
            padding: [0, 0],
            dilation: [1, 1],
            ceil_mode: false,
            count_include_pad: true,
            divisor_override: None,
        }
    }
}

pub(crate) fn forward(op: &NnOp, ins: &[&Tensor]) -> Result<Tensor> {
    match op {
        NnOp::MaxPool2d(_) => {
            let [x, indices] = inputs::<2>(op, ins)?;
            let rank = x.shape().len();
            let plane: usize = x.shape()[rank - 2..].iter().product();
            let out_plane: usize = indices.shape()[rank - 2..].iter().product();
            float_dispatch!(x.dtype(), "max_pool2d", T => {
                let values = gather_planes(&dense::<T>(x), &dense::<i64>(indices), plane, out_plane);
                Ok(float_tensor(values, indices.shape()))
            })
        }
        NnOp::AvgPool2d(p) => {
            let [x] = inputs::<1>(op, ins)?;
            let (planes, hw) = planes_of(x.shape());
            let out_hw = [
                pool_out(hw[0], p.window, 0, p.ceil_mode),
                pool_out(hw[1], p.window, 1, p.ceil_mode),
            ];
            let mut shape = x.shape().to_vec();
            let rank = shape.len();
            shape[rank - 2..].copy_from_slice(&out_hw);
            let on_device =
                |k: &dyn Kernels| avg_pool_on_device(k, x, p, planes, hw, out_hw, &shape);
            kernels::run_or(on_device, || {
                float_dispatch!(x.dtype(), "avg_pool2d", T => {
                    Ok(float_tensor(avg_pool(&dense::<T>(x), planes, hw, &p.window, p.divisor, out_hw), &shape))
                })
            })
        }
        NnOp::AvgPool2dBackward { params: p, input } => {
            let [grad] = inputs::<1>(op, ins)?;
            let (planes, hw) = planes_of(input);
            let rank = grad.shape().len();
            let out_hw = [grad.shape()[rank - 2], grad.shape()[rank - 1]];
            let on_device = |k: &dyn Kernels| {
                avg_pool_backward_on_device(k, grad, p, planes, hw, out_hw, input)
            };
            kernels::run_or(on_device, || {
                float_dispatch!(grad.dtype(), "avg_pool2d_backward", T => {
                    let values = avg_pool_backward(&dense::<T>(grad), planes, hw, &p.window, p.divisor, out_hw);
                    Ok(float_tensor(values, input))
                })
            })
        }
        _ => Err(Error::Backend(format!(
            "internal error: {} is not a pooling",
            op.name()
        ))),
    }
}

/// What every window of `p` divides by, where that is one number: the
/// window's size when windows stay inside the padded input (no
/// `ceil_mode`), or `divisor_override`. `count_include_pad=False` divides
/// each window by its own count: `None`, the host computes it.
fn uniform_divisor(p: &AvgPoolParams) -> Option<usize> {
    match p.divisor {
        Divisor::IncludePad if !p.ceil_mode => Some(p.window.kernel[0] * p.window.kernel[1]),
        Divisor::Fixed(d) => Some(d),
        _ => None,
    }
}

/// What the GPU path needs: the one divisor, each window's size `k` and
/// the number of windows `l`; `None` where windows differ in divisor.
fn gpu_plan(p: &AvgPoolParams, out_hw: [usize; 2]) -> Option<(usize, usize, usize)> {
    let divisor = uniform_divisor(p)?;
    let k = p.window.kernel[0] * p.window.kernel[1];
    Some((divisor, k, out_hw[0] * out_hw[1]))
}

/// `avg_pool2d` of a float32 GPU `x` as kernels: im2col's windows (zeros
/// in the padding), summed over each window, divided by the divisor.
fn avg_pool_on_device(
    k: &dyn Kernels,
    x: &Tensor,
    p: &AvgPoolParams,
    planes: usize,
    hw: [usize; 2],
    out_hw: [usize; 2],
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some((divisor, size, l)) = gpu_plan(p, out_hw) else {
        return Ok(None);
    };
    let (_, binary_number, reduce, _) = tensor_kernels(k);
    let cols = k.im2col(operand(x), [planes, hw[0], hw[1]], &p.window, out_hw)?;
    let Some(cols) = shaped(cols, &[planes, size, l]) else {
        return Ok(None);
    };
    let Some(sums) = reduce(crate::ReduceKernel::Sum, &cols, &[1])? else {
        return Ok(None);
    };
    let Some(means) = binary_number(crate::BinaryOp::Div, &sums, divisor as f64, false)? else {
        return Ok(None);
    };
    Ok(Some(Tensor::from_parts(
        means.storage().clone(),
        Layout::contiguous(shape),
    )))
}

/// `avg_pool2d`'s backward on the GPU: the gradient over the divisor,
/// spread over each window's `k` positions (a broadcast the col2im
/// kernel's input copy makes dense), and col2im summing each input
/// element's windows.
fn avg_pool_backward_on_device(
    k: &dyn Kernels,
    grad: &Tensor,
    p: &AvgPoolParams,
    planes: usize,
    hw: [usize; 2],
    out_hw: [usize; 2],
    input: &[usize],
) -> Result<Option<Tensor>> {
    let Some((divisor, size, l)) = gpu_plan(p, out_hw) else {
        return Ok(None);
    };
    let (_, binary_number, ..) = tensor_kernels(k);
    let Some(scaled) = binary_number(crate::BinaryOp::Div, grad, divisor as f64, false)? else {
        return Ok(None);
    };
    let spread = Layout::new(vec![planes, size, l], vec![l as isize, 0, 1], 0);
    let cols = Tensor::from_parts(scaled.storage().clone(), spread);
    let out = k.col2im(operand(&cols), [planes, hw[0], hw[1]], &p.window, out_hw)?;
    Ok(shaped(out, input))
}

/// The planes (every leading dimension) and the height and width.
fn planes_of(shape: &[usize]) -> (usize, [usize; 2]) {
    let rank = shape.len();
    let planes = shape[..rank.saturating_sub(2)].iter().product();
    (planes, [shape[rank - 2], shape[rank - 1]])
}

/// PyTorch's `pooling_output_shape`.
fn pool_out(size: usize, win: Window2d, a: usize, ceil_mode: bool) -> usize {
    pool_out_signed(
        size as i64,
        win.kernel[a] as i64,
        win.padding[a] as i64,
        win.stride[a] as i64,
        win.dilation[a] as i64,
        ceil_mode,
    )
    .max(0) as usize
}

fn pool_out_signed(
    size: i64,
    kernel: i64,
    pad: i64,
    stride: i64,
    dilation: i64,
    ceil_mode: bool,
) -> i64 {
    let numerator =
        size + 2 * pad - dilation * (kernel - 1) - 1 + if ceil_mode { stride - 1 } else { 0 };
    let mut out = numerator.div_euclid(stride.max(1)) + 1;
    if ceil_mode && (out - 1) * stride >= size + pad {
        out -= 1;
    }
    out
}

fn positive(values: [i64; 2]) -> Option<[usize; 2]> {
    (values[0] > 0 && values[1] > 0).then(|| values.map(|v| v as usize))
}

/// Checks a pooling call as PyTorch's `pooling_output_shape` and
/// `pool2d_shape_check` do, returning the window and output size.
fn check_pool(x: &Tensor, o: &Pool2dOptions, dilation: [i64; 2]) -> Result<(Window2d, [usize; 2])> {
    let rank = x.shape().len();
    if !(rank == 3 || rank == 4) {
        return Err(Error::PoolRank);
    }
    let stride = o.stride.unwrap_or(o.kernel);
    // PyTorch narrows every size to a C int first (`safe_downcast`); the
    // checks below would overflow on sizes such as -2**63.
    let all = o
        .kernel
        .iter()
        .chain(&stride)
        .chain(&o.padding)
        .chain(&dilation);
    if all.into_iter().any(|&v| i32::try_from(v).is_err()) {
        return Err(Error::ConvShape(
            "value cannot be converted to type int without overflow".into(),
        ));
    }
    let (h, w) = (x.shape()[rank - 2] as i64, x.shape()[rank - 1] as i64);
    let mut out = [0i64; 2];
    for (a, size) in [h, w].into_iter().enumerate() {
        if stride[a] == 0 {
            return Err(Error::PoolStride);
        }
        let (pad, kernel, dil) = (o.padding[a], o.kernel[a], dilation[a]);
        if pad < 0 {
            return Err(Error::ConvShape(format!(
                "pad must be non-negative, but got pad: {pad}"
            )));
        }
        if pad > ((kernel - 1) * dil + 1) / 2 {
            return Err(Error::PoolPadding {
                pad,
                kernel,
                dilation: dil,
            });
        }
        out[a] = pool_out_signed(size, kernel, pad, stride[a], dil, o.ceil_mode);
    }
    let Some(kernel) = positive(o.kernel) else {
        return Err(Error::ConvShape(format!(
            "kernel size should be greater than zero, but got kH: {} kW: {}",
            o.kernel[0], o.kernel[1]
        )));
    };
    let Some(stride) = positive(stride) else {
        return Err(Error::ConvShape(format!(
            "stride should be greater than zero, but got dH: {} dW: {}",
            stride[0], stride[1]
        )));
    };
    let Some(dilation) = positive(dilation) else {
        return Err(Error::PoolDilation {
            h: dilation[0],
            w: dilation[1],
        });
    };
    if x.shape()[rank - 3..].contains(&0) {
        return Err(Error::PoolRank);
    }
    if out[0] < 1 || out[1] < 1 {
        return Err(Error::PoolTooSmall {
            channels: x.shape()[rank - 3],
            input: [h as usize, w as usize],
            output: out,
        });
    }
    let window = Window2d {
        kernel,
        stride,
        padding: o.padding.map(|p| p as usize),
        dilation,
    };
    Ok((window, out.map(|v| v as usize)))
}

impl Tensor {
    /// The maximum of each window, PyTorch's `F.max_pool2d(input,
    /// kernel_size, stride, padding, dilation, ceil_mode)` over `[N, C, H,
    /// W]` or `[C, H, W]` input; the node keeps where each maximum was.
    ///
    /// ```
    /// use gradscope_core::{Tensor, ops::nn_pool::Pool2dOptions};
    /// let x = Tensor::from_vec((0..16).map(|v| v as f32).collect(), &[1, 4, 4])?;
    /// let y = x.max_pool2d(&Pool2dOptions::new(2))?;
    /// assert_eq!(y.to_vec::<f32>(), vec![5.0, 7.0, 13.0, 15.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn max_pool2d(&self, options: &Pool2dOptions) -> Result<Tensor> {
        let (window, out_hw) = check_pool(self, options, options.dilation)?;
        let (planes, hw) = planes_of(self.shape());
        let indices = float_dispatch!(self.dtype(), "max_pool2d", T => {
            Ok(max_pool_indices(&dense::<T>(self), planes, hw, &window, out_hw))
        })?;
        let mut shape = self.shape().to_vec();
        let rank = shape.len();
        shape[rank - 2..].copy_from_slice(&out_hw);
        let indices = Tensor::from_vec(indices, &shape)?;
        let params = PoolParams {
            window,
            ceil_mode: options.ceil_mode,
        };
        apply(Op::Nn(NnOp::MaxPool2d(params)), &[self, &indices])
    }

    /// The mean of each window, PyTorch's `F.avg_pool2d(input, kernel_size,
    /// stride, padding, ceil_mode, count_include_pad, divisor_override)`.
    pub fn avg_pool2d(&self, options: &Pool2dOptions) -> Result<Tensor> {
        if options.divisor_override == Some(0) {
            return Err(Error::ConvShape("divisor must be not zero".into()));
        }
        let (window, _) = check_pool(self, options, [1, 1])?;
        let divisor = match (options.divisor_override, options.count_include_pad) {
            (Some(d), _) => Divisor::Fixed(d.max(1) as usize),
            (None, true) => Divisor::IncludePad,
            (None, false) => Divisor::ExcludePad,
        };
        let params = AvgPoolParams {
            window,
            ceil_mode: options.ceil_mode,
            divisor,
        };
        apply(Op::Nn(NnOp::AvgPool2d(params)), &[self])
    }
}

/// `avg_pool2d`'s backward as an op (its own backward is `avg_pool2d`).
pub(crate) fn avg_pool2d_backward(
    grad: &Tensor,
    params: &AvgPoolParams,
    input: &[usize],
) -> Result<Tensor> {
    let op = NnOp::AvgPool2dBackward {
        params: *params,
        input: input.to_vec(),
    };
    apply(Op::Nn(op), &[grad])
}

/// `avg_pool2d` with checked parameters, for the backward's backward.
pub(crate) fn avg_pool2d_with(x: &Tensor, params: &AvgPoolParams) -> Result<Tensor> {
    apply(Op::Nn(NnOp::AvgPool2d(*params)), &[x])
}
