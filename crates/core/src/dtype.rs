//! Element types and PyTorch's type promotion.

use std::cell::Cell;
use std::fmt;

use crate::error::{Error, Result};

/// A tensor's element type, PyTorch's `torch.dtype` (the subset gradscope
/// has). Ordered by PyTorch's promotion lattice: bool < uint8, int8 <
/// int16 < int32 < int64 < bfloat16 < float32 < float64 (uint8 and int8
/// meet at int16, see [`DType::promote`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `torch.bool`: masks.
    Bool,
    /// `torch.uint8`: bytes, images.
    UInt8,
    /// `torch.int8`.
    Int8,
    /// `torch.int16`.
    Int16,
    /// `torch.int32`: NumPy's int32 arrays, counts.
    Int32,
    /// `torch.int64`: indices and labels.
    Int64,
    /// `torch.bfloat16`: float32's range in 2 bytes (8 bits of mantissa),
    /// what `Module.bfloat16()` converts to. Its ops compute in float32
    /// and round back, as PyTorch's CPU kernels do.
    BFloat16,
    /// `torch.float32`: the default.
    Float32,
    /// `torch.float64`: for gradcheck.
    Float64,
}

/// How an operand takes part in type promotion: PyTorch lets tensors with
/// dimensions decide before 0-dim tensors, and those before Python numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// A Python number wrapped as a 0-dim tensor (`x + 2`).
    Wrapped,
    /// A 0-dim tensor.
    ZeroDim,
    /// A tensor with at least one dimension.
    Dimensioned,
}

thread_local! {
    /// The engine's default floating dtype, `torch.set_default_dtype`.
    static DEFAULT_FLOAT: Cell<DType> = const { Cell::new(DType::DEFAULT_FLOAT) };
}

impl DType {
    /// PyTorch's default dtype at start, float32; what
    /// [`DType::default_float`] gives until a program sets another.
    pub const DEFAULT_FLOAT: DType = DType::Float32;

    /// The default floating dtype now, `torch.get_default_dtype()`: what
    /// factories make without `dtype=`, what `torch.tensor` makes of Python
    /// floats and what a Python float promotes an integer tensor to.
    ///
    /// ```
    /// use gradscope_core::DType;
    /// assert_eq!(DType::default_float(), DType::Float32);
    /// DType::set_default_float(DType::Float64)?;
    /// assert_eq!(gradscope_core::Tensor::ones(&[2]).dtype(), DType::Float64);
    /// DType::set_default_float(DType::Float32)?;
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn default_float() -> DType {
        DEFAULT_FLOAT.with(Cell::get)
    }

    /// Sets the default floating dtype, `torch.set_default_dtype(d)`:
    /// float32 or float64 (PyTorch's half types and complex are not
    /// engine dtypes); others get PyTorch's TypeError.
    pub fn set_default_float(dtype: DType) -> Result<()> {
        if !dtype.is_float() {
            return Err(Error::DefaultDtypeNotFloat);
        }
        DEFAULT_FLOAT.with(|d| d.set(dtype));
        Ok(())
    }

    /// Every dtype, in promotion order.
    pub const ALL: [DType; 9] = [
        DType::Bool,
        DType::UInt8,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
    ];

    /// Bytes per element, PyTorch's `element_size()`.
    pub fn size(self) -> usize {
        match self {
            DType::Bool | DType::UInt8 | DType::Int8 => 1,
            DType::Int16 | DType::BFloat16 => 2,
            DType::Int32 | DType::Float32 => 4,
            DType::Int64 | DType::Float64 => 8,
        }
    }

    /// PyTorch's `is_floating_point`.
    pub fn is_float(self) -> bool {
        matches!(self, DType::BFloat16 | DType::Float32 | DType::Float64)
    }

    /// An integer dtype other than bool (PyTorch's `isIntegralType(t,
    /// includeBool=false)`).
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64
        )
    }

    /// The dtype kernels compute in: int64 for every integer dtype (the
    /// narrow ones wrap when the result is cast back, as their own C++
    /// arithmetic wraps in PyTorch), float32 for bfloat16 (rounded to
    /// nearest even when cast back, as PyTorch's CPU kernels compute
    /// bfloat16 through float), the dtype itself otherwise.
    pub fn widened(self) -> DType {
        if self.is_integer() {
            DType::Int64
        } else if self == DType::BFloat16 {
            DType::Float32
        } else {
            self
        }
    }

    /// The name after `torch.`, as `repr(dtype)` prints it.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
        }
    }

    /// The C type name of PyTorch's scalar checks (`uint8_t`; `int` for int32).
    pub fn c_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8_t",
            DType::Int8 => "int8_t",
            DType::Int16 => "int16_t",
            DType::Int32 => "int",
            DType::Int64 => "int64_t",
            DType::BFloat16 => "c10::BFloat16",
            DType::Float32 => "float",
            DType::Float64 => "double",
        }
    }

    /// Whether a Python number fits this dtype by PyTorch's `overflows`
    /// check: an integer dtype refuses NaN, infinities and values below
    /// its minimum or from its maximum plus one (127.5 fits int8, 128.0
    /// does not), except that uint8 takes Python ints down to -255 (which
    /// wrap, so `a - b` may be `a + 255 * b`) though no negative float.
    /// Float and bool take anything.
    ///
    /// ```
    /// use gradscope_core::DType;
    /// assert!(DType::UInt8.fits(-255.0, true) && !DType::UInt8.fits(-0.5, false));
    /// assert!(!DType::Int8.fits(128.0, false) && DType::Int8.fits(127.5, false));
    /// ```
    pub fn fits(self, value: f64, integral: bool) -> bool {
        let (lo, hi) = match self {
            DType::UInt8 if integral => (-255.0, 255.0),
            DType::UInt8 => (0.0, 255.0),
            DType::Int8 => (-128.0, 127.0),
            DType::Int16 => (-32768.0, 32767.0),
            DType::Int32 => (-2_147_483_648.0, 2_147_483_647.0),
            DType::Int64 => (-9_223_372_036_854_775_808.0, 9_223_372_036_854_775_807.0),
            DType::Bool | DType::BFloat16 | DType::Float32 | DType::Float64 => return true,
        };
        value >= lo && value < hi + 1.0
    }

    /// [`DType::fits`] as PyTorch's error, naming the type as `name` does.
    pub fn check_fits(
        self,
        value: f64,
        integral: bool,
        name: fn(DType) -> &'static str,
    ) -> crate::Result<()> {
        if self.fits(value, integral) {
            Ok(())
        } else {
            Err(crate::Error::ScalarOverflow {
                type_name: name(self),
            })
        }
    }

    /// PyTorch's legacy type name (`FloatTensor`), used in some error messages.
    pub fn legacy_name(self) -> &'static str {
        match self {
            DType::Bool => "BoolTensor",
            DType::UInt8 => "ByteTensor",
            DType::Int8 => "CharTensor",
            DType::Int16 => "ShortTensor",
            DType::Int32 => "IntTensor",
            DType::Int64 => "LongTensor",
            DType::BFloat16 => "BFloat16Tensor",
            DType::Float32 => "FloatTensor",
            DType::Float64 => "DoubleTensor",
        }
    }

    /// PyTorch's `promote_types(a, b)`: the larger in the lattice, except
    /// that uint8 and int8, neither holding the other, meet at int16.
    ///
    /// ```
    /// use gradscope_core::DType;
    /// assert_eq!(DType::promote(DType::Int32, DType::Int64), DType::Int64);
    /// assert_eq!(DType::promote(DType::UInt8, DType::Int8), DType::Int16);
    /// ```
    pub fn promote(a: DType, b: DType) -> DType {
        match (a, b) {
            (DType::UInt8, DType::Int8) | (DType::Int8, DType::UInt8) => DType::Int16,
            _ => a.max(b),
        }
    }

    fn category(self) -> u8 {
        match self {
            DType::Bool => 0,
            DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => 1,
            DType::BFloat16 | DType::Float32 | DType::Float64 => 2,
        }
    }

    /// PyTorch's `result_type` over operands with their priorities: the
    /// highest-priority operands decide unless a lower one is of a higher
    /// category (int vs float); a wrapped Python float then gives the default
    /// dtype, not float64.
    ///
    /// ```
    /// use gradscope_core::dtype::{DType, Priority};
    /// let t = |d| (d, Priority::Dimensioned);
    /// assert_eq!(DType::result_type(&[t(DType::Int64), (DType::Float64, Priority::Wrapped)]), DType::Float32);
    /// assert_eq!(DType::result_type(&[t(DType::Float32), (DType::Float64, Priority::ZeroDim)]), DType::Float32);
    /// ```
    pub fn result_type(operands: &[(DType, Priority)]) -> DType {
        let best = |p: Priority| {
            operands
                .iter()
                .filter(|o| o.1 == p)
                .map(|o| o.0)
                .reduce(DType::promote)
        };
        let combine = |higher: Option<DType>, lower: Option<DType>| match (higher, lower) {
            (None, l) => l,
            (h, None) => h,
            (Some(h), Some(l)) if l.category() > h.category() => Some(l),
            (h, _) => h,
        };
        let wrapped = best(Priority::Wrapped).map(|d| match d {
            DType::Float64 | DType::Float32 | DType::BFloat16 => DType::default_float(),
            other => other,
        });
        let decided = combine(best(Priority::Dimensioned), best(Priority::ZeroDim));
        combine(decided, wrapped).unwrap_or(DType::default_float())
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}
