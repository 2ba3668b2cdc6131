//! Elementwise kernels on GPU tensors: unary and binary maps (a number
//! operand uploaded as one element), comparisons into bool masks, `where`.

use std::rc::Rc;

use crate::backend::{BinaryOp, CompareKernel, DeviceBackend};
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::UnaryOp;
use crate::storage::Storage;
use crate::tensor::Tensor;

use super::{Operand, backend, finish, float_operand, float32_input, operand};

/// `op(x)` by a kernel, for a float32 result.
pub(crate) fn unary(op: &UnaryOp, x: &Tensor, out_dtype: DType) -> Result<Option<Tensor>> {
    if out_dtype != DType::Float32 {
        return Ok(None);
    }
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
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
    let Some((gpu, [(ab, al), (bb, bl)])) = float_pair(a, b, shape, out_dtype)? else {
        return Ok(None);
    };
    finish(gpu.binary(op, &*ab, &al, &*bb, &bl), shape)
}

/// The GPU and two kernel operands with their layouts.
type GpuPair<'a> = (Rc<dyn DeviceBackend>, [(Operand<'a>, Layout); 2]);

/// The GPU and `a`, `b` as float32 kernel operands broadcast to `shape`,
/// when the running op computes on the GPU and its result is float32: the
/// prologue of the kernels that take two float operands.
fn float_pair<'a>(
    a: &'a Tensor,
    b: &'a Tensor,
    shape: &[usize],
    out_dtype: DType,
) -> Result<Option<GpuPair<'a>>> {
    let Some(gpu) = backend()? else {
        return Ok(None);
    };
    if out_dtype != DType::Float32 || !float_operand(a) || !float_operand(b) {
        return Ok(None);
    }
    let (Some((ab, al)), Some((bb, bl))) = (operand(gpu.as_ref(), a)?, operand(gpu.as_ref(), b)?)
    else {
        return Ok(None);
    };
    let (al, bl) = (al.broadcast_to(shape)?, bl.broadcast_to(shape)?);
    Ok(Some((gpu, [(ab, al), (bb, bl)])))
}

/// `op(x, value)` (or `op(value, x)` when `number_first`) by the binary
/// kernel, the number uploaded as one element broadcast over `x`: the
/// scalar ops (`1 - x`, `x ** 2`'s pieces, `alpha * y`), for a float32 `x`.
pub(crate) fn binary_number(
    op: BinaryOp,
    x: &Tensor,
    value: f64,
    number_first: bool,
) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
        return Ok(None);
    };
    // Rounded to float32 as the CPU's float32 path rounds the number.
    let number = gpu.upload(&[value as f32])?;
    device::count(|s| s.uploads += 1);
    let shape = x.shape();
    let spread = Layout::contiguous(&[]).broadcast_to(shape)?;
    let result = if number_first {
        gpu.binary(op, &*number, &spread, &*buffer, &layout)
    } else {
        gpu.binary(op, &*buffer, &layout, &*number, &spread)
    };
    finish(result, shape)
}

/// A `where` condition as a float32 mask (`1.0` true) and its layout: a
/// GPU bool storage's device copy (what compare kernels make), or a CPU
/// bool tensor (PyTorch lets masks stay on the CPU) gathered and uploaded.
fn mask_operand<'a>(
    gpu: &dyn DeviceBackend,
    t: &'a Tensor,
) -> Result<Option<(Operand<'a>, Layout)>> {
    if t.dtype() != DType::Bool {
        return Ok(None);
    }
    if t.device() == Device::Cpu {
        let values = t.storage().data().gather_as(t.layout(), DType::Float32);
        let crate::cpu::CpuBuffer::F32(values) = values else {
            return Ok(None);
        };
        device::count(|s| s.uploads += 1);
        return Ok(Some((
            Operand::Uploaded(gpu.upload(&values)?),
            Layout::contiguous(t.shape()),
        )));
    }
    Ok(t.storage()
        .mask_buffer()?
        .map(|b| (Operand::Stored(b), t.layout().clone())))
}

/// `op(a, b)` broadcast to `shape` as a bool tensor whose values stay on the
/// device (a float32 mask), for operands promoting to float32.
pub(crate) fn compare(
    op: CompareKernel,
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    dtype: DType,
) -> Result<Option<Tensor>> {
    let Some((gpu, [(ab, al), (bb, bl)])) = float_pair(a, b, shape, dtype)? else {
        return Ok(None);
    };
    Ok(gpu.compare(op, &*ab, &al, &*bb, &bl)?.map(|buffer| {
        device::count(|s| s.kernels += 1);
        Tensor::from_parts(
            Rc::new(Storage::from_device_mask(buffer)),
            Layout::contiguous(shape),
        )
    }))
}

/// `where(condition, a, b)` broadcast to `shape` by a kernel, for a float32
/// result.
pub(crate) fn where_cond(
    condition: &Tensor,
    a: &Tensor,
    b: &Tensor,
    shape: &[usize],
    dtype: DType,
) -> Result<Option<Tensor>> {
    let Some((gpu, [(ab, al), (bb, bl)])) = float_pair(a, b, shape, dtype)? else {
        return Ok(None);
    };
    let Some((cb, cl)) = mask_operand(gpu.as_ref(), condition)? else {
        return Ok(None);
    };
    let cl = cl.broadcast_to(shape)?;
    finish(gpu.where_cond(&*cb, &cl, &*ab, &al, &*bb, &bl), shape)
}
