//! Reductions and the softmax family.
//!
//! Every kernel walks its input once per pass in row-major order with an
//! odometer ([`ReducePlan`]) that carries, beside the storage index, the index
//! of the output element the input element folds into and its position
//! within the reduced dimensions. No kernel builds per-element index vectors:
//! what they allocate is their output (and, for two-pass kernels, one
//! output-sized scratch row).

use super::{CpuBuffer, Element, Float, cascade};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// Which dimensions a reduction folds, and the walk that does it.
#[derive(Clone, Debug)]
pub struct ReducePlan {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
    /// Strides of the contiguous output (reduced dimensions kept as size 1).
    out_strides: Vec<isize>,
    /// Row-major strides within the reduced dimensions, 0 for kept ones.
    reduced_strides: Vec<isize>,
    out_len: usize,
    reduced_len: usize,
}

impl ReducePlan {
    /// A plan folding the dimensions of `layout` whose flag in `reduced` is set.
    pub fn new(layout: &Layout, reduced: &[bool]) -> Self {
        let shape = layout.shape().to_vec();
        let rank = shape.len();
        let mut out_strides = vec![0isize; rank];
        let mut reduced_strides = vec![0isize; rank];
        let (mut out_len, mut reduced_len) = (1usize, 1usize);
        for d in (0..rank).rev() {
            if reduced.get(d).copied().unwrap_or(false) {
                reduced_strides[d] = reduced_len as isize;
                reduced_len *= shape[d];
            } else {
                out_strides[d] = out_len as isize;
                out_len *= shape[d];
            }
        }
        Self {
            strides: layout.strides().to_vec(),
            offset: layout.offset(),
            shape,
            out_strides,
            reduced_strides,
            out_len,
            reduced_len,
        }
    }

    /// Number of output elements.
    pub fn out_len(&self) -> usize {
        self.out_len
    }

    /// Number of input elements folded into each output element.
    pub fn reduced_len(&self) -> usize {
        self.reduced_len
    }

    /// Calls `f(storage index, output index, position within the reduced
    /// dimensions)` for every input element, in row-major order.
    pub fn walk(&self, mut f: impl FnMut(usize, usize, usize)) {
        let rank = self.shape.len();
        if self.shape.contains(&0) {
            return;
        }
        let Some(last) = rank.checked_sub(1) else {
            f(self.offset, 0, 0);
            return;
        };
        // A fixed counter for the usual ranks keeps the walk allocation-free.
        let mut fixed = [0usize; 8];
        let mut spilled;
        let counter: &mut [usize] = if rank <= fixed.len() {
            &mut fixed[..rank]
        } else {
            spilled = vec![0usize; rank];
            &mut spilled
        };
        let (n, si, so, sr) = (
            self.shape[last],
            self.strides[last],
            self.out_strides[last],
            self.reduced_strides[last],
        );
        let (mut i, mut o, mut r) = (self.offset as isize, 0isize, 0isize);
        loop {
            for k in 0..n as isize {
                f(
                    (i + k * si) as usize,
                    (o + k * so) as usize,
                    (r + k * sr) as usize,
                );
            }
            let mut d = last;
            loop {
                let Some(prev) = d.checked_sub(1) else {
                    return;
                };
                d = prev;
                counter[d] += 1;
                i += self.strides[d];
                o += self.out_strides[d];
                r += self.reduced_strides[d];
                if counter[d] < self.shape[d] {
                    break;
                }
                let n = self.shape[d] as isize;
                i -= self.strides[d] * n;
                o -= self.out_strides[d] * n;
                r -= self.reduced_strides[d] * n;
                counter[d] = 0;
            }
        }
    }
}

/// A reduction that folds elements pairwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// `sum`: int64 for integer and bool inputs, as PyTorch.
    Sum,
    /// `mean`: floating point only.
    Mean,
    /// `prod`: int64 for integer and bool inputs.
    Prod,
    /// `amax`: NaN wins, as in PyTorch.
    Max,
    /// `amin`
    Min,
}

/// Sum of all elements, in PyTorch's order of additions for floats.
pub fn sum_all(buffer: &CpuBuffer, layout: &Layout) -> Result<CpuBuffer> {
    reduce(buffer, layout, &vec![true; layout.rank()], Fold::Sum)
}

/// Folds the flagged dimensions of a buffer into a contiguous result with
/// those dimensions kept as size 1.
pub fn reduce(
    buffer: &CpuBuffer,
    layout: &Layout,
    reduced: &[bool],
    fold: Fold,
) -> Result<CpuBuffer> {
    let plan = ReducePlan::new(layout, reduced);
    if fold == Fold::Mean && !buffer.dtype().is_float() {
        return Err(Error::MeanDtype {
            dtype: buffer.dtype(),
        });
    }
    Ok(match buffer {
        CpuBuffer::F32(d) => CpuBuffer::F32(fold_float(d, &plan, fold)),
        CpuBuffer::F64(d) => CpuBuffer::F64(fold_float(d, &plan, fold)),
        // bfloat16 accumulates in float32 and rounds the result back.
        CpuBuffer::BF16(_) => {
            let wide = buffer.gather_as(layout, DType::Float32);
            let contiguous = Layout::contiguous(layout.shape());
            reduce(&wide, &contiguous, reduced, fold)?.into_dtype(DType::BFloat16)
        }
        CpuBuffer::I64(d) => CpuBuffer::I64(fold_int(d, &plan, fold, |v| v)),
        // Narrow integers sum into int64, as PyTorch's do; max and min keep the dtype.
        CpuBuffer::U8(d) => narrow_fold(fold_int(d, &plan, fold, i64::from), fold, DType::UInt8),
        CpuBuffer::I8(d) => narrow_fold(fold_int(d, &plan, fold, i64::from), fold, DType::Int8),
        CpuBuffer::I16(d) => narrow_fold(fold_int(d, &plan, fold, i64::from), fold, DType::Int16),
        CpuBuffer::I32(d) => narrow_fold(fold_int(d, &plan, fold, i64::from), fold, DType::Int32),
        CpuBuffer::Bool(d) => match fold {
            Fold::Sum | Fold::Prod | Fold::Mean => {
                CpuBuffer::I64(fold_int(d, &plan, fold, i64::from))
            }
            // max is any, min is all.
            Fold::Max | Fold::Min => {
                let out = fold_int(d, &plan, fold, i64::from);
                CpuBuffer::Bool(out.into_iter().map(|v| v != 0).collect())
            }
        },
    })
}

/// A narrow integer fold's int64 result in the dtype PyTorch gives it.
/// A float32 kernel on a bfloat16 buffer: its elements widened (contiguous),
/// the result rounded back, as PyTorch's CPU kernels accumulate bfloat16.
fn via_f32(
    buffer: &CpuBuffer,
    layout: &Layout,
    kernel: impl FnOnce(&CpuBuffer, &Layout) -> Result<CpuBuffer>,
) -> Result<CpuBuffer> {
    let wide = buffer.gather_as(layout, DType::Float32);
    Ok(kernel(&wide, &Layout::contiguous(layout.shape()))?.into_dtype(DType::BFloat16))
}

fn narrow_fold(out: Vec<i64>, fold: Fold, dtype: DType) -> CpuBuffer {
    match fold {
        Fold::Max | Fold::Min => CpuBuffer::I64(out).into_dtype(dtype),
        Fold::Sum | Fold::Prod | Fold::Mean => CpuBuffer::I64(out),
    }
}

fn fold_float<T: Float>(data: &[T], plan: &ReducePlan, fold: Fold) -> Vec<T> {
    let (init, step): (f64, fn(f64, f64) -> f64) = match fold {
        Fold::Sum | Fold::Mean => return sum_float(data, plan, fold == Fold::Mean),
        Fold::Prod => (1.0, |a, v| a * v),
        // NaN wins, as in PyTorch.
        Fold::Max => (
            f64::NEG_INFINITY,
            |a, v| if v.is_nan() || v > a { v } else { a },
        ),
        Fold::Min => (
            f64::INFINITY,
            |a, v| if v.is_nan() || v < a { v } else { a },
        ),
    };
    let mut acc = vec![init; plan.out_len()];
    plan.walk(|i, o, _| acc[o] = step(acc[o], data[i].to_f64()));
    acc.into_iter().map(T::from_f64).collect()
}

/// `sum` in the input's type and PyTorch's order of additions (see
/// `cascade`); `mean` is that sum divided by the count, as PyTorch's CPU
/// `mean` is.
fn sum_float<T: Float>(data: &[T], plan: &ReducePlan, mean: bool) -> Vec<T> {
    let mut out = vec![T::zero(); plan.out_len()];
    cascade::sum(
        data,
        &plan.shape,
        &plan.strides,
        plan.offset,
        &plan.out_strides,
        &mut out,
    );
    if mean {
        // An empty slice's mean is 0 / 0, NaN, as in PyTorch.
        let n = T::from_f64(plan.reduced_len() as f64);
        for v in &mut out {
            *v = *v / n;
        }
    }
    out
}

fn fold_int<T: Copy>(
    data: &[T],
    plan: &ReducePlan,
    fold: Fold,
    int: impl Fn(T) -> i64,
) -> Vec<i64> {
    let init = match fold {
        Fold::Sum | Fold::Mean => 0,
        Fold::Prod => 1,
        Fold::Max => i64::MIN,
        Fold::Min => i64::MAX,
    };
    let mut acc = vec![init; plan.out_len()];
    plan.walk(|i, o, _| {
        let v = int(data[i]);
        acc[o] = match fold {
            Fold::Sum | Fold::Mean => acc[o].wrapping_add(v),
            Fold::Prod => acc[o].wrapping_mul(v),
            Fold::Max => acc[o].max(v),
            Fold::Min => acc[o].min(v),
        };
    });
    acc
}

/// The extreme of each reduced slice and where it first occurs (its
/// position within the reduced dimensions), PyTorch's `max(dim)` and
/// `argmax`: the first NaN wins, then the first of tied extremes.
pub fn arg_reduce(
    buffer: &CpuBuffer,
    layout: &Layout,
    reduced: &[bool],
    max: bool,
) -> Result<(CpuBuffer, Vec<i64>)> {
    fn go<T: Element>(data: &[T], plan: &ReducePlan, max: bool) -> (CpuBuffer, Vec<i64>) {
        let mut best: Vec<Option<T>> = vec![None; plan.out_len()];
        let mut index = vec![0i64; plan.out_len()];
        plan.walk(|i, o, r| {
            let v = data[i];
            let better = match best[o] {
                None => true,
                // NaN is the only value unequal to itself; once held it stays.
                Some(b) if b.partial_cmp(&b).is_none() => false,
                Some(_) if v.partial_cmp(&v).is_none() => true,
                Some(b) if max => v > b,
                Some(b) => v < b,
            };
            if better {
                best[o] = Some(v);
                index[o] = r as i64;
            }
        });
        let values = best.into_iter().map(Option::unwrap_or_default).collect();
        (T::into_buffer(values), index)
    }
    let plan = ReducePlan::new(layout, reduced);
    Ok(crate::cpu_dispatch!(buffer, d => go(d, &plan, max)))
}

/// Variance (or its square root) of each reduced slice with `correction`
/// subtracted from the count, in two passes (mean, then squared deviations)
/// so it stays exact for data far from zero.
pub fn variance(
    buffer: &CpuBuffer,
    layout: &Layout,
    reduced: &[bool],
    correction: f64,
    sqrt: bool,
) -> Result<CpuBuffer> {
    fn go<T: Float>(data: &[T], plan: &ReducePlan, correction: f64, sqrt: bool) -> Vec<T> {
        let n = plan.reduced_len() as f64;
        let mut mean = vec![0f64; plan.out_len()];
        plan.walk(|i, o, _| mean[o] += data[i].to_f64());
        mean.iter_mut().for_each(|m| *m /= n);
        let mut acc = vec![0f64; plan.out_len()];
        plan.walk(|i, o, _| {
            let d = data[i].to_f64() - mean[o];
            acc[o] += d * d;
        });
        let divisor = (n - correction).max(0.0);
        acc.into_iter()
            .map(|s| {
                let var = s / divisor;
                T::from_f64(if sqrt { var.sqrt() } else { var })
            })
            .collect()
    }
    let plan = ReducePlan::new(layout, reduced);
    match buffer {
        CpuBuffer::F32(d) => Ok(CpuBuffer::F32(go(d, &plan, correction, sqrt))),
        CpuBuffer::F64(d) => Ok(CpuBuffer::F64(go(d, &plan, correction, sqrt))),
        CpuBuffer::BF16(_) => via_f32(buffer, layout, |b, l| {
            variance(b, l, reduced, correction, sqrt)
        }),
        _ => Err(Error::VarDtype),
    }
}

/// PyTorch's `linalg.vector_norm` of each reduced slice: `sum(|x|^p)^(1/p)`,
/// with p = inf, -inf and 0 as their limits.
pub fn vector_norm(
    buffer: &CpuBuffer,
    layout: &Layout,
    reduced: &[bool],
    p: f64,
) -> Result<CpuBuffer> {
    fn go<T: Float>(data: &[T], plan: &ReducePlan, p: f64) -> Vec<T> {
        let init = match p {
            f64::INFINITY => 0.0,
            f64::NEG_INFINITY => f64::INFINITY,
            _ => 0.0,
        };
        let mut acc = vec![init; plan.out_len()];
        plan.walk(|i, o, _| {
            let a = data[i].to_f64().abs();
            acc[o] = match p {
                f64::INFINITY if a.is_nan() || a > acc[o] => a,
                f64::NEG_INFINITY if a.is_nan() || a < acc[o] => a,
                f64::INFINITY | f64::NEG_INFINITY => acc[o],
                0.0 => acc[o] + f64::from(u8::from(a != 0.0)),
                1.0 => acc[o] + a,
                2.0 => acc[o] + a * a,
                _ => acc[o] + a.powf(p),
            };
        });
        acc.into_iter()
            .map(|s| {
                T::from_f64(match p {
                    f64::INFINITY | f64::NEG_INFINITY | 0.0 | 1.0 => s,
                    2.0 => s.sqrt(),
                    _ => s.powf(p.recip()),
                })
            })
            .collect()
    }
    let plan = ReducePlan::new(layout, reduced);
    match buffer {
        CpuBuffer::F32(d) => Ok(CpuBuffer::F32(go(d, &plan, p))),
        CpuBuffer::F64(d) => Ok(CpuBuffer::F64(go(d, &plan, p))),
        CpuBuffer::BF16(_) => via_f32(buffer, layout, |b, l| vector_norm(b, l, reduced, p)),
        other => Err(Error::NormDtype {
            dtype: other.dtype(),
        }),
    }
}

/// `log(sum(exp(x)))` of each reduced slice, computed as PyTorch does:
/// shifted by the slice's maximum unless that maximum is infinite.
pub fn logsumexp(buffer: &CpuBuffer, layout: &Layout, reduced: &[bool]) -> Result<CpuBuffer> {
    fn go<T: Float>(data: &[T], plan: &ReducePlan) -> Vec<T> {
        let mut max = vec![f64::NEG_INFINITY; plan.out_len()];
        plan.walk(|i, o, _| {
            let v = data[i].to_f64();
            if v.is_nan() || v > max[o] {
                max[o] = v;
            }
        });
        max.iter_mut()
            .filter(|m| m.is_infinite())
            .for_each(|m| *m = 0.0);
        let mut sum = vec![0f64; plan.out_len()];
        plan.walk(|i, o, _| sum[o] += (data[i].to_f64() - max[o]).exp());
        sum.into_iter()
            .zip(max)
            .map(|(s, m)| T::from_f64(s.ln() + m))
            .collect()
    }
    let plan = ReducePlan::new(layout, reduced);
    match buffer {
        CpuBuffer::F32(d) => Ok(CpuBuffer::F32(go(d, &plan))),
        CpuBuffer::F64(d) => Ok(CpuBuffer::F64(go(d, &plan))),
        CpuBuffer::BF16(_) => via_f32(buffer, layout, |b, l| logsumexp(b, l, reduced)),
        other => Err(Error::KernelDtype {
            kernel: "logsumexp",
            dtype: other.dtype(),
        }),
    }
}

/// `softmax` (or `log_softmax`) along dimension `dim`, contiguous: each
/// slice is shifted by its maximum so large inputs do not overflow.
pub fn softmax(buffer: &CpuBuffer, layout: &Layout, dim: usize, log: bool) -> Result<CpuBuffer> {
    fn go<T: Float>(data: &[T], layout: &Layout, plan: &ReducePlan, log: bool) -> Vec<T> {
        let mut max = vec![f64::NEG_INFINITY; plan.out_len()];
        plan.walk(|i, o, _| {
            let v = data[i].to_f64();
            if v.is_nan() || v > max[o] {
                max[o] = v;
            }
        });
        let mut sum = vec![0f64; plan.out_len()];
        plan.walk(|i, o, _| sum[o] += (data[i].to_f64() - max[o]).exp());
        if log {
            sum.iter_mut().for_each(|s| *s = s.ln());
        }
        let mut out = Vec::with_capacity(layout.numel());
        plan.walk(|i, o, _| {
            let shifted = data[i].to_f64() - max[o];
            out.push(T::from_f64(if log {
                shifted - sum[o]
            } else {
                shifted.exp() / sum[o]
            }));
        });
        out
    }
    let reduced: Vec<bool> = (0..layout.rank()).map(|d| d == dim).collect();
    let plan = ReducePlan::new(layout, &reduced);
    let last = dim + 1 >= layout.rank();
    let kernel = match (log, last) {
        (false, true) => "softmax_lastdim_kernel_impl",
        (false, false) => "softmax_kernel_impl",
        (true, true) => "log_softmax_lastdim_kernel_impl",
        (true, false) => "log_softmax_kernel_impl",
    };
    match buffer {
        CpuBuffer::F32(d) => Ok(CpuBuffer::F32(go(d, layout, &plan, log))),
        CpuBuffer::F64(d) => Ok(CpuBuffer::F64(go(d, layout, &plan, log))),
        CpuBuffer::BF16(_) => via_f32(buffer, layout, |b, l| softmax(b, l, dim, log)),
        other => Err(Error::KernelDtype {
            kernel,
            dtype: other.dtype(),
        }),
    }
}

/// Sums a buffer's elements into a contiguous result of `shape`, which must
/// broadcast to the layout's shape: each input element adds into the output
/// element broadcasting would have read it from.
pub fn sum_to_shape(buffer: &CpuBuffer, layout: &Layout, shape: &[usize]) -> Result<CpuBuffer> {
    let extra = layout.rank().saturating_sub(shape.len());
    // Validates that `shape` broadcasts to the input.
    Layout::contiguous(shape).broadcast_to(layout.shape())?;
    let reduced: Vec<bool> = (0..layout.rank())
        .map(|d| d < extra || (shape[d - extra] == 1 && layout.shape()[d] != 1))
        .collect();
    reduce(buffer, layout, &reduced, Fold::Sum).map(|b| match (b, buffer.dtype()) {
        // Summing broadcast copies of a flag counts them; the shape's dtype stays.
        (CpuBuffer::I64(v), crate::DType::Bool) => {
            CpuBuffer::Bool(v.into_iter().map(|x| x != 0).collect())
        }
        (b, _) => b,
    })
}

/// For backward of `max`/`amax`/the inf norm: each element's share of its
/// slice's gradient, `1 / ties` where it equals the slice's `result` (NaN
/// matching NaN) and 0 elsewhere, as PyTorch's `evenly_distribute_backward`
/// and `scale_grad_by_count`; with `abs`, elements compare by magnitude and
/// the share takes the element's sign. Row-major, in `f64`.
pub fn tie_shares(
    buffer: &CpuBuffer,
    layout: &Layout,
    reduced: &[bool],
    result: &[f64],
    abs: bool,
) -> Vec<f64> {
    let plan = ReducePlan::new(layout, reduced);
    let values = buffer.to_f64_vec(layout);
    let tied = |v: f64, r: f64| {
        let v = if abs { v.abs() } else { v };
        v == r || (v.is_nan() && r.is_nan())
    };
    let mut count = vec![0f64; plan.out_len()];
    let mut k = 0;
    plan.walk(|_, o, _| {
        count[o] += f64::from(u8::from(tied(values[k], result[o])));
        k += 1;
    });
    let mut shares = Vec::with_capacity(values.len());
    plan.walk(|_, o, _| {
        let v = values[shares.len()];
        let sign = if abs {
            v.signum() * f64::from(u8::from(v != 0.0))
        } else {
            1.0
        };
        shares.push(if tied(v, result[o]) {
            sign / count[o]
        } else {
            0.0
        });
    });
    shares
}

/// For backward of `max(dim)`: 1 where an element sits at its slice's
/// `indices` entry, 0 elsewhere, over a contiguous tensor of `shape`.
pub fn one_hot(shape: &[usize], reduced: &[bool], indices: &[i64]) -> Vec<f64> {
    let plan = ReducePlan::new(&Layout::contiguous(shape), reduced);
    let mut out = Vec::with_capacity(shape.iter().product());
    plan.walk(|_, o, r| out.push(f64::from(u8::from(indices.get(o) == Some(&(r as i64))))));
    out
}

/// For backward of `prod`: how many other elements of each element's slice
/// are zero. Row-major, in `f64`.
pub fn other_zeros(buffer: &CpuBuffer, layout: &Layout, reduced: &[bool]) -> Vec<f64> {
    let plan = ReducePlan::new(layout, reduced);
    let values = buffer.to_f64_vec(layout);
    let mut zeros = vec![0f64; plan.out_len()];
    let mut k = 0;
    plan.walk(|_, o, _| {
        zeros[o] += f64::from(u8::from(values[k] == 0.0));
        k += 1;
    });
    let mut out = Vec::with_capacity(values.len());
    plan.walk(|_, o, _| {
        let own = f64::from(u8::from(values[out.len()] == 0.0));
        out.push(zeros[o] - own);
    });
    out
}
