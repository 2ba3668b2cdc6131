//! The CPU backend: typed buffers and kernels that walk any layout.
//!
//! Kernels are generic over the element type ([`Element`], and [`Float`] for
//! maths); [`CpuBuffer`] holds one of the dtypes and the `dispatch` macros
//! pick the instance, so each kernel is written once.

pub(crate) mod adam;
mod binary;
mod cascade;
pub mod conv;
pub mod matmul;
pub mod reduce;
pub(crate) mod unary;

pub use binary::binary_map;
pub use reduce::{sum_all, sum_to_shape};

use crate::dtype::DType;
use crate::layout::Layout;

/// A CPU allocation of one dtype.
#[derive(Debug, PartialEq)]
pub enum CpuBuffer {
    /// `torch.bool`
    Bool(Vec<bool>),
    /// `torch.int64`
    I64(Vec<i64>),
    /// `torch.float32`
    F32(Vec<f32>),
    /// `torch.float64`
    F64(Vec<f64>),
}

/// An element type a [`CpuBuffer`] can hold.
pub trait Element: Copy + PartialOrd + Default + std::fmt::Debug + 'static {
    /// Its dtype.
    const DTYPE: DType;
    /// Wraps elements into a buffer.
    fn into_buffer(data: Vec<Self>) -> CpuBuffer;
    /// The elements if the buffer holds this type.
    fn slice(buffer: &CpuBuffer) -> Option<&[Self]>;
    /// Converts to `f64` (bool as 0 or 1), as PyTorch's casts do.
    fn to_f64(self) -> f64;
    /// Converts from `f64` (truncating toward zero for integers, nonzero as true).
    fn from_f64(v: f64) -> Self;
}

/// A floating-point element: the maths kernels' domain.
pub trait Float: Element + num_traits::Float {}
impl Float for f32 {}
impl Float for f64 {}

macro_rules! element {
    ($t:ty, $variant:ident, $dtype:ident, |$v:ident| $to:expr, |$f:ident| $from:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            fn into_buffer(data: Vec<Self>) -> CpuBuffer {
                CpuBuffer::$variant(data)
            }
            fn slice(buffer: &CpuBuffer) -> Option<&[Self]> {
                match buffer {
                    CpuBuffer::$variant(d) => Some(d),
                    _ => None,
                }
            }
            fn to_f64(self) -> f64 {
                let $v = self;
                $to
            }
            fn from_f64($f: f64) -> Self {
                $from
            }
        }
    };
}

element!(bool, Bool, Bool, |v| f64::from(u8::from(v)), |f| f != 0.0);
element!(i64, I64, Int64, |v| v as f64, |f| f as i64);
element!(f32, F32, Float32, |v| f64::from(v), |f| f as f32);
element!(f64, F64, Float64, |v| v, |f| f);

/// Runs `$body` with `$data` bound to the buffer's elements, whatever their type.
#[macro_export]
#[doc(hidden)]
macro_rules! cpu_dispatch {
    ($buffer:expr, $data:ident => $body:expr) => {
        match $buffer {
            $crate::cpu::CpuBuffer::Bool($data) => $body,
            $crate::cpu::CpuBuffer::I64($data) => $body,
            $crate::cpu::CpuBuffer::F32($data) => $body,
            $crate::cpu::CpuBuffer::F64($data) => $body,
        }
    };
}

impl CpuBuffer {
    /// A buffer of `len` copies of `value` cast to `dtype`.
    pub fn full(dtype: DType, len: usize, value: f64) -> Self {
        match dtype {
            DType::Bool => CpuBuffer::Bool(vec![bool::from_f64(value); len]),
            DType::Int64 => CpuBuffer::I64(vec![i64::from_f64(value); len]),
            DType::Float32 => CpuBuffer::F32(vec![f32::from_f64(value); len]),
            DType::Float64 => CpuBuffer::F64(vec![value; len]),
        }
    }

    /// Its dtype.
    pub fn dtype(&self) -> DType {
        match self {
            CpuBuffer::Bool(_) => DType::Bool,
            CpuBuffer::I64(_) => DType::Int64,
            CpuBuffer::F32(_) => DType::Float32,
            CpuBuffer::F64(_) => DType::Float64,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        cpu_dispatch!(self, d => d.len())
    }

    /// Whether it holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Size in bytes, as the ledger counts it.
    pub fn bytes(&self) -> usize {
        self.len() * self.dtype().size()
    }

    /// The elements `layout` selects, contiguous, cast to `dtype`.
    pub fn gather_as(&self, layout: &Layout, dtype: DType) -> CpuBuffer {
        fn go<S: Element, T: Element>(src: &[S], layout: &Layout) -> CpuBuffer {
            if let Some(dense) = dense_range(layout) {
                return T::into_buffer(
                    src[dense].iter().map(|v| T::from_f64(v.to_f64())).collect(),
                );
            }
            T::into_buffer(
                layout
                    .indices()
                    .map(|i| T::from_f64(src[i].to_f64()))
                    .collect(),
            )
        }
        fn same<T: Element>(src: &[T], layout: &Layout) -> CpuBuffer {
            // The common case (a contiguous view) is one memcpy, not a walk.
            if let Some(dense) = dense_range(layout) {
                return T::into_buffer(src[dense].to_vec());
            }
            if let Some(out) = gather_matrix(src, layout) {
                return T::into_buffer(out);
            }
            T::into_buffer(layout.indices().map(|i| src[i]).collect())
        }
        match dtype {
            d if d == self.dtype() => cpu_dispatch!(self, s => same(s, layout)),
            DType::Bool => cpu_dispatch!(self, s => go::<_, bool>(s, layout)),
            DType::Int64 => cpu_dispatch!(self, s => go::<_, i64>(s, layout)),
            DType::Float32 => cpu_dispatch!(self, s => go::<_, f32>(s, layout)),
            DType::Float64 => cpu_dispatch!(self, s => go::<_, f64>(s, layout)),
        }
    }

    /// Every element `layout` selects as `f64`, row-major: for printing and tests.
    pub fn to_f64_vec(&self, layout: &Layout) -> Vec<f64> {
        cpu_dispatch!(self, d => layout.indices().map(|i| d[i].to_f64()).collect())
    }
}

impl CpuBuffer {
    /// Writes `src` (contiguous, same dtype, one element per position of
    /// `layout`) through `layout` into this buffer: the store of an in-place op.
    pub fn write_through(&mut self, layout: &Layout, src: &CpuBuffer) -> crate::Result<()> {
        fn go<T: Element>(dst: &mut [T], layout: &Layout, src: &[T]) {
            if let Some(dense) = dense_range(layout)
                && dense.len() == src.len()
            {
                dst[dense].copy_from_slice(src);
                return;
            }
            for (i, &v) in layout.indices().zip(src) {
                dst[i] = v;
            }
        }
        match (self, src) {
            (CpuBuffer::Bool(d), CpuBuffer::Bool(s)) => go(d, layout, s),
            (CpuBuffer::I64(d), CpuBuffer::I64(s)) => go(d, layout, s),
            (CpuBuffer::F32(d), CpuBuffer::F32(s)) => go(d, layout, s),
            (CpuBuffer::F64(d), CpuBuffer::F64(s)) => go(d, layout, s),
            (d, s) => {
                return Err(crate::Error::Backend(format!(
                    "internal error: writing {} into {}",
                    s.dtype(),
                    d.dtype()
                )));
            }
        }
        Ok(())
    }
}

/// Side of the square tiles [`gather_matrix`] copies: 32 rows of 32 floats
/// read through a transpose touch 32 cache lines, which stay in L1 while the
/// tile is written.
const TILE: usize = 32;

/// The elements of a strided matrix (a transposed weight's gradient, most
/// often) copied out row-major tile by tile, so a transpose reads each cache
/// line once instead of once per element; `None` for other ranks, negative
/// strides or a layout that reads past `src`.
fn gather_matrix<T: Element>(src: &[T], layout: &Layout) -> Option<Vec<T>> {
    let (&[rows, cols], &[rs, cs]) = (layout.shape(), layout.strides()) else {
        return None;
    };
    let (rs, cs) = (usize::try_from(rs).ok()?, usize::try_from(cs).ok()?);
    let off = layout.offset();
    if rows == 0 || cols == 0 {
        return Some(Vec::new());
    }
    let last = off + (rows - 1) * rs + (cols - 1) * cs;
    if last >= src.len() {
        return None;
    }
    let mut out = vec![T::default(); rows * cols];
    for r0 in (0..rows).step_by(TILE) {
        for c0 in (0..cols).step_by(TILE) {
            for r in r0..(r0 + TILE).min(rows) {
                let row = &mut out[r * cols..][c0..(c0 + TILE).min(cols)];
                let start = off + r * rs + c0 * cs;
                for (j, o) in row.iter_mut().enumerate() {
                    *o = src[start + j * cs];
                }
            }
        }
    }
    Some(out)
}

/// The storage range a contiguous layout covers, element for element.
fn dense_range(layout: &Layout) -> Option<std::ops::Range<usize>> {
    // An empty view may start past its storage's end, as in PyTorch
    // (`x[1:0]` of a size-1 dimension keeps offset 1).
    if layout.numel() == 0 {
        return Some(0..0);
    }
    layout
        .is_contiguous()
        .then(|| layout.offset()..layout.offset() + layout.numel())
}
