//! Elementwise binary kernels with broadcasting, and the strided two- and
//! three-operand maps the elementwise ops are built on.

use super::{CpuBuffer, Element};
use crate::backend::BinaryOp;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// `op(lhs, rhs)` over two buffers of one dtype, each read through its
/// layout already broadcast to the output shape; the result is contiguous.
/// On bool, `add` is logical or and `mul` logical and, as in PyTorch.
pub fn binary_map(
    op: BinaryOp,
    lhs: &CpuBuffer,
    lhs_layout: &Layout,
    rhs: &CpuBuffer,
    rhs_layout: &Layout,
) -> Result<CpuBuffer> {
    match (lhs, rhs) {
        (CpuBuffer::F32(l), CpuBuffer::F32(r)) => {
            Ok(CpuBuffer::F32(float_map(op, l, lhs_layout, r, rhs_layout)))
        }
        (CpuBuffer::F64(l), CpuBuffer::F64(r)) => {
            Ok(CpuBuffer::F64(float_map(op, l, lhs_layout, r, rhs_layout)))
        }
        (CpuBuffer::I64(l), CpuBuffer::I64(r)) => {
            let out = match op {
                BinaryOp::Add => map(l, lhs_layout, r, rhs_layout, i64::wrapping_add),
                BinaryOp::Sub => map(l, lhs_layout, r, rhs_layout, i64::wrapping_sub),
                BinaryOp::Mul => map(l, lhs_layout, r, rhs_layout, i64::wrapping_mul),
                BinaryOp::Pow => map(l, lhs_layout, r, rhs_layout, super::unary::powi),
                BinaryOp::Maximum => map(l, lhs_layout, r, rhs_layout, i64::max),
                BinaryOp::Minimum => map(l, lhs_layout, r, rhs_layout, i64::min),
                // Division and the float-only kernels: the op promotes first.
                _ => {
                    return Err(Error::Backend(format!(
                        "{op:?} on integers must be promoted to float"
                    )));
                }
            };
            Ok(CpuBuffer::I64(out))
        }
        (CpuBuffer::Bool(l), CpuBuffer::Bool(r)) => {
            let out = match op {
                BinaryOp::Add => map(l, lhs_layout, r, rhs_layout, |a, b| a | b),
                BinaryOp::Mul | BinaryOp::Minimum => {
                    map(l, lhs_layout, r, rhs_layout, |a, b| a & b)
                }
                BinaryOp::Maximum => map(l, lhs_layout, r, rhs_layout, |a, b| a | b),
                _ => {
                    return Err(Error::Backend(format!(
                        "{op:?} on bool must be refused or promoted first"
                    )));
                }
            };
            Ok(CpuBuffer::Bool(out))
        }
        (l, r) => Err(Error::Backend(format!(
            "binary kernel got {} and {}; operands must be promoted first",
            l.dtype(),
            r.dtype()
        ))),
    }
}

fn float_map<T: super::Float>(op: BinaryOp, l: &[T], ll: &Layout, r: &[T], rl: &Layout) -> Vec<T> {
    // The commonest kernels as their own loops, which the compiler vectorises.
    match op {
        BinaryOp::Add => map(l, ll, r, rl, |a, b| a + b),
        BinaryOp::Sub => map(l, ll, r, rl, |a, b| a - b),
        BinaryOp::Mul => map(l, ll, r, rl, |a, b| a * b),
        BinaryOp::Div => map(l, ll, r, rl, |a, b| a / b),
        _ => map(l, ll, r, rl, |a, b| op.apply(a, b)),
    }
}

/// The dense slice a contiguous layout reads.
fn dense<'a, T>(data: &'a [T], layout: &Layout) -> Option<&'a [T]> {
    let start = layout.offset();
    layout
        .is_contiguous()
        .then(|| data.get(start..start + layout.numel()))
        .flatten()
}

/// The one element a layout reads everywhere (a broadcast scalar), if so.
fn single<T: Copy>(data: &[T], layout: &Layout) -> Option<T> {
    let broadcast = layout.strides().iter().all(|&s| s == 0);
    broadcast
        .then(|| data.get(layout.offset()).copied())
        .flatten()
}

/// `f` over two strided operands into a contiguous result.
pub(crate) fn map<A: Element, B: Element, O>(
    lhs: &[A],
    lhs_layout: &Layout,
    rhs: &[B],
    rhs_layout: &Layout,
    f: impl Fn(A, B) -> O,
) -> Vec<O> {
    if lhs_layout.numel() == 0 {
        return Vec::new();
    }
    // The common cases, kept to straight slice loops the compiler vectorises:
    // two dense operands, or a dense one with a broadcast scalar (`x * 2`).
    match (dense(lhs, lhs_layout), dense(rhs, rhs_layout)) {
        (Some(l), Some(r)) => return l.iter().zip(r).map(|(&a, &b)| f(a, b)).collect(),
        (Some(l), None) => {
            if let Some(b) = single(rhs, rhs_layout) {
                return l.iter().map(|&a| f(a, b)).collect();
            }
        }
        (None, Some(r)) => {
            if let Some(a) = single(lhs, lhs_layout) {
                return r.iter().map(|&b| f(a, b)).collect();
            }
        }
        (None, None) => {}
    }
    lhs_layout
        .indices()
        .zip(rhs_layout.indices())
        .map(|(i, j)| f(lhs[i], rhs[j]))
        .collect()
}

/// `f` over three strided operands of one shape into a contiguous result
/// (`where`, `clamp` with tensor bounds).
pub(crate) fn map3<A: Element, B: Element, C: Element, O>(
    (a, a_layout): (&[A], &Layout),
    (b, b_layout): (&[B], &Layout),
    (c, c_layout): (&[C], &Layout),
    f: impl Fn(A, B, C) -> O,
) -> Vec<O> {
    if a_layout.numel() == 0 {
        return Vec::new();
    }
    // Dense operands, alone or beside broadcast scalars (`where(mask, grad,
    // 0)` in ReLU's backward): one plain slice loop per combination, not the
    // strided walk.
    if let (Some(x), Some(y), Some(z)) = (
        Flat::new(a, a_layout),
        Flat::new(b, b_layout),
        Flat::new(c, c_layout),
    ) {
        use Flat::{Dense, Single};
        let f = &f;
        return match (x, y, z) {
            (Dense(a), Dense(b), Dense(c)) => a
                .iter()
                .zip(b)
                .zip(c)
                .map(|((&x, &y), &z)| f(x, y, z))
                .collect(),
            (Dense(a), Dense(b), Single(z)) => a.iter().zip(b).map(|(&x, &y)| f(x, y, z)).collect(),
            (Dense(a), Single(y), Dense(c)) => a.iter().zip(c).map(|(&x, &z)| f(x, y, z)).collect(),
            (Single(x), Dense(b), Dense(c)) => b.iter().zip(c).map(|(&y, &z)| f(x, y, z)).collect(),
            (Dense(a), Single(y), Single(z)) => a.iter().map(|&x| f(x, y, z)).collect(),
            (Single(x), Dense(b), Single(z)) => b.iter().map(|&y| f(x, y, z)).collect(),
            (Single(x), Single(y), Dense(c)) => c.iter().map(|&z| f(x, y, z)).collect(),
            (Single(x), Single(y), Single(z)) => {
                (0..a_layout.numel()).map(|_| f(x, y, z)).collect()
            }
        };
    }
    a_layout
        .indices()
        .zip(b_layout.indices())
        .zip(c_layout.indices())
        .map(|((i, j), k)| f(a[i], b[j], c[k]))
        .collect()
}

/// An operand read as a flat sequence: a dense slice or one repeated value.
#[derive(Clone, Copy)]
enum Flat<'a, T> {
    Dense(&'a [T]),
    Single(T),
}

impl<'a, T: Copy> Flat<'a, T> {
    fn new(data: &'a [T], layout: &Layout) -> Option<Self> {
        dense(data, layout)
            .map(Flat::Dense)
            .or_else(|| single(data, layout).map(Flat::Single))
    }
}
