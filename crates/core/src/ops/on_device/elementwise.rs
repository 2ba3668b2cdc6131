//! Elementwise kernels on GPU tensors: unary and binary maps (a number
//! operand uploaded as one element). Comparisons and `where` run through
//! [`crate::kernels`].

use std::rc::Rc;

use crate::backend::{BinaryOp, DeviceBackend};
use crate::device;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::UnaryOp;
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
