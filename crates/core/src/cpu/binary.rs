//! Elementwise binary kernels with broadcasting.

use super::{CpuBuffer, Element};
use crate::backend::BinaryOp;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// `op(lhs, rhs)` over two buffers of one dtype, each read through its
/// layout already broadcast to the output shape; the result is contiguous.
pub fn binary_map(
    op: BinaryOp,
    lhs: &CpuBuffer,
    lhs_layout: &Layout,
    rhs: &CpuBuffer,
    rhs_layout: &Layout,
) -> Result<CpuBuffer> {
    match (lhs, rhs) {
        (CpuBuffer::F32(l), CpuBuffer::F32(r)) => {
            Ok(CpuBuffer::F32(map(l, lhs_layout, r, rhs_layout, |a, b| {
                op.apply(a, b)
            })))
        }
        (CpuBuffer::F64(l), CpuBuffer::F64(r)) => {
            Ok(CpuBuffer::F64(map(l, lhs_layout, r, rhs_layout, |a, b| {
                op.apply(a, b)
            })))
        }
        (CpuBuffer::I64(l), CpuBuffer::I64(r)) => {
            let f = match op {
                BinaryOp::Add => i64::wrapping_add,
                BinaryOp::Sub => i64::wrapping_sub,
                BinaryOp::Mul => i64::wrapping_mul,
                BinaryOp::Div => {
                    return Err(Error::Backend(
                        "integer division must be promoted to float".into(),
                    ));
                }
            };
            Ok(CpuBuffer::I64(map(l, lhs_layout, r, rhs_layout, f)))
        }
        (l, r) => Err(Error::Backend(format!(
            "binary kernel got {} and {}; operands must be promoted first",
            l.dtype(),
            r.dtype()
        ))),
    }
}

/// `f` over two strided operands into a contiguous result.
pub(crate) fn map<A: Element, B: Element, O>(
    lhs: &[A],
    lhs_layout: &Layout,
    rhs: &[B],
    rhs_layout: &Layout,
    f: impl Fn(A, B) -> O,
) -> Vec<O> {
    if lhs_layout.is_contiguous() && rhs_layout.is_contiguous() {
        // The common case, kept to a straight zip the compiler vectorises.
        let n = lhs_layout.numel();
        let l = &lhs[lhs_layout.offset()..lhs_layout.offset() + n];
        let r = &rhs[rhs_layout.offset()..rhs_layout.offset() + n];
        l.iter().zip(r).map(|(&a, &b)| f(a, b)).collect()
    } else {
        lhs_layout
            .indices()
            .zip(rhs_layout.indices())
            .map(|(i, j)| f(lhs[i], rhs[j]))
            .collect()
    }
}
