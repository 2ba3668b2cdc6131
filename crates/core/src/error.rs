//! The one error type of the engine. `Display` is PyTorch's message, word for
//! word; [`Error::python_type`] names the exception PyTorch raises.

/// Everything the engine can refuse, grouped as PyTorch groups its errors.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Two operands whose shapes do not broadcast.
    #[error(
        "The size of tensor a ({lhs}) must match the size of tensor b ({rhs}) at non-singleton dimension {dim}"
    )]
    BroadcastSize { lhs: usize, rhs: usize, dim: usize },

    /// `expand` to fewer dimensions than the tensor has.
    #[error(
        "expand({actual:?}, size={requested:?}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
        requested.len(), actual.len()
    )]
    ExpandRank {
        requested: Vec<usize>,
        actual: Vec<usize>,
    },

    /// `expand` of a dimension that is neither equal nor 1.
    #[error(
        "The expanded size of the tensor ({target}) must match the existing size ({size}) at non-singleton dimension {dim}.  Target sizes: {requested:?}.  Tensor sizes: {actual:?}"
    )]
    ExpandSize {
        requested: Vec<usize>,
        actual: Vec<usize>,
        dim: usize,
        size: usize,
        target: usize,
    },

    /// Data whose length does not fit the requested shape.
    #[error("shape '{shape:?}' is invalid for input of size {numel}")]
    ShapeInvalid { shape: Vec<usize>, numel: usize },

    /// `backward()` on a tensor with more than one element and no gradient.
    #[error("grad can be implicitly created only for scalar outputs")]
    NonScalarBackward,

    /// `backward()` on a tensor outside any graph.
    #[error("element 0 of tensors does not require grad and does not have a grad_fn")]
    NoGradFn,

    /// A second backward through a graph whose saved tensors were freed.
    #[error(
        "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward."
    )]
    SavedTensorsFreed,

    /// A tensor saved for backward was modified in place afterwards.
    #[error(
        "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.{} {shape:?}]{}, is at version {version}; expected version {expected} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
        dtype.legacy_name(),
        producer.as_ref().map(|p| format!(", which is output 0 of {p}")).unwrap_or_default()
    )]
    SavedTensorModified {
        dtype: crate::dtype::DType,
        shape: Vec<usize>,
        producer: Option<String>,
        version: u64,
        expected: u64,
    },

    /// `item()` on a tensor with more than one element.
    #[error("a Tensor with {numel} elements cannot be converted to Scalar")]
    ItemNotScalar { numel: usize },

    /// `-t` on a bool tensor.
    #[error(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
    )]
    NegBool,

    /// `gradcheck` found a backward formula that disagrees with finite differences.
    #[error("{0}")]
    GradcheckFailed(String),

    /// An allocation past the device's memory budget.
    #[error(
        "out of memory. Tried to allocate {}. gradscope's memory budget is {}, of which {} is already allocated.",
        crate::ledger::human(*requested), crate::ledger::human(*budget), crate::ledger::human(*allocated)
    )]
    OutOfMemory {
        requested: u64,
        allocated: u64,
        budget: u64,
    },

    /// A backend failed (a GPU device lost, a buffer it could not map).
    #[error("{0}")]
    Backend(String),
}

impl Error {
    /// The Python exception PyTorch raises for this error.
    pub fn python_type(&self) -> &'static str {
        // Most of PyTorch's errors are RuntimeError; list the others here.
        match self {
            Error::OutOfMemory { .. } => "OutOfMemoryError",
            _ => "RuntimeError",
        }
    }
}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, Error>;
