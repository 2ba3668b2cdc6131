//! Reductions.

use super::{CpuBuffer, Element, Float};
use crate::error::{Error, Result};
use crate::layout::Layout;

/// Sum of all elements of a float buffer, accumulated in `f64` so long sums
/// keep their digits.
pub fn sum_all(buffer: &CpuBuffer, layout: &Layout) -> Result<CpuBuffer> {
    fn go<T: Float>(d: &[T], layout: &Layout) -> CpuBuffer {
        T::into_buffer(vec![T::from_f64(
            layout.indices().map(|i| d[i].to_f64()).sum(),
        )])
    }
    match buffer {
        CpuBuffer::F32(d) => Ok(go(d, layout)),
        CpuBuffer::F64(d) => Ok(go(d, layout)),
        CpuBuffer::I64(d) => Ok(CpuBuffer::I64(vec![layout.indices().map(|i| d[i]).sum()])),
        CpuBuffer::Bool(_) => Err(Error::Backend(
            "sum of bool must be promoted to int64".into(),
        )),
    }
}

/// Sums a buffer's elements into a contiguous result of `shape`, which must
/// broadcast to the layout's shape: each input element adds into the output
/// element broadcasting would have read it from.
pub fn sum_to_shape(buffer: &CpuBuffer, layout: &Layout, shape: &[usize]) -> Result<CpuBuffer> {
    let target = Layout::contiguous(shape).broadcast_to(layout.shape())?;
    fn go<T: Element>(d: &[T], layout: &Layout, target: &Layout, len: usize) -> CpuBuffer {
        let mut acc = vec![0f64; len];
        for (i, o) in layout.indices().zip(target.indices()) {
            acc[o] += d[i].to_f64();
        }
        T::into_buffer(acc.into_iter().map(T::from_f64).collect())
    }
    let len = shape.iter().product();
    Ok(crate::cpu_dispatch!(buffer, d => go(d, layout, &target, len)))
}
