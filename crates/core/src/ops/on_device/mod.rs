//! Ops on GPU tensors: the device kernels an op tries before its host path.
//!
//! Each function returns `Ok(None)` when the op is not running on the GPU,
//! an operand is not float32, or the backend has no kernel for the case;
//! the op then computes on the storages' host copies (which the storage
//! keeps current), exactly as on the CPU. So every op works on the GPU
//! from the start, and kernels replace host paths one by one; the
//! [`crate::device::kernel_stats`] say how much ran where.

use std::cell::Ref;
use std::ops::Deref;
use std::rc::Rc;

use crate::backend::{DeviceBackend, DeviceBuffer, Kernel};
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::Tensor;

mod elementwise;
mod matmul;
mod movement;
mod nn;
mod reduce;

pub(crate) use elementwise::{binary, binary_number, unary};
pub(crate) use matmul::{matmul, matmul_bias};
pub(crate) use movement::{copy, index_select, put, scatter, take, write_into};
pub(crate) use nn::{adam_step, col2im, im2col, nll_coefficients, nll_loss};
pub(crate) use reduce::reduce;

/// A kernel operand: a GPU storage's device copy, or a CPU number (the `2`
/// of `x * 2`) uploaded as one element.
pub(super) enum Operand<'a> {
    Stored(Ref<'a, dyn DeviceBuffer>),
    Uploaded(Box<dyn DeviceBuffer>),
}

impl Deref for Operand<'_> {
    type Target = dyn DeviceBuffer;

    fn deref(&self) -> &(dyn DeviceBuffer + 'static) {
        match self {
            Operand::Stored(b) => &**b,
            Operand::Uploaded(b) => b.as_ref(),
        }
    }
}

/// The GPU, when the running op computes on it.
pub(super) fn backend() -> Result<Option<Rc<dyn DeviceBackend>>> {
    if device::current() == Device::WebGpu {
        device::gpu().map(Some)
    } else {
        Ok(None)
    }
}

/// `t`'s float32 device copy and layout, or a 0-dim CPU number as one
/// float32 element (its layout a 0-dim view of it).
pub(super) fn operand<'a>(
    gpu: &dyn DeviceBackend,
    t: &'a Tensor,
) -> Result<Option<(Operand<'a>, Layout)>> {
    if t.device() == Device::Cpu {
        if !t.shape().is_empty() || t.dtype() == DType::Bool {
            return Ok(None);
        }
        let value = t.storage().data().gather_as(t.layout(), DType::Float32);
        let crate::cpu::CpuBuffer::F32(value) = value else {
            return Ok(None);
        };
        device::count(|s| s.uploads += 1);
        return Ok(Some((
            Operand::Uploaded(gpu.upload(&value)?),
            Layout::contiguous(&[]),
        )));
    }
    Ok(t.storage()
        .device_buffer()?
        .map(|b| (Operand::Stored(b), t.layout().clone())))
}

/// Whether `t` can be a float32 kernel operand: a float32 GPU tensor, or
/// a CPU number that [`operand`] uploads as one float32 element.
pub(super) fn float_operand(t: &Tensor) -> bool {
    t.dtype() == DType::Float32 || t.device() == Device::Cpu
}

/// The GPU, and a tensor as that GPU's kernel operand with its layout.
pub(super) type GpuInput<'a> = (Rc<dyn DeviceBackend>, Operand<'a>, Layout);

/// The GPU and float32 `x` as a kernel operand, when the running op
/// computes on the GPU and `x` is float32: the prologue of the kernels
/// that take one float tensor.
pub(super) fn float32_input(x: &Tensor) -> Result<Option<GpuInput<'_>>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 {
        return Ok(None);
    }
    Ok(operand(gpu.as_ref(), x)?.map(|(buffer, layout)| (gpu, buffer, layout)))
}

/// Float32 GPU `x` as a dense operand: its own buffer where its layout is
/// contiguous, else a contiguous copy made by a kernel.
pub(super) fn dense_input(x: &Tensor) -> Result<Option<GpuInput<'_>>> {
    if x.device() == Device::Cpu {
        return Ok(None);
    }
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    if layout.is_contiguous() {
        return Ok(Some((gpu, buffer, layout)));
    }
    let Some(copy) = gpu.copy(&*buffer, &layout)? else {
        return Ok(None);
    };
    device::count(|s| s.kernels += 1);
    let dense = Layout::contiguous(layout.shape());
    Ok(Some((gpu, Operand::Uploaded(copy), dense)))
}

/// A new GPU tensor of `shape` over a kernel's result, or `None`.
pub(super) fn finish(result: Kernel, shape: &[usize]) -> Result<Option<Tensor>> {
    Ok(result?.map(|buffer| {
        device::count(|s| s.kernels += 1);
        Tensor::from_parts(
            Rc::new(Storage::from_device(buffer)),
            Layout::contiguous(shape),
        )
    }))
}
