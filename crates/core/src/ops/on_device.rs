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

use crate::backend::{BinaryOp, DeviceBackend, DeviceBuffer, Kernel, ReduceKernel};
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::UnaryOp;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A kernel operand: a GPU storage's device copy, or a CPU number (the `2`
/// of `x * 2`) uploaded as one element.
enum Operand<'a> {
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
fn backend() -> Result<Option<Rc<dyn DeviceBackend>>> {
    if device::current() == Device::WebGpu {
        device::gpu().map(Some)
    } else {
        Ok(None)
    }
}

/// `t`'s float32 device copy and layout, or a 0-dim CPU number as one
/// float32 element (its layout a 0-dim view of it).
fn operand<'a>(gpu: &dyn DeviceBackend, t: &'a Tensor) -> Result<Option<(Operand<'a>, Layout)>> {
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

/// A new GPU tensor of `shape` over a kernel's result, or `None`.
fn finish(result: Kernel, shape: &[usize]) -> Result<Option<Tensor>> {
    Ok(result?.map(|buffer| {
        device::count(|s| s.kernels += 1);
        Tensor::from_parts(
            Rc::new(Storage::from_device(buffer)),
            Layout::contiguous(shape),
        )
    }))
}

/// `op(x)` by a kernel, for a float32 result.
pub(crate) fn unary(op: &UnaryOp, x: &Tensor, out_dtype: DType) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if out_dtype != DType::Float32 || x.dtype() != DType::Float32 {
        return Ok(None);
    }
    let Some((buffer, layout)) = operand(gpu.as_ref(), x)? else {
        return Ok(None);
    };
    finish(gpu.unary(op, &*buffer, &layout), x.shape())
}

/// `op(a, b)` broadcast to `shape` by a kernel, for a float32 result.
pub(crate) fn binary(
    op: BinaryOp,
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    out_dtype: DType,
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if out_dtype != DType::Float32 {
        return Ok(None);
    }
    let float = |t: &Tensor| t.dtype() == DType::Float32 || t.device() == Device::Cpu;
    if !float(a) || !float(b) {
        return Ok(None);
    }
    let (Some((ab, al)), Some((bb, bl))) = (operand(gpu.as_ref(), a)?, operand(gpu.as_ref(), b)?)
    else {
        return Ok(None);
    };
    let (al, bl) = (al.broadcast_to(shape)?, bl.broadcast_to(shape)?);
    finish(gpu.binary(op, &*ab, &al, &*bb, &bl), shape)
}

/// `op` over `dims` (sorted, distinct) of a float32 `x` by a kernel; the
/// result has `x`'s shape without those dims.
pub(crate) fn reduce(op: ReduceKernel, x: &Tensor, dims: &[usize]) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 {
        return Ok(None);
    }
    let Some((buffer, layout)) = operand(gpu.as_ref(), x)? else {
        return Ok(None);
    };
    let shape: Vec<usize> = x
        .shape()
        .iter()
        .enumerate()
        .filter(|(i, _)| !dims.contains(i))
        .map(|(_, &n)| n)
        .collect();
    finish(gpu.reduce(op, &*buffer, &layout, dims), &shape)
}

/// The batched product of float32 `a` and `b` read through the 3-D layouts
/// `al` (`[batch, m, k]`) and `bl` (`[batch, k, n]`), shaped as `shape`.
pub(crate) fn matmul(
    a: &Tensor,
    al: &Layout,
    b: &Tensor,
    bl: &Layout,
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if a.dtype() != DType::Float32 || b.dtype() != DType::Float32 {
        return Ok(None);
    }
    let (Some((ab, _)), Some((bb, _))) = (operand(gpu.as_ref(), a)?, operand(gpu.as_ref(), b)?)
    else {
        return Ok(None);
    };
    finish(gpu.matmul(&*ab, al, &*bb, bl), shape)
}

/// `a @ b + bias` by one kernel, `bias` broadcast to `shape` (`[m, n]`,
/// read as `[1, m, n]`), for `linear`.
pub(crate) fn matmul_bias(
    a: &Tensor,
    al: &Layout,
    b: &Tensor,
    bl: &Layout,
    bias: &Tensor,
    shape: &[usize],
) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    let float = |t: &Tensor| t.dtype() == DType::Float32;
    if !float(a) || !float(b) || !float(bias) {
        return Ok(None);
    }
    let (Some((ab, _)), Some((bb, _)), Some((cb, cl))) = (
        operand(gpu.as_ref(), a)?,
        operand(gpu.as_ref(), b)?,
        operand(gpu.as_ref(), bias)?,
    ) else {
        return Ok(None);
    };
    let batched: Vec<usize> = std::iter::once(1).chain(shape.iter().copied()).collect();
    let cl = cl.broadcast_to(&batched)?;
    finish(gpu.matmul_bias(&*ab, al, &*bb, bl, &*cb, &cl), shape)
}

/// A contiguous copy of float32 `x` by a kernel.
pub(crate) fn copy(x: &Tensor) -> Result<Option<Tensor>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if x.dtype() != DType::Float32 {
        return Ok(None);
    }
    let Some((buffer, layout)) = operand(gpu.as_ref(), x)? else {
        return Ok(None);
    };
    finish(gpu.copy(&*buffer, &layout), x.shape())
}
