//! Kernels that move elements rather than compute them: contiguous
//! copies, scatters into zeros (views' backward, `cat`, `stack`), gathers
//! and puts by position (indexing), in-place stores, `index_select`.

use std::rc::Rc;

use crate::backend::ScatterPart;
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::tensor::Tensor;

use super::{backend, finish, float32_input, operand};

/// A contiguous copy of float32 `x` by a kernel.
pub(crate) fn copy(x: &Tensor) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    finish(gpu.copy(&*buffer, &layout), x.shape())
}

/// Zeros of `shape` with input `i`'s elements written at `targets[i]` (a
/// layout over the contiguous result) by a kernel, when every input is a
/// float32 GPU tensor: `slice_backward`, `select_backward`, `cat`, `stack`.
pub(crate) fn scatter(
    ins: &[&Tensor],
    shape: &[usize],
    targets: &[Layout],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    let on_gpu = |t: &&Tensor| t.dtype() == DType::Float32 && t.device() != Device::Cpu;
    if ins.len() != targets.len() || !ins.iter().all(on_gpu) {
        return Ok(None);
    }
    let mut buffers = Vec::with_capacity(ins.len());
    for t in ins {
        let Some(buffer) = t.storage().device_buffer()? else {
            return Ok(None);
        };
        buffers.push(buffer);
    }
    let parts: Vec<ScatterPart<'_>> = buffers
        .iter()
        .zip(ins)
        .zip(targets)
        .map(|((src, t), target)| ScatterPart {
            src: &**src,
            layout: t.layout(),
            target,
        })
        .collect();
    finish(gpu.scatter(shape.iter().product(), &parts), shape)
}

/// The elements of float32 GPU `x`'s storage at `positions`, as a tensor
/// of `shape`, by a kernel: indexing and `gather`.
pub(crate) fn take(x: &Tensor, positions: &[usize], shape: &[usize]) -> Result<Option<Tensor>> {
    if x.device() == Device::Cpu {
        return Ok(None);
    }
    let Some((gpu, buffer, _)) = float32_input(x)? else {
        return Ok(None);
    };
    finish(gpu.take(&*buffer, positions), shape)
}

/// A contiguous copy of float32 GPU `x` with `src`'s storage elements at
/// `reads` added (or written) at `positions`, by a kernel: `scatter_add`,
/// `index_add`, `index_put` and `embedding`'s backward.
pub(crate) fn put(
    x: &Tensor,
    positions: &[usize],
    src: &Tensor,
    reads: &[usize],
    add: bool,
) -> Result<Option<Tensor>> {
    if x.device() == Device::Cpu || src.device() == Device::Cpu || src.dtype() != DType::Float32 {
        return Ok(None);
    }
    let Some((gpu, base, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    let Some(src_buffer) = src.storage().device_buffer()? else {
        return Ok(None);
    };
    finish(
        gpu.put(&*base, &layout, &*src_buffer, positions, reads, add),
        x.shape(),
    )
}

/// Stores float32 GPU `src` into `dst`'s elements in place by a kernel (an
/// in-place op's write), bumping `dst`'s version as the host path's
/// `data_mut` does; false (nothing changed) where it cannot run there.
pub(crate) fn write_into(dst: &Tensor, src: &Tensor) -> Result<bool> {
    let on_gpu = |t: &Tensor| t.device() == Device::WebGpu && t.dtype() == DType::Float32;
    // One buffer cannot be both read and written by a kernel.
    if !on_gpu(dst) || !on_gpu(src) || Rc::ptr_eq(dst.storage(), src.storage()) {
        return Ok(false);
    }
    let gpu = device::gpu()?;
    let ran = {
        let (Some(d), Some(s)) = (
            dst.storage().device_buffer()?,
            src.storage().device_buffer()?,
        ) else {
            return Ok(false);
        };
        gpu.write(&*d, dst.layout(), &*s, src.layout())?
    };
    if ran {
        device::count(|s| s.kernels += 1);
        drop(dst.storage().device_buffer_for_write()?);
    }
    Ok(ran)
}

/// `index_select` of float32 `x` along `dim` by a kernel (`embedding` too:
/// rows of its weight), with `values` already checked against the axis;
/// the result shaped `shape`.
pub(crate) fn index_select(
    x: &Tensor,
    dim: usize,
    values: &[i64],
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 || dim >= x.shape().len() {
        return Ok(None);
    }
    let Ok(indices) = values
        .iter()
        .map(|&v| u32::try_from(v))
        .collect::<std::result::Result<Vec<u32>, _>>()
    else {
        return Ok(None);
    };
    let Some((buffer, layout)) = operand(gpu.as_ref(), x)? else {
        return Ok(None);
    };
    let Some(indices) = gpu.upload_indices(&indices)? else {
        return Ok(None);
    };
    device::count(|s| s.uploads += 1);
    finish(gpu.index_select(&*buffer, &layout, dim, &*indices), shape)
}
