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

    /// `register_hook` on a tensor outside autograd.
    #[error("cannot register a hook on a tensor that doesn't require gradient")]
    HookNoGrad,

    /// `retain_grad` on a tensor outside autograd.
    #[error("can't retain_grad on Tensor that has requires_grad=False")]
    RetainGradNoGrad,

    /// `autograd.grad` asked for a tensor outside autograd.
    #[error("One of the differentiated Tensors does not require grad")]
    GradInputNoGrad,

    /// `autograd.grad` asked for a tensor the outputs do not depend on.
    #[error(
        "The differentiated Tensor at index {index} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior."
    )]
    GradInputUnused { index: usize },

    /// An in-place op on a leaf that requires grad, while grad is recorded.
    #[error("a leaf Variable that requires grad is being used in an in-place operation.")]
    LeafInplace,

    /// A tensor made in inference mode reached a node's saved tensors.
    #[error(
        "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
    )]
    InferenceSaved,

    /// An in-place op on an inference tensor outside inference mode.
    #[error(
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
    )]
    InferenceInplace,

    /// An in-place op whose result broadcasts past the tensor's shape.
    #[error("output with shape {shape:?} doesn't match the broadcast shape {broadcast:?}")]
    InplaceShape {
        shape: Vec<usize>,
        broadcast: Vec<usize>,
    },

    /// An in-place op whose result dtype cannot be stored in the tensor.
    #[error("result type {from} can't be cast to the desired output type {to}")]
    InplaceCast {
        from: &'static str,
        to: &'static str,
    },

    /// An in-place write to a tensor whose elements overlap (stride 0).
    #[error(
        "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
    )]
    InplaceOverlap,

    /// A checkpointed function saved different tensors when recomputed.
    #[error(
        "torch.utils.checkpoint: A different number of tensors was saved during the original forward and recomputation.\nNumber of tensors saved during forward: {forward}\nNumber of tensors saved during recomputation: {recomputed}."
    )]
    CheckpointMismatch { forward: usize, recomputed: usize },

    /// Anomaly mode found NaN in a node's gradients.
    #[error("Function '{node}' returned nan values in its {index}th output.")]
    AnomalyNan { node: String, index: usize, line: Option<u32> },

    /// A custom function's backward returned the wrong number of gradients.
    #[error(
        "function {name} returned an incorrect number of gradients (expected {expected}, got {got})"
    )]
    FunctionGradCount { name: String, expected: usize, got: usize },

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

    /// A dimension index past the tensor's rank (IndexError); a 0-dim
    /// tensor accepts dims as if it had one dimension, as in PyTorch.
    #[error(
        "Dimension out of range (expected to be in range of [-{0}, {1}], but got {dim})",
        (*rank).max(1), (*rank).max(1) - 1
    )]
    DimOutOfRange { dim: i64, rank: usize },

    /// The same dimension twice in a reduction's dim list.
    #[error("dim {dim} appears multiple times in the list of dims")]
    DimRepeated { dim: usize },

    /// A kernel without an instance for this dtype (NotImplementedError).
    #[error("\"{kernel}\" not implemented for '{}'", scalar_type_name(*dtype))]
    KernelDtype {
        kernel: &'static str,
        dtype: crate::dtype::DType,
    },

    /// `mean` of an integer or bool tensor (NotImplementedError).
    #[error(
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
        scalar_type_name(*dtype)
    )]
    MeanDtype { dtype: crate::dtype::DType },

    /// `var`/`std` of an integer tensor (NotImplementedError).
    #[error("std and var only support floating point and complex dtypes")]
    VarDtype,

    /// `linalg.vector_norm` of an integer tensor (NotImplementedError).
    #[error(
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
        scalar_type_name(*dtype)
    )]
    NormDtype { dtype: crate::dtype::DType },

    /// The inf norm of an empty tensor.
    #[error(
        "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an identity"
    )]
    NormInfEmpty,

    /// `max()`, `amin()`... over all of an empty tensor.
    #[error(
        "{op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
    )]
    ReduceEmpty { op: &'static str },

    /// `argmax()`/`argmin()` over all of an empty tensor (IndexError).
    #[error("{op}(): Expected reduction dim to be specified for input.numel() == 0.")]
    ArgReduceEmpty { op: &'static str },

    /// `max(dim)`... over a dimension of size 0 (IndexError).
    #[error("{op}(): Expected reduction dim {dim} to have non-zero size.")]
    ReduceDimEmpty { op: &'static str, dim: usize },

    /// `argmax`/`argmin` of a bool tensor (NotImplementedError).
    #[error("{op}(): does not support bool input")]
    ArgReduceBool { op: &'static str },

    /// `mm` of matrices whose inner sizes differ.
    #[error(
        "mm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
        lhs[0], lhs[1], rhs[0], rhs[1]
    )]
    MmShapes { lhs: [usize; 2], rhs: [usize; 2] },

    /// `mm` of a tensor that is not 2-D; `arg` is `self` or `mat2`.
    #[error("mm: {arg} must be a matrix, got {rank}-D tensor")]
    MmNotMatrix { arg: &'static str, rank: usize },

    /// `mm`/`matmul` of two dtypes, named as C++ names them.
    #[error(
        "expected m1 and m2 to have the same dtype, but got: {} != {}",
        cpp_type_name(*lhs), cpp_type_name(*rhs)
    )]
    MatmulDtype {
        lhs: crate::dtype::DType,
        rhs: crate::dtype::DType,
    },

    /// A kernel given another dtype than its first operand's.
    #[error(
        "expected scalar type {} but found {}",
        scalar_type_name(*expected), scalar_type_name(*found)
    )]
    ScalarTypeMismatch {
        expected: crate::dtype::DType,
        found: crate::dtype::DType,
    },

    /// `bmm` of a tensor that is not 3-D; `arg` is `batch1` or `batch2`.
    #[error("{arg} must be a 3D tensor")]
    BmmNot3d { arg: &'static str },

    /// `bmm` whose second operand's batch or inner size does not fit.
    #[error(
        "Expected size for first two dimensions of batch2 tensor to be: {expected:?} but got: {actual:?}."
    )]
    BmmShapes {
        expected: [usize; 2],
        actual: [usize; 2],
    },

    /// `matmul` with a 0-dim operand.
    #[error("both arguments to matmul need to be at least 1D, but they are {lhs}D and {rhs}D")]
    MatmulZeroDim { lhs: usize, rhs: usize },

    /// `dot` of vectors of different lengths.
    #[error(
        "inconsistent tensor size, expected tensor [{lhs}] and src [{rhs}] to have the same number of elements, but got {lhs} and {rhs} elements respectively"
    )]
    DotSizes { lhs: usize, rhs: usize },

    /// `dot` of tensors that are not 1-D.
    #[error("1D tensors expected, but got {lhs}D and {rhs}D tensors")]
    DotNot1d { lhs: usize, rhs: usize },

    /// `dot` of two dtypes.
    #[error(
        "dot : expected both vectors to have same dtype, but found {} and {}",
        scalar_type_name(*lhs), scalar_type_name(*rhs)
    )]
    DotDtype {
        lhs: crate::dtype::DType,
        rhs: crate::dtype::DType,
    },

    /// `mv` of a matrix and a vector whose sizes do not fit.
    #[error("size mismatch, got input ({}), mat ({}x{}), vec ({vec})", mat[0], mat[0], mat[1])]
    MvSizes { mat: [usize; 2], vec: usize },

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
            Error::DimOutOfRange { .. }
            | Error::ArgReduceEmpty { .. }
            | Error::ReduceDimEmpty { .. } => "IndexError",
            Error::KernelDtype { .. }
            | Error::MeanDtype { .. }
            | Error::VarDtype
            | Error::NormDtype { .. }
            | Error::ArgReduceBool { .. } => "NotImplementedError",
            _ => "RuntimeError",
        }
    }
}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// PyTorch's `ScalarType` name (`Long`), as its kernel errors print it.
fn scalar_type_name(dtype: crate::dtype::DType) -> &'static str {
    dtype.legacy_name().trim_end_matches("Tensor")
}

/// The C++ type name (`long int`) some of PyTorch's dtype checks print.
fn cpp_type_name(dtype: crate::dtype::DType) -> &'static str {
    match dtype {
        crate::dtype::DType::Bool => "bool",
        crate::dtype::DType::Int64 => "long int",
        crate::dtype::DType::Float32 => "float",
        crate::dtype::DType::Float64 => "double",
    }
}
