//! Batched matrix products on GPU tensors, with linear's fused bias.

use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use crate::tensor::Tensor;

use super::{backend, finish, operand};

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
