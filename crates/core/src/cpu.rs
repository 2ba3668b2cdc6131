//! The CPU backend: kernels over `f32` storage walked through any layout.

use crate::backend::BinaryOp;
use crate::layout::Layout;

/// `op(lhs, rhs)` for every element of `out_shape`, reading each operand
/// through its layout already broadcast to `out_shape`; the result is contiguous.
pub fn binary_map(
    op: BinaryOp,
    lhs: &[f32],
    lhs_layout: &Layout,
    rhs: &[f32],
    rhs_layout: &Layout,
) -> Vec<f32> {
    match (lhs_layout.is_contiguous(), rhs_layout.is_contiguous()) {
        // The common case, kept to a straight zip the compiler vectorises.
        (true, true) => {
            let n = lhs_layout.numel();
            let l = &lhs[lhs_layout.offset()..lhs_layout.offset() + n];
            let r = &rhs[rhs_layout.offset()..rhs_layout.offset() + n];
            l.iter().zip(r).map(|(&a, &b)| op.apply(a, b)).collect()
        }
        _ => lhs_layout
            .indices()
            .zip(rhs_layout.indices())
            .map(|(i, j)| op.apply(lhs[i], rhs[j]))
            .collect(),
    }
}

/// Sum of all elements, accumulated in `f64` so long sums keep their digits.
pub fn sum_all(data: &[f32], layout: &Layout) -> f32 {
    layout.indices().map(|i| f64::from(data[i])).sum::<f64>() as f32
}

/// The elements of a layout, copied out in row-major order.
pub fn gather(data: &[f32], layout: &Layout) -> Vec<f32> {
    layout.indices().map(|i| data[i]).collect()
}

/// Sums `layout`'s elements into a contiguous tensor of `shape`, which must
/// broadcast to the layout's shape: each input element adds into the output
/// element that broadcasting would have read it from.
pub fn sum_to_shape(data: &[f32], layout: &Layout, shape: &[usize]) -> crate::Result<Vec<f32>> {
    let target = Layout::contiguous(shape).broadcast_to(layout.shape())?;
    let mut acc = vec![0f64; shape.iter().product()];
    for (i, o) in layout.indices().zip(target.indices()) {
        acc[o] += f64::from(data[i]);
    }
    Ok(acc.into_iter().map(|v| v as f32).collect())
}
