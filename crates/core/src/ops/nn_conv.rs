//! `conv2d` (im2col plus GEMM) and `unfold`/`fold` (im2col/col2im, also the
//! convolution's backward), with PyTorch's argument checks and output sizes.

pub use crate::cpu::conv::Window2d;

use super::nn::{NnOp, dense, float_dispatch, float_tensor, or_absent, same_dtype};
use super::{Op, OpInfo, apply, inputs};
use crate::cpu::conv::{col2im, im2col};
use crate::cpu::matmul::bmm;
use crate::cpu::{CpuBuffer, Element};
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// A convolution's stride, padding, dilation and groups (the kernel size
/// comes from the weight).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConvParams {
    /// Step between windows.
    pub stride: [usize; 2],
    /// Implicit zeros on each side.
    pub padding: [usize; 2],
    /// Step between a window's elements.
    pub dilation: [usize; 2],
    /// Channel groups convolved separately.
    pub groups: usize,
}

impl ConvParams {
    fn window(&self, kernel: [usize; 2]) -> Window2d {
        Window2d {
            kernel,
            stride: self.stride,
            padding: self.padding,
            dilation: self.dilation,
        }
    }
}

/// `unfold`/`fold`'s window.
pub type Im2ColParams = Window2d;

/// `F.conv2d`'s settings, PyTorch's defaults (`stride=1, padding=0,
/// dilation=1, groups=1`); an int in Python is the same value twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conv2dOptions {
    /// `stride=`.
    pub stride: [i64; 2],
    /// `padding=`.
    pub padding: [i64; 2],
    /// `dilation=`.
    pub dilation: [i64; 2],
    /// `groups=`.
    pub groups: i64,
}

impl Default for Conv2dOptions {
    fn default() -> Self {
        Self {
            stride: [1, 1],
            padding: [0, 0],
            dilation: [1, 1],
            groups: 1,
        }
    }
}

fn conv_out(size: usize, win: &Window2d, a: usize) -> usize {
    let span = win.dilation[a] * (win.kernel[a].max(1) - 1) + 1;
    (size + 2 * win.padding[a]).saturating_sub(span) / win.stride[a].max(1) + 1
}

pub(crate) fn forward(op: &NnOp, ins: &[&Tensor]) -> Result<Tensor> {
    match op {
        NnOp::Conv2d { params, bias } => {
            let [x, w, b] = inputs::<3>(op, ins)?;
            conv2d_forward(x, w, bias.then_some(b), params)
        }
        NnOp::Im2Col(win) => {
            let [x] = inputs::<1>(op, ins)?;
            let [n, c, h, wd] = dims4(x)?;
            let out_hw = [conv_out(h, win, 0), conv_out(wd, win, 1)];
            let shape = [n, c * win.kernel[0] * win.kernel[1], out_hw[0] * out_hw[1]];
            let on_device = |k: &dyn Kernels| {
                Ok(shaped(
                    k.im2col(operand(x), [n * c, h, wd], win, out_hw)?,
                    &shape,
                ))
            };
            kernels::run_or(on_device, || {
                float_dispatch!(x.dtype(), "im2col_out_cpu", T => {
                    Ok(float_tensor(im2col(&dense::<T>(x), [n, c, h, wd], win, out_hw), &shape))
                })
            })
        }
        NnOp::Col2Im {
            params: win,
            output,
        } => {
            let [x] = inputs::<1>(op, ins)?;
            let (n, rows) = (x.shape()[0], x.shape()[1]);
            let c = rows / (win.kernel[0] * win.kernel[1]).max(1);
            let blocks = [conv_out(output[0], win, 0), conv_out(output[1], win, 1)];
            let shape = [n, c, output[0], output[1]];
            let image = [n * c, output[0], output[1]];
            let on_device =
                |k: &dyn Kernels| Ok(shaped(k.col2im(operand(x), image, win, blocks)?, &shape));
            kernels::run_or(on_device, || {
                float_dispatch!(x.dtype(), "col2im_out_cpu", T => {
                    Ok(float_tensor(col2im(&dense::<T>(x), shape, win, blocks), &shape))
                })
            })
        }
        _ => Err(Error::Backend(format!(
            "internal error: {} is not a convolution",
            op.name()
        ))),
    }
}

fn dims4(x: &Tensor) -> Result<[usize; 4]> {
    x.shape()
        .try_into()
        .map_err(|_| Error::Backend("internal error: expected a 4-D input".into()))
}

/// A whole convolution: im2col once, then one GEMM per group with the
/// weight read in place.
fn conv2d_forward(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    params: &ConvParams,
) -> Result<Tensor> {
    let [_, _, kh, kw] = dims4(w)?;
    let win = params.window([kh, kw]);
    let groups = params.groups.max(1);
    kernels::run_or(
        |k| conv2d_on_device(k, x, w, bias, &win, groups),
        || conv2d_on_host(x, w, bias, &win, groups),
    )
}

/// [`conv2d_forward`] on the host.
fn conv2d_on_host(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    win: &Window2d,
    groups: usize,
) -> Result<Tensor> {
    let [n, cin, h, wd] = dims4(x)?;
    let [cout, cig, kh, kw] = dims4(w)?;
    let (oh, ow) = (conv_out(h, win, 0), conv_out(wd, win, 1));
    let (k, l) = (cig * kh * kw, oh * ow);
    let cog = cout / groups;
    let cols = float_dispatch!(x.dtype(), "slow_conv2d_cpu", T => {
        Ok(T::into_buffer(im2col(&dense::<T>(x), [n, cin, h, wd], win, [oh, ow])))
    })?;
    let w_copy;
    let w_data;
    let (w_buffer, w_offset): (&CpuBuffer, usize) = if w.layout().is_contiguous() {
        w_data = w.storage().data();
        (&w_data, w.layout().offset())
    } else {
        w_copy = w.storage().data().gather_as(w.layout(), w.dtype());
        (&w_copy, 0)
    };
    let mut out = CpuBuffer::full(x.dtype(), if groups == 1 { 0 } else { n * cout * l }, 0.0);
    for g in 0..groups {
        let lhs = Layout::new(
            vec![n, cog, k],
            vec![0, k as isize, 1],
            w_offset + g * cog * k,
        );
        let rhs = Layout::new(
            vec![n, k, l],
            vec![(cin * kh * kw * l) as isize, l as isize, 1],
            g * k * l,
        );
        let product = bmm(w_buffer, &lhs, &cols, &rhs)?;
        if groups == 1 {
            out = product;
        } else {
            place_group(&mut out, &product, g, [n, cog, cout, l])?;
        }
    }
    if let Some(b) = bias {
        let values = dense::<f64>(b);
        add_channel_bias(&mut out, &values, cout, l);
    }
    Ok(super::new_tensor(out, &[n, cout, oh, ow]))
}

/// [`conv2d_forward`] on the GPU: the im2col kernel, one batched matmul
/// per group with the weight read in place, the groups placed by the
/// scatter kernel, and the bias added by the binary kernel.
fn conv2d_on_device(
    kernels: &dyn Kernels,
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    win: &Window2d,
    groups: usize,
) -> Result<Option<Tensor>> {
    let [n, cin, h, wd] = dims4(x)?;
    let [cout, cig, kh, kw] = dims4(w)?;
    let (oh, ow) = (conv_out(h, win, 0), conv_out(wd, win, 1));
    let (k, l, cog) = (cig * kh * kw, oh * ow, cout / groups);
    let shape = [n, cout, oh, ow];
    let cols = kernels.im2col(operand(x), [n * cin, h, wd], win, [oh, ow])?;
    let Some(cols) = shaped(cols, &[n, cin * k, l]) else {
        return Ok(None);
    };
    let w = match w.layout().is_contiguous() {
        true => w.clone(),
        false => match shaped(kernels.copy(operand(w))?, w.shape()) {
            Some(copy) => copy,
            None => return Ok(None),
        },
    };
    let mut products = Vec::with_capacity(groups);
    for g in 0..groups {
        let lhs = Layout::new(
            vec![n, cog, k],
            vec![0, k as isize, 1],
            w.layout().offset() + g * cog * k,
        );
        let rhs = Layout::new(
            vec![n, k, l],
            vec![(cin * kh * kw * l) as isize, l as isize, 1],
            g * k * l,
        );
        let product = kernels.matmul((w.storage(), &lhs), (cols.storage(), &rhs))?;
        let Some(product) = shaped(product, &[n, cog, l]) else {
            return Ok(None);
        };
        products.push(product);
    }
    let out = match products.as_slice() {
        [one] => Some(Tensor::from_parts(
            one.storage().clone(),
            Layout::contiguous(&shape),
        )),
        _ => {
            let dense = Layout::contiguous(&[n, cout, l]);
            let targets: Vec<Layout> = (0..groups)
                .map(|g| dense.slice(1, g * cog, cog, 1))
                .collect();
            let parts: Vec<_> = products.iter().map(operand).zip(&targets).collect();
            shaped(kernels.scatter(&parts, shape.iter().product())?, &shape)
        }
    };
    match (out, bias) {
        (Some(out), Some(b)) => {
            // The bias as [cout, 1, 1], broadcast over each channel's plane.
            let stride = b.layout().strides().first().copied().unwrap_or(0);
            let column = Layout::new(vec![cout, 1, 1], vec![stride, 0, 0], b.layout().offset());
            let b = Tensor::from_parts(b.storage().clone(), column);
            let sum = kernels.binary(
                crate::BinaryOp::Add,
                operand(&out),
                operand(&b),
                &shape,
                x.dtype(),
            )?;
            Ok(shaped(sum, &shape))
        }
        (out, _) => Ok(out),
    }
}

/// Copies group `g`'s `[n, cog, l]` product into the `[n, cout, l]` output.
fn place_group(
    out: &mut CpuBuffer,
    product: &CpuBuffer,
    g: usize,
    [n, cog, cout, l]: [usize; 4],
) -> Result<()> {
    fn go<T: Copy>(out: &mut [T], src: &[T], g: usize, [n, cog, cout, l]: [usize; 4]) {
        for b in 0..n {
            let from = &src[b * cog * l..][..cog * l];
            out[(b * cout + g * cog) * l..][..cog * l].copy_from_slice(from);
        }
    }
    match (out, product) {
        (CpuBuffer::F32(o), CpuBuffer::F32(s)) => go(o, s, g, [n, cog, cout, l]),
        (CpuBuffer::F64(o), CpuBuffer::F64(s)) => go(o, s, g, [n, cog, cout, l]),
        _ => return Err(Error::Backend("internal error: conv2d group dtype".into())),
    }
    Ok(())
}

fn add_channel_bias(out: &mut CpuBuffer, bias: &[f64], channels: usize, inner: usize) {
    fn go<T: Element + std::ops::Add<Output = T>>(
        out: &mut [T],
        bias: &[f64],
        channels: usize,
        inner: usize,
    ) {
        for (i, v) in out.iter_mut().enumerate() {
            *v = *v + T::from_f64(bias[(i / inner.max(1)) % channels.max(1)]);
        }
    }
    match out {
        CpuBuffer::F32(o) => go(o, bias, channels, inner),
        CpuBuffer::F64(o) => go(o, bias, channels, inner),
        _ => {}
    }
}

impl Tensor {
    /// 2-D convolution of `[N, C, H, W]` (or unbatched `[C, H, W]`) input
    /// with `[C_out, C / groups, kH, kW]` weight, PyTorch's `F.conv2d(input,
    /// weight, bias, stride, padding, dilation, groups)`.
    ///
    /// ```
    /// use gradscope_core::{Tensor, ops::nn_conv::Conv2dOptions};
    /// let x = Tensor::ones(&[1, 1, 3, 3]);
    /// let w = Tensor::ones(&[1, 1, 2, 2]).requires_grad_(true);
    /// let y = x.conv2d(&w, None, &Conv2dOptions::default())?;
    /// assert_eq!(y.to_vec::<f32>(), vec![4.0; 4]);
    /// assert_eq!(y.grad_fn().map(|n| n.name().to_string()).as_deref(), Some("ConvolutionBackward0"));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn conv2d(
        &self,
        weight: &Tensor,
        bias: Option<&Tensor>,
        options: &Conv2dOptions,
    ) -> Result<Tensor> {
        match self.shape().len() {
            4 => {}
            3 => {
                let batched = self.unsqueeze(0)?.conv2d(weight, bias, options)?;
                return batched.squeeze_dim(0);
            }
            _ => {
                return Err(Error::ConvInputRank {
                    shape: self.shape().to_vec(),
                });
            }
        }
        let o = options;
        if o.stride.iter().any(|&s| s <= 0) {
            return Err(Error::ConvStride);
        }
        if o.padding.iter().any(|&p| p < 0) {
            return Err(Error::ConvPadding);
        }
        if o.dilation.iter().any(|&d| d <= 0) {
            return Err(Error::ConvDilation {
                dilation: o.dilation.to_vec(),
            });
        }
        if o.groups <= 0 {
            return Err(Error::ConvGroups);
        }
        // PyTorch's sizes are int64: twice the padding must still fit.
        let max_padding = i64::MAX / 2;
        if let Some(dim) = o.padding.iter().position(|&p| p > max_padding) {
            return Err(Error::ConvPaddingTooLarge {
                padding: o.padding[dim],
                dim,
                max: max_padding,
            });
        }
        // Past usize (on wasm32) a value saturates: no weight has that many
        // channels, and a stride or dilation that large covers one index.
        let size = |v: i64| usize::try_from(v).unwrap_or(usize::MAX);
        let groups = size(o.groups);
        let (ws, xs) = (weight.shape(), self.shape());
        if ws.len() != 4 {
            return Err(Error::ConvShape(format!(
                "Expected 4-dimensional input for 4-dimensional weight {ws:?}, but got {}-dimensional weight of size {ws:?} instead",
                ws.len()
            )));
        }
        if ws[0] < groups {
            return Err(Error::ConvGroupsWeightSmall {
                groups,
                weight: ws.to_vec(),
            });
        }
        if ws[0] % groups != 0 {
            return Err(Error::ConvGroupsWeight {
                groups,
                weight: ws.to_vec(),
            });
        }
        if xs[1] != ws[1] * groups {
            return Err(Error::ConvChannels {
                groups,
                weight: ws.to_vec(),
                input: xs.to_vec(),
                expected: ws[1] * groups,
                got: xs[1],
            });
        }
        if let Some(b) = bias
            && (b.shape().len() != 1 || b.numel() != ws[0])
        {
            return Err(Error::ConvBias {
                weight: ws.to_vec(),
                expected: ws[0],
                bias: b.shape().to_vec(),
            });
        }
        let params = ConvParams {
            stride: o.stride.map(size),
            padding: o.padding.map(size),
            dilation: o.dilation.map(size),
            groups,
        };
        let padded = [0, 1].map(|a| xs[2 + a].saturating_add(params.padding[a].saturating_mul(2)));
        let span = [0, 1].map(|a| {
            params.dilation[a]
                .saturating_mul(ws[2 + a].max(1) - 1)
                .saturating_add(1)
        });
        if padded[0] < span[0] || padded[1] < span[1] {
            return Err(Error::ConvKernelSize {
                input: padded,
                kernel: span,
            });
        }
        same_dtype(self, weight)?;
        if let Some(b) = bias {
            same_dtype(self, b)?;
        }
        let op = NnOp::Conv2d {
            params,
            bias: bias.is_some(),
        };
        apply(Op::Nn(op), &[self, weight, &or_absent(bias)])
    }

    /// Sliding local blocks of a `[N, C, H, W]` input as columns
    /// `[N, C * kH * kW, L]`, PyTorch's `F.unfold(input, kernel_size,
    /// dilation, padding, stride)` (`Im2ColBackward0`).
    pub fn im2col(&self, window: &Window2d) -> Result<Tensor> {
        if self.shape().len() != 4 || self.numel() == 0 {
            return Err(Error::ConvShape(format!(
                "Expected non-empty 3D or 4D input tensor, but got input of size {:?}",
                self.shape()
            )));
        }
        check_window(window)?;
        let (h, w) = (self.shape()[2], self.shape()[3]);
        let span = [0, 1].map(|a| window.dilation[a] * (window.kernel[a] - 1) + 1);
        if h + 2 * window.padding[0] < span[0] || w + 2 * window.padding[1] < span[1] {
            return Err(Error::ConvShape(format!(
                "Given input with spatial size ({h}, {w}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), calculated shape of the array of sliding blocks as ({}, {}), but its components must be at least one.",
                window.kernel[0],
                window.kernel[1],
                window.dilation[0],
                window.dilation[1],
                window.padding[0],
                window.padding[1],
                (h + 2 * window.padding[0]) as i64 - span[0] as i64 + 1,
                (w + 2 * window.padding[1]) as i64 - span[1] as i64 + 1,
            )));
        }
        apply(Op::Nn(NnOp::Im2Col(*window)), &[self])
    }

    /// Sums columns `[N, C * kH * kW, L]` back into an image of `output`
    /// size, PyTorch's `F.fold(input, output_size, kernel_size, dilation,
    /// padding, stride)` (`Col2ImBackward0`).
    pub fn col2im(&self, output: [usize; 2], window: &Window2d) -> Result<Tensor> {
        check_window(window)?;
        let [kh, kw] = window.kernel;
        if self.shape().len() != 3 || self.numel() == 0 {
            return Err(Error::ConvShape(format!(
                "Expected non-empty 2D or 3D input tensor, but got input of size {:?}",
                self.shape()
            )));
        }
        let (rows, l) = (self.shape()[1], self.shape()[2]);
        if rows % (kh * kw) != 0 {
            return Err(Error::ConvShape(format!(
                "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)={rows} and kernel_size=({kh}, {kw})"
            )));
        }
        let blocks = [0, 1].map(|a| conv_out(output[a], window, a));
        if blocks[0] * blocks[1] != l {
            return Err(Error::ConvShape(format!(
                "Given output_size=({}, {}), kernel_size=({kh}, {kw}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), expected size of input's dimension 2 to match the calculated number of sliding blocks {} * {} = {}, but got input.size(2)={l}.",
                output[0],
                output[1],
                window.dilation[0],
                window.dilation[1],
                window.padding[0],
                window.padding[1],
                window.stride[0],
                window.stride[1],
                blocks[0],
                blocks[1],
                blocks[0] * blocks[1]
            )));
        }
        apply(
            Op::Nn(NnOp::Col2Im {
                params: *window,
                output,
            }),
            &[self],
        )
    }
}

fn check_window(w: &Window2d) -> Result<()> {
    let bad = |what: &str, [a, b]: [usize; 2], names: [&str; 2]| {
        Error::ConvShape(format!(
            "{what} should be greater than zero, but got {}: {a} {}: {b}",
            names[0], names[1]
        ))
    };
    if w.kernel.contains(&0) {
        return Err(bad(
            "kernel size",
            w.kernel,
            ["kernel_height", "kernel_width"],
        ));
    }
    if w.dilation.contains(&0) {
        return Err(bad(
            "dilation",
            w.dilation,
            ["dilation_height", "dilation_width"],
        ));
    }
    if w.stride.contains(&0) {
        return Err(bad("stride", w.stride, ["stride_height", "stride_width"]));
    }
    Ok(())
}
