//! Reductions on GPU tensors: folds over any axes (softmax runs through
//! [`crate::kernels`]).

use crate::backend::ReduceKernel;
use crate::error::Result;
use crate::tensor::Tensor;

use super::{finish, float32_input};

/// `op` over `dims` (sorted, distinct) of a float32 `x` by a kernel; the
/// result has `x`'s shape without those dims.
pub(crate) fn reduce(op: ReduceKernel, x: &Tensor, dims: &[usize]) -> Result<Option<Tensor>> {
    let Some((gpu, buffer, layout)) = float32_input(x)? else {
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
