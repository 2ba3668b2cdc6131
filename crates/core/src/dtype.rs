//! Element types and PyTorch's type promotion.

use std::fmt;

/// A tensor's element type, PyTorch's `torch.dtype` (the subset gradscope
/// has). Ordered by PyTorch's promotion lattice: bool < int64 < float32 < float64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `torch.bool`: masks.
    Bool,
    /// `torch.int64`: indices and labels.
    Int64,
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

impl DType {
    /// PyTorch's default dtype, `torch.get_default_dtype()`.
    pub const DEFAULT_FLOAT: DType = DType::Float32;

    /// Bytes per element, PyTorch's `element_size()`.
    pub fn size(self) -> usize {
        match self {
            DType::Bool => 1,
            DType::Float32 => 4,
            DType::Int64 | DType::Float64 => 8,
        }
    }

    /// PyTorch's `is_floating_point`.
    pub fn is_float(self) -> bool {
        matches!(self, DType::Float32 | DType::Float64)
    }

    /// The name after `torch.`, as `repr(dtype)` prints it.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int64 => "int64",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
        }
    }

    /// PyTorch's legacy type name (`FloatTensor`), used in some error messages.
    pub fn legacy_name(self) -> &'static str {
        match self {
            DType::Bool => "BoolTensor",
            DType::Int64 => "LongTensor",
            DType::Float32 => "FloatTensor",
            DType::Float64 => "DoubleTensor",
        }
    }

    /// PyTorch's `promote_types(a, b)`.
    pub fn promote(a: DType, b: DType) -> DType {
        a.max(b)
    }

    fn category(self) -> u8 {
        match self {
            DType::Bool => 0,
            DType::Int64 => 1,
            DType::Float32 | DType::Float64 => 2,
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
            DType::Float64 | DType::Float32 => DType::DEFAULT_FLOAT,
            other => other,
        });
        let decided = combine(best(Priority::Dimensioned), best(Priority::ZeroDim));
        combine(decided, wrapped).unwrap_or(DType::DEFAULT_FLOAT)
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}
