//! Floating-point `sum` (and so `mean`) in PyTorch's order of additions.
//!
//! A float32 sum rounds after every addition, so its last bits depend on
//! the order. PyTorch's CPU `sum` (`cascade_sum` in ATen's `SumKernel.cpp`)
//! accumulates in the input's own type with a fixed order: the reduction is
//! laid out as TensorIterator lays it out (reduced dimensions innermost,
//! then sorted by stride and coalesced), each row is summed by four-way
//! interleaved partial sums (instruction-level parallelism) over SIMD lanes,
//! and each partial sum is a four-level cascade that bounds rounding error
//! growth. A training loop that stops when its loss passes a threshold
//! (pytorch/examples' `regression`) stops at another step when one bit of
//! one early sum differs, so we add in the same order.
//!
//! Each SIMD lane of PyTorch's vector accumulators is an independent scalar
//! sum, so the kernels below are written per lane. The lane count is that
//! of PyTorch's AVX2 kernel (32-byte vectors: 8 float32 lanes, 4 float64),
//! which x86 machines run even where AVX-512 is there: ATen registers the
//! sum kernel without an AVX-512 build (slower there, and less accurate in
//! float16).
//! PyTorch splits reductions of more than 32,768 elements among its
//! threads; this is its order on one thread.

use num_traits::Float;

/// Bytes in one of PyTorch's AVX2 vectors.
const VECTOR_BYTES: usize = 32;
/// Cascade levels of `multi_row_sum`.
const LEVELS: usize = 4;
/// Interleaved partial sums of `row_sum`.
const ILP: usize = 4;

/// `utils::CeilLog2`: 1 up to 2, else the bits of `x - 1`.
fn ceil_log2(x: usize) -> usize {
    if x <= 2 {
        1
    } else {
        (usize::BITS - (x - 1).leading_zeros()) as usize
    }
}

/// One lane of `multi_row_sum`: `size` values added into a cascade of four
/// accumulators, each level taking the one below every `2^power` values.
fn cascade<T: Float>(size: usize, value: impl Fn(usize) -> T) -> T {
    let power = (ceil_log2(size) / LEVELS).max(4);
    let step = 1usize << power;
    let mask = step - 1;
    let mut acc = [T::zero(); LEVELS];
    let mut i = 0;
    while i + step <= size {
        for _ in 0..step {
            acc[0] = acc[0] + value(i);
            i += 1;
        }
        for j in 1..LEVELS {
            acc[j] = acc[j] + acc[j - 1];
            acc[j - 1] = T::zero();
            if i & (mask << (j * power)) != 0 {
                break;
            }
        }
    }
    for k in i..size {
        acc[0] = acc[0] + value(k);
    }
    let mut total = acc[0];
    for level in &acc[1..] {
        total = total + *level;
    }
    total
}

/// One lane of `row_sum`: four interleaved cascades, the leftover values
/// added to the first, then the four added in order.
fn row_sum<T: Float>(size: usize, value: impl Fn(usize) -> T) -> T {
    let rows = size / ILP;
    let mut partial = [T::zero(); ILP];
    for (k, p) in partial.iter_mut().enumerate() {
        *p = cascade(rows, |i| value(i * ILP + k));
    }
    for i in rows * ILP..size {
        partial[0] = partial[0] + value(i);
    }
    let mut total = partial[0];
    for p in &partial[1..] {
        total = total + *p;
    }
    total
}

/// `vectorized_inner_sum` for one contiguous row: `row_sum` over whole
/// vectors, lane by lane; then the elements past the last whole vector,
/// then the lanes, added to zero in order.
fn inner_vectorized<T: Float>(size: usize, lanes: usize, value: impl Fn(usize) -> T) -> T {
    let vectors = size / lanes;
    let mut total = T::zero();
    for i in vectors * lanes..size {
        total = total + value(i);
    }
    for lane in 0..lanes {
        total = total + row_sum(vectors, |v| value(v * lanes + lane));
    }
    total
}

/// One dimension of the reduction as TensorIterator sees it.
#[derive(Clone, Copy, Debug)]
struct Dim {
    size: usize,
    input: isize,
    /// 0 for a reduced dimension.
    output: isize,
}

/// TensorIterator's `reorder_dimensions` for a reduction: reduced
/// dimensions first, then by input stride (ties: the smaller first), kept
/// ones by output stride; an insertion sort that does not move past an
/// ambiguous pair (a broadcast input), as PyTorch's does.
fn reorder(dims: &mut [Dim]) {
    // 1: `a` goes after `b`; -1: before; 0: ambiguous.
    let should_swap = |a: &Dim, b: &Dim| -> i8 {
        if (a.output == 0) != (b.output == 0) {
            return if b.output == 0 { 1 } else { -1 };
        }
        for (s0, s1) in [(a.output, b.output), (a.input, b.input)] {
            if s0 == 0 || s1 == 0 {
                continue;
            }
            if s0 != s1 {
                return if s0 < s1 { -1 } else { 1 };
            }
            if a.size > b.size {
                return 1;
            }
        }
        0
    };
    // Iterator dimension 0 starts as the tensor's last.
    dims.reverse();
    for i in 1..dims.len() {
        let mut d1 = i;
        for d0 in (0..i).rev() {
            match should_swap(&dims[d0], &dims[d1]) {
                1 => {
                    dims.swap(d0, d1);
                    d1 = d0;
                }
                -1 => break,
                _ => {}
            }
        }
    }
}

/// TensorIterator's `coalesce_dimensions`: neighbours that step through
/// both operands as one dimension would become one.
fn coalesce(dims: Vec<Dim>) -> Vec<Dim> {
    let mut out: Vec<Dim> = Vec::with_capacity(dims.len());
    for d in dims {
        match out.last_mut() {
            Some(prev)
                if prev.input * prev.size as isize == d.input
                    && prev.output * prev.size as isize == d.output =>
            {
                prev.size *= d.size;
            }
            _ => out.push(d),
        }
    }
    out
}

/// Sums `data` (read through `shape`, `strides` and `offset`) over the
/// dimensions flagged in `reduced` into `out`, contiguous over the kept
/// dimensions, whose strides (0 where reduced) are `out_strides`.
pub fn sum<T: Float>(
    data: &[T],
    shape: &[usize],
    strides: &[isize],
    offset: usize,
    out_strides: &[isize],
    out: &mut [T],
) {
    if shape.contains(&0) {
        return;
    }
    let lanes = VECTOR_BYTES / size_of::<T>();
    let mut dims: Vec<Dim> = (0..shape.len())
        .filter(|&d| shape[d] != 1)
        .map(|d| Dim {
            size: shape[d],
            input: strides[d],
            output: out_strides[d],
        })
        .collect();
    reorder(&mut dims);
    let mut dims = coalesce(dims);
    // The kernel works on two dimensions at a time; pad to two.
    while dims.len() < 2 {
        dims.push(Dim {
            size: 1,
            input: 0,
            output: 0,
        });
    }
    let (d0, d1) = (dims[0], dims[1]);
    let outer = &dims[2..];
    let read = |at: isize| data[at as usize];
    // Odometer over the dimensions past the first two, the third fastest.
    let mut counter = vec![0usize; outer.len()];
    let (mut base_in, mut base_out) = (offset as isize, 0isize);
    loop {
        if d0.output != 0 {
            // Nothing reduced (only size-1 dimensions were): 0 + x.
            for j in 0..d1.size {
                for i in 0..d0.size {
                    let o = (base_out + i as isize * d0.output + j as isize * d1.output) as usize;
                    out[o] = out[o] + read(base_in + i as isize * d0.input + j as isize * d1.input);
                }
            }
        } else {
            let column = |j: usize| {
                let start = base_in + j as isize * d1.input;
                let value = |i: usize| read(start + i as isize * d0.input);
                if d0.input == 1 && d0.size >= lanes {
                    inner_vectorized(d0.size, lanes, value)
                } else if d1.input == 1 && d1.size >= lanes {
                    // vectorized_outer_sum: groups of four vectors cascade,
                    // the columns after them take row_sum.
                    if j < d1.size / (ILP * lanes) * (ILP * lanes) {
                        cascade(d0.size, value)
                    } else {
                        row_sum(d0.size, value)
                    }
                } else if d0.input < d1.input {
                    row_sum(d0.size, value)
                } else if j < d1.size / ILP * ILP {
                    // scalar_outer_sum: groups of four columns cascade.
                    cascade(d0.size, value)
                } else {
                    row_sum(d0.size, value)
                }
            };
            for j in 0..d1.size {
                let o = (base_out + j as isize * d1.output) as usize;
                out[o] = out[o] + column(j);
            }
        }
        // Next outer index, or done.
        let mut k = 0;
        loop {
            let Some(d) = outer.get(k) else {
                return;
            };
            counter[k] += 1;
            base_in += d.input;
            base_out += d.output;
            if counter[k] < d.size {
                break;
            }
            base_in -= d.input * d.size as isize;
            base_out -= d.output * d.size as isize;
            counter[k] = 0;
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums a contiguous row-major array over `reduced`.
    fn sum_of(data: &[f32], shape: &[usize], reduced: &[bool]) -> Vec<f32> {
        let rank = shape.len();
        let mut strides = vec![1isize; rank];
        let mut out_strides = vec![0isize; rank];
        let (mut s, mut o) = (1isize, 1isize);
        for d in (0..rank).rev() {
            strides[d] = s;
            s *= shape[d] as isize;
            if !reduced[d] {
                out_strides[d] = o;
                o *= shape[d] as isize;
            }
        }
        let mut out = vec![0f32; o as usize];
        sum(data, shape, &strides, 0, &out_strides, &mut out);
        out
    }

    /// Values whose float32 sums depend on the order of additions.
    fn values(n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| (i as f32 * 0.618_034).sin() * 1000.0 + 1.0 / (i + 1) as f32)
            .collect()
    }

    #[test]
    fn few_elements_add_in_order() {
        let v = [0.1f32, 0.7, -0.3, 0.2];
        let sequential = ((v[0] + v[1]) + v[2]) + v[3];
        assert_eq!(sum_of(&v, &[4], &[true]), vec![sequential]);
    }

    #[test]
    fn reduced_and_kept_dimensions_agree_with_a_transposed_copy() {
        // sum(dim=0) of [n, m] and sum(dim=1) of its transpose read the
        // same numbers in different layouts; PyTorch (and we) give each
        // column's sum by the same rule only when the layouts match, so
        // here only the total's closeness is checked, the order by the
        // fixtures recorded from PyTorch.
        let (n, m) = (37, 70);
        let data = values(n * m);
        let cols = sum_of(&data, &[n, m], &[true, false]);
        assert_eq!(cols.len(), m);
        for (j, c) in cols.iter().enumerate() {
            let exact: f64 = (0..n).map(|i| f64::from(data[i * m + j])).sum();
            assert!((f64::from(*c) - exact).abs() < 1e-3, "column {j}");
        }
    }

    #[test]
    fn partial_sums_keep_what_a_sequential_sum_drops() {
        // 1 is below half an ulp of 1e8 in float32: added one at a time
        // to 1e8 every one is lost, while the lanes' partial sums of 32
        // ones each survive.
        let mut v = vec![1.0f32; 256];
        v[0] = 1e8;
        let total = sum_of(&v, &[256], &[true])[0];
        let sequential = v.iter().fold(0f32, |a, b| a + b);
        assert_eq!(sequential, 1e8);
        assert!(total > 1e8);
    }
}
