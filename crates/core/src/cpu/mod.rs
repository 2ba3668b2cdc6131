//! The CPU backend: typed buffers and kernels that walk any layout.
//!
//! Kernels are generic over the element type ([`Element`], and [`Float`] for
//! maths); [`CpuBuffer`] holds one of the dtypes and the `dispatch` macros
//! pick the instance, so each kernel is written once.

pub(crate) mod adam;
mod bf16;
mod binary;
mod cascade;
pub mod conv;
pub mod matmul;
pub mod reduce;
pub(crate) mod unary;

pub use bf16::Bf16;
pub use binary::binary_map;
pub use reduce::{sum_all, sum_to_shape};

use crate::dtype::DType;
use crate::layout::Layout;

/// A CPU allocation of one dtype.
#[derive(Debug, PartialEq)]
pub enum CpuBuffer {
    /// `torch.bool`
    Bool(Vec<bool>),
    /// `torch.uint8`
    U8(Vec<u8>),
    /// `torch.int8`
    I8(Vec<i8>),
    /// `torch.int16`
    I16(Vec<i16>),
    /// `torch.int32`
    I32(Vec<i32>),
    /// `torch.int64`
    I64(Vec<i64>),
    /// `torch.bfloat16`
    BF16(Vec<Bf16>),
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
    /// Converts from `f64` as PyTorch's CPU casts do: nonzero as true;
    /// toward zero for integers, where a value int64 (or, for the narrower
    /// ones, int32) cannot hold, NaN included, gives that type's minimum,
    /// which the narrow types then wrap (300.0 as int8 is 44, 1e10 is 0).
    fn from_f64(v: f64) -> Self;
    /// Bool or an integer type: casts between these go through `i64`
    /// exactly, not through `f64`.
    const INTEGRAL: bool;
    /// Converts to `i64` (only called when [`Element::INTEGRAL`]).
    fn to_i64(self) -> i64;
    /// Converts from `i64`, wrapping as C++'s integer casts do (300 as
    /// uint8 is 44).
    fn from_i64(v: i64) -> Self;
    /// This element as a `T`, as PyTorch's `.to(dtype)` converts it.
    fn cast<T: Element>(self) -> T {
        if Self::INTEGRAL && T::INTEGRAL {
            T::from_i64(self.to_i64())
        } else {
            T::from_f64(self.to_f64())
        }
    }
}

/// `f64` to `i32` as x86's `cvttsd2si` does, which PyTorch's CPU casts
/// compile to: toward zero, and `i32::MIN` where the value does not fit.
fn f64_to_i32(v: f64) -> i32 {
    if v > -2_147_483_649.0 && v < 2_147_483_648.0 {
        v as i32
    } else {
        i32::MIN
    }
}

/// `f64` to `i64` as x86's `cvttsd2si` does: `i64::MIN` where it does not fit.
fn f64_to_i64(v: f64) -> i64 {
    if v > -9_223_372_036_854_777_856.0 && v < 9_223_372_036_854_775_808.0 {
        v as i64
    } else {
        i64::MIN
    }
}

/// A floating-point element: the maths kernels' domain.
pub trait Float: Element + num_traits::Float {}
impl Float for f32 {}
impl Float for f64 {}

macro_rules! element {
    ($t:ty, $variant:ident, $dtype:ident, |$v:ident| $to:expr, |$f:ident| $from:expr,
     $integral:expr, |$iv:ident| $to_i:expr, |$fi:ident| $from_i:expr) => {
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
            const INTEGRAL: bool = $integral;
            fn to_i64(self) -> i64 {
                let $iv = self;
                $to_i
            }
            fn from_i64($fi: i64) -> Self {
                $from_i
            }
        }
    };
}

element!(
    bool,
    Bool,
    Bool,
    |v| f64::from(u8::from(v)),
    |f| f != 0.0,
    true,
    |v| i64::from(v),
    |i| i != 0
);
element!(
    u8,
    U8,
    UInt8,
    |v| f64::from(v),
    |f| f64_to_i32(f) as u8,
    true,
    |v| i64::from(v),
    |i| i as u8
);
element!(
    i8,
    I8,
    Int8,
    |v| f64::from(v),
    |f| f64_to_i32(f) as i8,
    true,
    |v| i64::from(v),
    |i| i as i8
);
element!(
    i16,
    I16,
    Int16,
    |v| f64::from(v),
    |f| f64_to_i32(f) as i16,
    true,
    |v| i64::from(v),
    |i| i as i16
);
element!(
    i32,
    I32,
    Int32,
    |v| f64::from(v),
    |f| f64_to_i32(f),
    true,
    |v| i64::from(v),
    |i| i as i32
);
element!(
    i64,
    I64,
    Int64,
    |v| v as f64,
    |f| f64_to_i64(f),
    true,
    |v| v,
    |i| i
);
element!(
    f32,
    F32,
    Float32,
    |v| f64::from(v),
    |f| f as f32,
    false,
    |v| v as i64,
    |i| i as f32
);
element!(
    Bf16,
    BF16,
    BFloat16,
    |v| f64::from(v.to_f32()),
    // PyTorch's double -> BFloat16 goes through float (rounded twice).
    |f| Bf16::from_f32(f as f32),
    false,
    |v| v.to_f32() as i64,
    |i| Bf16::from_f32(i as f32)
);
element!(f64, F64, Float64, |v| v, |f| f, false, |v| v as i64, |i| i
    as f64);

/// Runs `$body` with `$data` bound to the buffer's elements, whatever their type.
#[macro_export]
#[doc(hidden)]
macro_rules! cpu_dispatch {
    ($buffer:expr, $data:ident => $body:expr) => {
        match $buffer {
            $crate::cpu::CpuBuffer::Bool($data) => $body,
            $crate::cpu::CpuBuffer::U8($data) => $body,
            $crate::cpu::CpuBuffer::I8($data) => $body,
            $crate::cpu::CpuBuffer::I16($data) => $body,
            $crate::cpu::CpuBuffer::I32($data) => $body,
            $crate::cpu::CpuBuffer::I64($data) => $body,
            $crate::cpu::CpuBuffer::BF16($data) => $body,
            $crate::cpu::CpuBuffer::F32($data) => $body,
            $crate::cpu::CpuBuffer::F64($data) => $body,
        }
    };
}

/// Runs `$body` with `$x` and `$y` bound to two buffers' elements when
/// both hold the same type, `$other` when they differ.
#[macro_export]
#[doc(hidden)]
macro_rules! cpu_dispatch_pair {
    (($a:expr, $b:expr), ($x:ident, $y:ident) => $body:expr, _ => $other:expr) => {{
        use $crate::cpu::CpuBuffer as B;
        match ($a, $b) {
            (B::Bool($x), B::Bool($y)) => $body,
            (B::U8($x), B::U8($y)) => $body,
            (B::I8($x), B::I8($y)) => $body,
            (B::I16($x), B::I16($y)) => $body,
            (B::I32($x), B::I32($y)) => $body,
            (B::I64($x), B::I64($y)) => $body,
            (B::BF16($x), B::BF16($y)) => $body,
            (B::F32($x), B::F32($y)) => $body,
            (B::F64($x), B::F64($y)) => $body,
            _ => $other,
        }
    }};
}

/// Runs `$body` with the type parameter `$t` bound to `dtype`'s element type.
#[macro_export]
#[doc(hidden)]
macro_rules! dtype_dispatch {
    ($dtype:expr, $t:ident => $body:expr) => {
        match $dtype {
            $crate::DType::Bool => {
                type $t = bool;
                $body
            }
            $crate::DType::UInt8 => {
                type $t = u8;
                $body
            }
            $crate::DType::Int8 => {
                type $t = i8;
                $body
            }
            $crate::DType::Int16 => {
                type $t = i16;
                $body
            }
            $crate::DType::Int32 => {
                type $t = i32;
                $body
            }
            $crate::DType::Int64 => {
                type $t = i64;
                $body
            }
            $crate::DType::BFloat16 => {
                type $t = $crate::cpu::Bf16;
                $body
            }
            $crate::DType::Float32 => {
                type $t = f32;
                $body
            }
            $crate::DType::Float64 => {
                type $t = f64;
                $body
            }
        }
    };
}

impl CpuBuffer {
    /// A buffer of `len` copies of `value` cast to `dtype`.
    pub fn full(dtype: DType, len: usize, value: f64) -> Self {
        fn go<T: Element>(len: usize, value: f64) -> CpuBuffer {
            T::into_buffer(vec![T::from_f64(value); len])
        }
        dtype_dispatch!(dtype, T => go::<T>(len, value))
    }

    /// An empty buffer of `dtype`.
    pub fn empty(dtype: DType) -> Self {
        Self::full(dtype, 0, 0.0)
    }

    /// The whole buffer cast to `dtype` (moved when it already is).
    pub fn into_dtype(self, dtype: DType) -> CpuBuffer {
        if self.dtype() == dtype {
            return self;
        }
        let layout = Layout::contiguous(&[self.len()]);
        self.gather_as(&layout, dtype)
    }

    /// Its dtype.
    pub fn dtype(&self) -> DType {
        match self {
            CpuBuffer::Bool(_) => DType::Bool,
            CpuBuffer::U8(_) => DType::UInt8,
            CpuBuffer::I8(_) => DType::Int8,
            CpuBuffer::I16(_) => DType::Int16,
            CpuBuffer::I32(_) => DType::Int32,
            CpuBuffer::I64(_) => DType::Int64,
            CpuBuffer::BF16(_) => DType::BFloat16,
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
                return T::into_buffer(src[dense].iter().map(|v| v.cast::<T>()).collect());
            }
            T::into_buffer(layout.indices().map(|i| src[i].cast::<T>()).collect())
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
        if dtype == self.dtype() {
            return cpu_dispatch!(self, s => same(s, layout));
        }
        dtype_dispatch!(dtype, T => cpu_dispatch!(self, s => go::<_, T>(s, layout)))
    }

    /// A copy of the whole buffer, element for element, cast to `dtype`.
    pub fn clone_as(&self, dtype: DType) -> CpuBuffer {
        self.gather_as(&Layout::contiguous(&[self.len()]), dtype)
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
            (CpuBuffer::U8(d), CpuBuffer::U8(s)) => go(d, layout, s),
            (CpuBuffer::I8(d), CpuBuffer::I8(s)) => go(d, layout, s),
            (CpuBuffer::I16(d), CpuBuffer::I16(s)) => go(d, layout, s),
            (CpuBuffer::I32(d), CpuBuffer::I32(s)) => go(d, layout, s),
            (CpuBuffer::I64(d), CpuBuffer::I64(s)) => go(d, layout, s),
            (CpuBuffer::BF16(d), CpuBuffer::BF16(s)) => go(d, layout, s),
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

/// Runs an int64 kernel on any integer buffer: a narrow one's elements
/// widened to int64 (contiguous), the result wrapped back to its dtype, as
/// PyTorch's narrow integer arithmetic wraps. One kernel serves every width.
pub(crate) fn via_i64(
    data: &CpuBuffer,
    layout: &Layout,
    kernel: impl FnOnce(&[i64], &Layout) -> crate::Result<Vec<i64>>,
) -> crate::Result<CpuBuffer> {
    if let CpuBuffer::I64(d) = data {
        return Ok(CpuBuffer::I64(kernel(d, layout)?));
    }
    let wide = data.gather_as(layout, DType::Int64);
    let CpuBuffer::I64(w) = &wide else {
        return Err(crate::Error::Backend(
            "internal error: widening to int64".into(),
        ));
    };
    let out = kernel(w, &Layout::contiguous(layout.shape()))?;
    Ok(CpuBuffer::I64(out).into_dtype(data.dtype()))
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
