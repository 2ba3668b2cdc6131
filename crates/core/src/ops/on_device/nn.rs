//! Neural-network kernels on GPU tensors: im2col/col2im (convolution),
//! `nll_loss` forward and backward, and the fused Adam step.

use crate::backend::{AdamStep, DeviceBackend, IGNORED_TARGET, Kernel, NllGeometry};
use crate::cpu::conv::Window2d;
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::tensor::Tensor;

use super::{Operand, backend, dense_input, finish, operand};

/// PyTorch's `im2col` of float32 GPU `x` (`[planes, h, w]` of elements),
/// by a kernel, as a tensor of `shape`.
pub(crate) fn im2col(
    x: &Tensor,
    image: [usize; 3],
    window: &Window2d,
    windows: [usize; 2],
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = dense_input(x)? else {
        return Ok(None);
    };
    finish(gpu.im2col(&*buffer, &layout, image, window, windows), shape)
}

/// PyTorch's `col2im` of float32 GPU columns into `[planes, h, w]`
/// elements, by a kernel, as a tensor of `shape`.
pub(crate) fn col2im(
    cols: &Tensor,
    image: [usize; 3],
    window: &Window2d,
    windows: [usize; 2],
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = dense_input(cols)? else {
        return Ok(None);
    };
    finish(gpu.col2im(&*buffer, &layout, image, window, windows), shape)
}

/// `target`'s class indices for index kernels: [`IGNORED_TARGET`] where a
/// target is `ignore_index` (or, defensively, not a class: the host path
/// raised PyTorch's error for those before any kernel runs).
fn targets(gpu: &dyn DeviceBackend, target: &Tensor, ignore: i64, classes: usize) -> Kernel {
    let values = crate::ops::nn::dense::<i64>(target);
    let indices: Vec<u32> = values
        .iter()
        .map(|&t| match usize::try_from(t) {
            Ok(c) if t != ignore && c < classes => u32::try_from(c).unwrap_or(IGNORED_TARGET),
            _ => IGNORED_TARGET,
        })
        .collect();
    let uploaded = gpu.upload_indices(&indices)?;
    if uploaded.is_some() {
        device::count(|s| s.uploads += 1);
    }
    Ok(uploaded)
}

/// `x`'s layout as `[batch, classes, spatial]` (`x` is `[C]`, `[N, C]` or
/// `[N, C, d...]`), or `None` where its spatial dimensions do not walk
/// memory as one.
fn nll_layout(layout: &Layout, g: NllGeometry) -> Option<Layout> {
    let (shape, strides) = (layout.shape(), layout.strides());
    let (batch_stride, class_stride, rest) = match shape.len() {
        1 => (0, strides[0], 1..1),
        n if n >= 2 => (strides[0], strides[1], 2..n),
        _ => return None,
    };
    // The spatial dims merge when each steps over the next's whole run.
    let mut spatial_stride = 1isize;
    let mut expected: Option<isize> = None;
    for d in rest.rev() {
        if shape[d] == 1 {
            continue;
        }
        if let Some(e) = expected
            && strides[d] != e
        {
            return None;
        }
        if expected.is_none() {
            spatial_stride = strides[d];
        }
        expected = Some(strides[d] * shape[d] as isize);
    }
    Some(Layout::new(
        vec![g.batch, g.classes, g.spatial],
        vec![batch_stride, class_stride, spatial_stride],
        layout.offset(),
    ))
}

/// `nll_loss`'s forward of float32 log-probabilities `x` by a kernel;
/// `divisor` as [`DeviceBackend::nll_loss`], `shape` the result's.
pub(crate) fn nll_loss(
    x: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    geometry: NllGeometry,
    divisor: Option<f64>,
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 || weight.is_some_and(|w| w.dtype() != DType::Float32) {
        return Ok(None);
    }
    let Some((buffer, layout)) = operand(gpu.as_ref(), x)? else {
        return Ok(None);
    };
    let Some(layout) = nll_layout(&layout, geometry) else {
        return Ok(None);
    };
    let weight = match weight.map(|w| weights(gpu.as_ref(), w)).transpose()? {
        Some(None) => return Ok(None),
        w => w.flatten(),
    };
    let Some(indices) = targets(gpu.as_ref(), target, ignore_index, geometry.classes)? else {
        return Ok(None);
    };
    let weight = weight.as_deref();
    finish(
        gpu.nll_loss(&*buffer, &layout, &*indices, weight, geometry, divisor),
        shape,
    )
}

/// A class-weight vector as a whole contiguous device buffer: its storage's
/// when it is one, else a kernel's copy of the view.
fn weights<'a>(gpu: &dyn DeviceBackend, w: &'a Tensor) -> Result<Option<Operand<'a>>> {
    let Some((buffer, layout)) = operand(gpu, w)? else {
        return Ok(None);
    };
    if layout.is_contiguous() && layout.offset() == 0 && layout.numel() == buffer.len() {
        return Ok(Some(buffer));
    }
    let copied = gpu.copy(&*buffer, &layout)?;
    if copied.is_some() {
        device::count(|s| s.kernels += 1);
    }
    Ok(copied.map(Operand::Uploaded))
}

/// `nll_loss`'s backward coefficients (see [`DeviceBackend::nll_coefficients`])
/// by a kernel, shaped `shape`.
pub(crate) fn nll_coefficients(
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    geometry: NllGeometry,
    shape: &[usize],
    dtype: DType,
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if dtype != DType::Float32 || weight.is_some_and(|w| w.dtype() != DType::Float32) {
        return Ok(None);
    }
    let weight = match weight.map(|w| weights(gpu.as_ref(), w)).transpose()? {
        Some(None) => return Ok(None),
        w => w.flatten(),
    };
    let Some(indices) = targets(gpu.as_ref(), target, ignore_index, geometry.classes)? else {
        return Ok(None);
    };
    finish(
        gpu.nll_coefficients(&*indices, weight.as_deref(), geometry),
        shape,
    )
}

/// One Adam update of four whole float32 GPU storages in place by a kernel;
/// false (nothing changed) where it cannot run there. `writes` is how many
/// writes the op-by-op path makes to the parameter (its version count).
pub(crate) fn adam_step(tensors: [&Tensor; 4], step: &AdamStep, writes: u64) -> Result<bool> {
    if tensors
        .iter()
        .any(|t| t.device() != Device::WebGpu || t.dtype() != DType::Float32)
    {
        return Ok(false);
    }
    let gpu = device::gpu()?;
    let [p, g, m, v] = tensors;
    let ran = {
        let (Some(pb), Some(gb), Some(mb), Some(vb)) = (
            p.storage().device_buffer()?,
            g.storage().device_buffer()?,
            m.storage().device_buffer()?,
            v.storage().device_buffer()?,
        ) else {
            return Ok(false);
        };
        gpu.adam_step(&*pb, &*gb, &*mb, &*vb, step)?
    };
    if !ran {
        return Ok(false);
    }
    device::count(|s| s.kernels += 1);
    // The kernel wrote the device copies: the host copies are stale and
    // each write bumps the version, as the host path's `data_mut` does.
    for t in [m, v] {
        drop(t.storage().device_buffer_for_write()?);
    }
    for _ in 0..writes {
        drop(p.storage().device_buffer_for_write()?);
    }
    Ok(true)
}
