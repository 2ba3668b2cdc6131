//! Batched matrix products over strided operands: float32 and float64 go to
//! `matrixmultiply`'s packed GEMM (which reads any row and column strides, so
//! transposed operands are never copied), int64 to a plain loop.

use super::CpuBuffer;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// `out[b] = lhs[b] @ rhs[b]` for `lhs` of shape `[batch, m, k]` and `rhs`
/// of shape `[batch, k, n]`, each read through its strides (a batch stride
/// of 0 repeats a matrix); the result is contiguous `[batch, m, n]`.
/// Callers check shapes and dtypes first, with PyTorch's messages.
pub fn bmm(
    lhs: &CpuBuffer,
    lhs_layout: &Layout,
    rhs: &CpuBuffer,
    rhs_layout: &Layout,
) -> Result<CpuBuffer> {
    let (&[batch, m, k], &[batch2, k2, n]) = (lhs_layout.shape(), rhs_layout.shape()) else {
        return Err(internal("bmm kernel needs 3-D layouts"));
    };
    if batch != batch2 || k != k2 {
        return Err(internal("bmm kernel got mismatched shapes"));
    }
    let a = Operand::new(lhs_layout, lhs.len())?;
    let b = Operand::new(rhs_layout, rhs.len())?;
    let dims = Dims { batch, m, k, n };
    match (lhs, rhs) {
        (CpuBuffer::F32(l), CpuBuffer::F32(r)) => Ok(CpuBuffer::F32(gemm(dims, l, a, r, b)?)),
        (CpuBuffer::F64(l), CpuBuffer::F64(r)) => Ok(CpuBuffer::F64(gemm(dims, l, a, r, b)?)),
        (CpuBuffer::I64(l), CpuBuffer::I64(r)) => Ok(CpuBuffer::I64(int_gemm(dims, l, a, r, b))),
        // bfloat16 multiplies and sums in float32 and rounds the result
        // back, as PyTorch's CPU kernels accumulate it.
        (CpuBuffer::BF16(_), CpuBuffer::BF16(_)) => {
            match (lhs.clone_as(DType::Float32), rhs.clone_as(DType::Float32)) {
                (CpuBuffer::F32(wl), CpuBuffer::F32(wr)) => {
                    Ok(CpuBuffer::F32(gemm(dims, &wl, a, &wr, b)?).into_dtype(DType::BFloat16))
                }
                _ => Err(internal("bmm kernel widening")),
            }
        }
        // Narrow integers multiply in int64 and wrap back: the products and
        // sums agree with the narrow type's wrapping ones modulo its width.
        (l, r) if l.dtype() == r.dtype() && l.dtype().is_integer() => {
            let whole = |x: &CpuBuffer| x.clone_as(crate::DType::Int64);
            match (whole(l), whole(r)) {
                (CpuBuffer::I64(wl), CpuBuffer::I64(wr)) => {
                    Ok(CpuBuffer::I64(int_gemm(dims, &wl, a, &wr, b)).into_dtype(l.dtype()))
                }
                _ => Err(internal("bmm kernel widening")),
            }
        }
        (l, r) => Err(internal(&format!(
            "bmm kernel got {} and {}",
            l.dtype(),
            r.dtype()
        ))),
    }
}

fn internal(what: &str) -> Error {
    Error::Backend(format!("internal error: {what}"))
}

#[derive(Clone, Copy, Debug)]
struct Dims {
    batch: usize,
    m: usize,
    k: usize,
    n: usize,
}

/// Where one operand's matrices sit in its buffer: offset and the strides
/// of batch, row and column, checked to stay inside the buffer.
#[derive(Clone, Copy, Debug)]
struct Operand {
    offset: usize,
    batch: isize,
    row: isize,
    col: isize,
}

impl Operand {
    fn new(layout: &Layout, len: usize) -> Result<Self> {
        let s = layout.strides();
        if s.iter().any(|&s| s < 0) {
            return Err(internal("bmm kernel got a negative stride"));
        }
        // The furthest element any product reads must lie in the buffer:
        // this check is what makes the raw-pointer GEMM below sound.
        if layout.numel() > 0 {
            let last: isize = layout
                .shape()
                .iter()
                .zip(s)
                .map(|(&d, &s)| (d as isize - 1) * s)
                .sum();
            if layout.offset() + last as usize >= len {
                return Err(internal("bmm kernel layout reads past its buffer"));
            }
        }
        Ok(Self {
            offset: layout.offset(),
            batch: s[0],
            row: s[1],
            col: s[2],
        })
    }

    fn start(&self, b: usize) -> usize {
        self.offset + (b as isize * self.batch) as usize
    }
}

/// The element types `matrixmultiply` multiplies.
trait GemmFloat: Copy + Default {
    /// `c = a @ b` for one matrix of each, `c` contiguous `m x n`.
    fn gemm(
        d: Dims,
        a: (&[Self], usize, Operand),
        b: (&[Self], usize, Operand),
        c: &mut [Self],
    ) -> Result<()>;
}

/// Whether an `rows x cols` matrix at `start` with the operand's strides
/// lies inside a buffer of `len` elements.
fn inside(len: usize, start: usize, o: Operand, rows: usize, cols: usize) -> bool {
    let (Ok(row), Ok(col)) = (usize::try_from(o.row), usize::try_from(o.col)) else {
        return false;
    };
    let last = (rows - 1)
        .checked_mul(row)
        .and_then(|r| (cols - 1).checked_mul(col).and_then(|c| r.checked_add(c)))
        .and_then(|rc| rc.checked_add(start));
    last.is_some_and(|last| last < len)
}

macro_rules! gemm_float {
    ($t:ty, $f:path) => {
        impl GemmFloat for $t {
            #[allow(unsafe_code)]
            fn gemm(
                d: Dims,
                (a, a_start, ao): (&[Self], usize, Operand),
                (b, b_start, bo): (&[Self], usize, Operand),
                c: &mut [Self],
            ) -> Result<()> {
                if d.m == 0 || d.n == 0 || d.k == 0 {
                    return Ok(());
                }
                if !inside(a.len(), a_start, ao, d.m, d.k)
                    || !inside(b.len(), b_start, bo, d.k, d.n)
                    || c.len() < d.m * d.n
                {
                    return Err(internal("bmm kernel layout reads past its buffer"));
                }
                // SAFETY: `inside` just checked that the last element of each
                // operand (start + (rows - 1) * row stride + (cols - 1) *
                // column stride, strides non-negative) is in its slice, so
                // every element GEMM reads is; `c` holds m * n elements
                // written with row stride n and column stride 1, which never
                // alias.
                unsafe {
                    $f(
                        d.m,
                        d.k,
                        d.n,
                        1.0,
                        a.as_ptr().add(a_start),
                        ao.row,
                        ao.col,
                        b.as_ptr().add(b_start),
                        bo.row,
                        bo.col,
                        0.0,
                        c.as_mut_ptr(),
                        d.n as isize,
                        1,
                    );
                }
                Ok(())
            }
        }
    };
}

gemm_float!(f32, matrixmultiply::sgemm);
gemm_float!(f64, matrixmultiply::dgemm);

fn gemm<T: GemmFloat>(d: Dims, a: &[T], ao: Operand, b: &[T], bo: Operand) -> Result<Vec<T>> {
    let mut out = vec![T::default(); d.batch * d.m * d.n];
    if d.m * d.n == 0 {
        return Ok(out);
    }
    for (i, c) in out.chunks_exact_mut(d.m * d.n).enumerate() {
        T::gemm(d, (a, ao.start(i), ao), (b, bo.start(i), bo), c)?;
    }
    Ok(out)
}

fn int_gemm(d: Dims, a: &[i64], ao: Operand, b: &[i64], bo: Operand) -> Vec<i64> {
    let mut out = vec![0i64; d.batch * d.m * d.n];
    if d.m * d.n == 0 {
        return out;
    }
    for (bi, c) in out.chunks_exact_mut(d.m * d.n).enumerate() {
        let (a0, b0) = (ao.start(bi) as isize, bo.start(bi) as isize);
        for i in 0..d.m as isize {
            let row = &mut c[i as usize * d.n..][..d.n];
            for p in 0..d.k as isize {
                let x = a[(a0 + i * ao.row + p * ao.col) as usize];
                for (j, o) in row.iter_mut().enumerate() {
                    let y = b[(b0 + p * bo.row + j as isize * bo.col) as usize];
                    *o = o.wrapping_add(x.wrapping_mul(y));
                }
            }
        }
    }
    out
}
