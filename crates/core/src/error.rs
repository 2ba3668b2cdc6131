//! The one error type of the engine. `Display` is PyTorch's message, word for
//! word; [`Error::python_type`] names the exception PyTorch raises.

/// Everything the engine can refuse, grouped by the Python exception
/// PyTorch raises for it ([`Error::python_type`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    // RuntimeError: PyTorch's error for most refused calls (sizes and
    // shapes, dtypes, devices, autograd, optimizers), and internal errors.
    /// Two operands whose shapes do not broadcast.
    #[error(
        "The size of tensor a ({lhs}) must match the size of tensor b ({rhs}) at non-singleton dimension {dim}"
    )]
    BroadcastSize { lhs: usize, rhs: usize, dim: usize },

    /// `expand` to fewer dimensions than the tensor has.
    #[error(
        "expand(torch.{}{{{actual:?}}}, size={requested:?}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
        dtype.legacy_name(), requested.len(), actual.len()
    )]
    ExpandRank {
        dtype: crate::dtype::DType,
        requested: Vec<i64>,
        actual: Vec<usize>,
    },

    /// `expand` of a dimension that is neither equal nor 1.
    #[error(
        "The expanded size of the tensor ({target}) must match the existing size ({size}) at non-singleton dimension {dim}.  Target sizes: {requested:?}.  Tensor sizes: {actual:?}"
    )]
    ExpandSize {
        requested: Vec<i64>,
        actual: Vec<usize>,
        dim: usize,
        size: usize,
        target: i64,
    },

    /// `expand` with `-1` for a dimension the tensor does not have.
    #[error(
        "The expanded size of the tensor ({size}) isn't allowed in a leading, non-existing dimension {dim}"
    )]
    ExpandLeading { size: i64, dim: usize },

    /// A new tensor whose size in bytes does not fit the address space.
    #[error("Storage size calculation overflowed with sizes={sizes:?}")]
    StorageSizeOverflow { sizes: Vec<i64> },

    /// A new tensor (with a size-0 dimension) whose strides do not fit.
    #[error("Stride calculation overflowed")]
    StrideOverflow,

    /// `arange` with more elements than an int64 counts.
    #[error("invalid size, possible overflow?")]
    ArangeSize,

    /// A negative size PyTorch only notices when it multiplies sizes.
    #[error("numel: integer multiplication overflow")]
    NumelOverflow,

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

    /// A Python number outside an integer dtype's range where PyTorch
    /// checks it (`torch.tensor`, `full`, `fill_`, item assignment); the
    /// name is the dtype's (`uint8`) or the C type's (`uint8_t`), as the
    /// check that raised it spells it.
    #[error("value cannot be converted to type {type_name} without overflow")]
    ScalarOverflow { type_name: &'static str },

    /// `item()` on a tensor with more than one element.
    #[error("a Tensor with {numel} elements cannot be converted to Scalar")]
    ItemNotScalar { numel: usize },

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

    /// An in-place op on a view of a leaf that requires grad.
    #[error("a view of a leaf Variable that requires grad is being used in an in-place operation.")]
    LeafViewInplace,

    /// An in-place op with grad mode on, on a view made with it off.
    #[error(
        "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
    )]
    NoGradViewInplace,

    /// The same, on a view (made with grad mode on) of a view made with it
    /// off; `node` is the view's op as PyTorch names it here (`Slice`).
    #[error(
        "Output {output} of {node} is a view of a view which was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
    )]
    NoGradViewOfViewInplace { output: usize, node: String },

    /// Backward through `leaky_relu_` with a negative slope: its node saved
    /// the result, from which a negative slope cannot tell the input's sign.
    #[error(
        "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu backward calculation with negative slope"
    )]
    LeakyReluInplaceNegativeSlope,

    /// An in-place op on one of the views `split`/`unbind` return.
    #[error(
        "Output {output} of {node} is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one."
    )]
    MultiOutputViewInplace { output: usize, node: String },

    /// A tensor made in inference mode reached a node's saved tensors.
    #[error(
        "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
    )]
    InferenceSaved,

    /// `_version` of a tensor made in inference mode: it has no counter.
    #[error("Inference tensors do not track version counter.")]
    InferenceVersion,

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
    AnomalyNan {
        node: String,
        index: usize,
        line: Option<u32>,
    },

    /// A custom function's backward returned the wrong number of gradients.
    #[error(
        "function {name} returned an incorrect number of gradients (expected {expected}, got {got})"
    )]
    FunctionGradCount {
        name: String,
        expected: usize,
        got: usize,
    },

    /// The same dimension twice in a reduction's dim list.
    #[error("dim {dim} appears multiple times in the list of dims")]
    DimRepeated { dim: usize },

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

    /// `mv` of operands that are not a matrix and a vector.
    #[error("vector + matrix @ vector expected, got 1, {mat}, {vec}")]
    MvRanks { mat: usize, vec: usize },

    /// `mv` of two dtypes: the vector's, the matrix's, the vector's.
    #[error(
        "addmv input tensors must have the same dtype, but got {}, {}, and {}",
        scalar_type_name(*vec), scalar_type_name(*mat), scalar_type_name(*vec)
    )]
    MvDtype {
        mat: crate::dtype::DType,
        vec: crate::dtype::DType,
    },

    /// `view` of a layout whose strides cannot express the new shape.
    #[error(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
    )]
    ViewStride,

    /// A `view`/`reshape` shape (which may hold `-1`) that does not fit the elements.
    #[error("shape '{shape:?}' is invalid for input of size {numel}")]
    ViewShape { shape: Vec<i64>, numel: usize },

    /// A shape with `-1` twice.
    #[error("only one dimension can be inferred")]
    ViewInferTwice,

    /// A shape with a negative size other than `-1`.
    #[error("invalid shape dimension {size} at index {index} of shape {shape:?}")]
    ViewShapeDim {
        size: i64,
        index: usize,
        shape: Vec<i64>,
    },

    /// `-1` in a shape for an empty tensor alongside a 0.
    #[error(
        "cannot reshape tensor of 0 elements into shape {shape:?} because the unspecified dimension size -1 can be any value and is ambiguous"
    )]
    ViewInferEmpty { shape: Vec<i64> },

    /// A factory shape with a negative size.
    #[error("Trying to create tensor with negative dimension {size}: {shape:?}")]
    NegativeDimension { size: i64, shape: Vec<i64> },

    /// `t()` of a tensor with more than two dimensions.
    #[error("{op}() expects a tensor with <= 2 dimensions, but self is {rank}D")]
    TRank { op: &'static str, rank: usize },

    /// `permute` with a different number of dimensions than the tensor has.
    #[error(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {rank} is not equal to len(dims) = {len}"
    )]
    PermuteRank { rank: usize, len: usize },

    /// `permute` naming a dimension twice.
    #[error("permute(): duplicate dims are not allowed.")]
    PermuteRepeated,

    /// `flatten(start_dim, end_dim)` with the start after the end.
    #[error("flatten() has invalid args: start_dim cannot come after end_dim")]
    FlattenDims,

    /// `unflatten` sizes whose product is not the dimension's size.
    #[error(
        "unflatten: Provided sizes {sizes:?} don't multiply up to the size of dim {dim} ({size}) in the input tensor"
    )]
    UnflattenSizes {
        sizes: Vec<i64>,
        dim: usize,
        size: usize,
    },

    /// `narrow` past the end of the dimension.
    #[error("start ({start}) + length ({length}) exceeds dimension size ({size}).")]
    NarrowLength {
        start: i64,
        length: i64,
        size: usize,
    },

    /// `narrow` of a 0-dim tensor.
    #[error("narrow() cannot be applied to a 0-dim tensor.")]
    NarrowZeroDim,

    /// `narrow` with a negative length.
    #[error("narrow(): length must be non-negative.")]
    NarrowNegative,

    /// `diagonal` of one dimension with itself (as the caller named them).
    #[error("diagonal dimensions cannot be identical {dim1}, {dim2}")]
    DiagonalDims {
        /// The first dimension given.
        dim1: i64,
        /// The second.
        dim2: i64,
    },

    /// `index_put` values that do not broadcast to the indexed shape.
    #[error(
        "shape mismatch: value tensor of shape {values:?} cannot be broadcast to indexing result of shape {result:?}"
    )]
    IndexPutShape {
        values: Vec<usize>,
        result: Vec<usize>,
    },

    /// `gather`/`scatter` index of another rank than the tensor's.
    #[error("Index tensor must have the same number of dimensions as {of} tensor")]
    GatherRank { of: &'static str },

    /// `gather`/`scatter` with a non-integer index.
    #[error("{op}(): Expected dtype int32/int64 for index")]
    GatherDtype { op: &'static str },

    /// `gather` index larger than the input outside the gathered dimension.
    #[error(
        "Size does not match at dimension {at} expected index {index:?} to be no larger than self {shape:?} apart from dimension {dim}"
    )]
    GatherSize {
        at: usize,
        index: Vec<usize>,
        shape: Vec<usize>,
        dim: usize,
    },

    /// `scatter_add` index larger than `self` or `src`.
    #[error(
        "Expected index {index:?} to be no larger than self {shape:?} apart from dimension {dim} and to be no larger size than src {src:?}"
    )]
    ScatterSize {
        index: Vec<usize>,
        shape: Vec<usize>,
        dim: usize,
        src: Vec<usize>,
    },

    /// A `gather`/`scatter_add` index outside its dimension (a RuntimeError,
    /// unlike the same words from `t[i]`).
    #[error("index {index} is out of bounds for dimension {dim} with size {size}")]
    GatherRange { index: i64, dim: usize, size: usize },

    /// `index_select` index outside a dimension other than the first.
    #[error("INDICES element is out of DATA bounds, id={index} axis_dim={size}")]
    IndexSelectBounds { index: i64, size: usize },

    /// `index_select` of a 0-dim tensor with more than one index.
    #[error("index_select(): Index to scalar can have only 1 value, got {count} value(s)")]
    IndexSelectScalar { count: usize },

    /// `index_add` along a dimension the source does not have.
    #[error(
        "index_add_(): Indexing dim {dim} is out of bounds of the source tensor with dim {rank}"
    )]
    IndexAddSourceDim { dim: usize, rank: usize },

    /// `index_select` with a non-integer index.
    #[error("index_select(): Expected dtype int32 or int64 for index")]
    IndexSelectDtype,

    /// `index_add` of a source whose other dimensions differ from `self`'s.
    #[error(
        "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = {shape:?} source.shape = {src:?}"
    )]
    IndexAddShape { shape: Vec<usize>, src: Vec<usize> },

    /// `index_put` of values in another dtype.
    #[error(
        "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
        scalar_type_name(*this), scalar_type_name(*src)
    )]
    IndexPutDtype {
        this: crate::dtype::DType,
        src: crate::dtype::DType,
    },

    /// `scatter_add` of a source in another dtype.
    #[error("scatter(): Expected self.dtype to be equal to src.dtype")]
    ScatterDtype,

    /// `index_add` with a non-integer index.
    #[error("index_add_(): Expected dtype int32/int64 for index but got: {}", scalar_type_name(*dtype))]
    IndexAddDtype { dtype: crate::dtype::DType },

    /// `index_add` with as many indices as `source` has slices.
    #[error(
        "index_add_(): Number of indices ({indices}) should be equal to source.size(dim): ({size}), for dim: {dim}"
    )]
    IndexAddCount {
        indices: usize,
        size: usize,
        dim: usize,
    },

    /// `index_add` of a source with another dtype.
    #[error(
        "index_add_(): self ({}) and source ({}) must have the same scalar type",
        scalar_type_name(*this), scalar_type_name(*src)
    )]
    IndexAddDtypes {
        this: crate::dtype::DType,
        src: crate::dtype::DType,
    },

    /// `embedding` with non-integer indices.
    #[error(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.{} instead (while checking arguments for embedding)",
        dtype.legacy_name()
    )]
    EmbeddingDtype { dtype: crate::dtype::DType },

    /// `embedding` with a weight that is not a matrix.
    #[error("'weight' must be 2-D")]
    EmbeddingWeight,

    /// `cat` of tensors whose other dimensions differ.
    #[error(
        "Sizes of tensors must match except in dimension {dim}. Expected size {expected} but got size {got} for tensor number {index} in the list."
    )]
    CatSizes {
        dim: usize,
        expected: usize,
        got: usize,
        index: usize,
    },

    /// `cat` of tensors of different ranks.
    #[error("Tensors must have same number of dimensions: got {lhs} and {rhs}")]
    CatRank { lhs: usize, rhs: usize },

    /// `cat` of a 0-dim tensor.
    #[error("zero-dimensional tensor (at position {index}) cannot be concatenated")]
    CatZeroDim { index: usize },

    /// `stack` of tensors of different shapes.
    #[error(
        "stack expects each tensor to be equal size, but got {first:?} at entry 0 and {other:?} at entry {index}"
    )]
    StackSizes {
        first: Vec<usize>,
        other: Vec<usize>,
        index: usize,
    },

    /// `stack` of no tensors.
    #[error("stack expects a non-empty TensorList")]
    StackEmpty,

    /// `split`/`chunk`/`unbind` of a 0-dim tensor.
    #[error("{op} expects at least a 1-dimensional tensor")]
    SplitZeroDim { op: &'static str },

    /// `split` with a negative size.
    #[error("split expects split_size be non-negative, but got split_size={size}")]
    SplitNegative { size: i64 },

    /// `split` with size 0 of a non-empty dimension.
    #[error("split_size can only be 0 if dimension size is 0, but got dimension size of {size}")]
    SplitZero { size: usize },

    /// `split_with_sizes` whose sizes do not add up to the dimension.
    #[error(
        "split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at dimension {dim}), but got split_sizes={sizes:?}"
    )]
    SplitSizesSum {
        size: usize,
        dim: usize,
        sizes: Vec<i64>,
    },

    /// `split_with_sizes` with a negative size.
    #[error(
        "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={sizes:?}"
    )]
    SplitSizesNegative { sizes: Vec<i64> },

    /// `chunk` into no chunks.
    #[error("chunk expects `chunks` to be greater than 0, got: {chunks}")]
    ChunkCount { chunks: i64 },

    /// `arange` with step 0.
    #[error("step must be nonzero")]
    ArangeStepZero,

    /// `arange` whose step points away from its end.
    #[error("upper bound and lower bound inconsistent with step sign")]
    ArangeSign,

    /// `arange` with an infinite or NaN bound.
    #[error("unsupported range: {start} -> {end}")]
    ArangeRange { start: f64, end: f64 },

    /// `linspace` with a negative number of steps.
    #[error("number of steps must be non-negative")]
    LinspaceSteps,

    /// `eye` with a negative size; `arg` is `n` or `m`.
    #[error("{arg} must be greater or equal to 0, got {value}")]
    EyeNegative { arg: &'static str, value: i64 },

    /// `randint(low, high)` with `low >= high`.
    #[error("random_ expects 'from' to be less than 'to', but got from={from} >= to={to}")]
    RandomRange { from: i64, to: i64 },

    /// An integer tensor raised to a negative integer scalar.
    #[error("Integers to negative integer powers are not allowed.")]
    IntegerNegativePower,

    /// `torch.set_default_dtype` of a dtype that is not floating point.
    #[error("only floating-point types are supported as the default type")]
    DefaultDtypeNotFloat,

    /// Integer `//`, `%`, `fmod` or rounding `div` by zero: PyTorch's CPU
    /// kernels raise a RuntimeError whose whole message is this word.
    #[error("ZeroDivisionError")]
    ZeroDivision,

    /// `add`/`sub` of integer tensors with a float `alpha`.
    #[error("For integral input tensors, argument alpha must not be a floating point number.")]
    AlphaFloat,

    /// `clamp()` with neither bound.
    #[error("torch.clamp: At least one of 'min' or 'max' must not be None")]
    ClampNoBounds,

    /// `where` with a condition that is not bool.
    #[error(
        "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
        scalar_type_name(*dtype)
    )]
    WhereCondition { dtype: crate::dtype::DType },

    /// `cross_entropy` with a target of the input's shape (class
    /// probabilities) that is not floating point.
    #[error(
        "Expected floating point type for target with class probabilities, got {}",
        scalar_type_name(*dtype)
    )]
    CrossEntropyProbabilityDtype { dtype: crate::dtype::DType },

    /// Class indices that are not integers.
    #[error("expected target dtype to be Long or Byte, but got {}", scalar_type_name(*dtype))]
    NllTargetDtype { dtype: crate::dtype::DType },

    /// A class-index target of more than one dimension.
    #[error("0D or 1D target tensor expected, multi-target not supported")]
    NllTargetRank,

    /// `nll_loss2d` with a target that is not `[N, H, W]`.
    #[error(
        "only batches of spatial targets supported (3D tensors) but got targets of dimension: {rank}"
    )]
    NllSpatialTarget { rank: usize },

    /// `nll_loss2d` with a class weight of the wrong size.
    #[error("weight tensor should be defined either for all or no classes")]
    NllSpatialWeight,

    /// `nll_loss2d` with a target whose sizes are not the input's `[N, H, W]`
    /// (PyTorch's message has no closing parenthesis).
    #[error("size mismatch (got input: {input:?} , target: {target:?}")]
    NllSpatialSize {
        input: Vec<usize>,
        target: Vec<usize>,
    },

    /// `nll_loss` over other spatial ranks with a target of other sizes.
    #[error("Expected target size {expected:?}, got {got:?}")]
    NllTargetSize {
        expected: Vec<usize>,
        got: Vec<usize>,
    },

    /// A class weight of the wrong size.
    #[error(
        "weight tensor should be defined either for all {classes} classes or no classes but got weight tensor of shape: {shape:?}"
    )]
    NllWeightSize { classes: usize, shape: Vec<usize> },

    /// A tensor argument PyTorch has no derivative for, requiring grad.
    #[error(
        "The function '{function}' is not differentiable with respect to argument '{argument}'. This input cannot have requires_grad True."
    )]
    NotDifferentiable {
        function: &'static str,
        argument: &'static str,
    },

    /// `label_smoothing` outside `[0, 1]`.
    #[error("label_smoothing must be between 0.0 and 1.0. Got: {value}")]
    LabelSmoothing { value: f64 },

    /// `binary_cross_entropy` of a value that is not a probability.
    #[error("all elements of input should be between 0 and 1")]
    BceInputRange,

    /// `layer_norm` over trailing dimensions the input does not have.
    #[error(
        "Given normalized_shape={normalized:?}, expected input with shape [*{}], but got input of size{input:?}",
        normalized.iter().map(|d| format!(", {d}")).collect::<String>()
    )]
    LayerNormShape {
        normalized: Vec<usize>,
        input: Vec<usize>,
    },

    /// A `layer_norm` weight or bias not of `normalized_shape`.
    #[error(
        "Expected {name} to be of same shape as normalized_shape, but got {name} of shape {shape:?} and normalized_shape = {normalized:?}"
    )]
    LayerNormParam {
        name: &'static str,
        shape: Vec<usize>,
        normalized: Vec<usize>,
    },

    /// `layer_norm` over no dimensions.
    #[error(
        "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []"
    )]
    LayerNormEmpty,

    /// A `batch_norm` statistic or parameter with the wrong number of channels.
    #[error("{name} should contain {expected} elements not {got}")]
    BatchNormParamSize {
        name: &'static str,
        expected: usize,
        got: usize,
    },

    /// Evaluation-mode `batch_norm` without running statistics.
    #[error("running_mean must be defined in evaluation mode")]
    BatchNormEvalStats,

    /// `conv2d` input channels that do not match the weight.
    #[error(
        "Given groups={groups}, weight of size {weight:?}, expected input{input:?} to have {expected} channels, but got {got} channels instead"
    )]
    ConvChannels {
        groups: usize,
        weight: Vec<usize>,
        input: Vec<usize>,
        expected: usize,
        got: usize,
    },

    /// `conv2d` output channels not divisible by `groups`.
    #[error(
        "Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of size [{weight:?}] instead"
    )]
    ConvGroupsWeight { groups: usize, weight: Vec<usize> },

    /// `conv2d` with more groups than output channels (PyTorch prints the
    /// weight's size in single brackets here).
    #[error(
        "Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight of size {weight:?} instead"
    )]
    ConvGroupsWeightSmall { groups: usize, weight: Vec<usize> },

    /// A `conv2d` kernel larger than the padded input.
    #[error(
        "Calculated padded input size per channel: ({} x {}). Kernel size: ({} x {}). Kernel size can't be greater than actual input size",
        input[0], input[1], kernel[0], kernel[1]
    )]
    ConvKernelSize {
        input: [usize; 2],
        kernel: [usize; 2],
    },

    /// A `conv2d` input of neither 3 nor 4 dimensions.
    #[error(
        "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: {shape:?}"
    )]
    ConvInputRank { shape: Vec<usize> },

    /// A `conv2d` bias that is not one value per output channel.
    #[error(
        "Given weight of size {weight:?}, expected bias to be 1-dimensional with {expected} elements, but got bias of size {bias:?} instead"
    )]
    ConvBias {
        weight: Vec<usize>,
        expected: usize,
        bias: Vec<usize>,
    },

    /// A zero or negative convolution stride.
    #[error("non-positive stride is not supported")]
    ConvStride,

    /// A negative convolution padding.
    #[error("negative padding is not supported")]
    ConvPadding,

    /// A convolution padding past what PyTorch's int64 size arithmetic
    /// allows (`i64::MAX / 2`).
    #[error("Given padding={padding} at dimension {dim} , expected padding to be at most {max}")]
    ConvPaddingTooLarge { padding: i64, dim: usize, max: i64 },

    /// A zero or negative convolution dilation.
    #[error("dilation should be greater than zero, but got {dilation:?}")]
    ConvDilation { dilation: Vec<i64> },

    /// Zero or negative convolution groups.
    #[error("non-positive groups is not supported")]
    ConvGroups,

    /// A pooling window that leaves no output.
    #[error(
        "Given input size: ({channels}x{}x{}). Calculated output size: ({channels}x{}x{}). Output size is too small",
        input[0], input[1], output[0], output[1]
    )]
    PoolTooSmall {
        channels: usize,
        input: [usize; 2],
        output: [i64; 2],
    },

    /// Pooling padding past half the window.
    #[error(
        "pad should be at most half of effective kernel size, but got pad={pad}, kernel_size={kernel} and dilation={dilation}"
    )]
    PoolPadding {
        pad: i64,
        kernel: i64,
        dilation: i64,
    },

    /// A zero pooling stride.
    #[error("stride should not be zero")]
    PoolStride,

    /// A zero or negative pooling dilation.
    #[error("dilation should be greater than zero, but got dilationH: {h} dilationW: {w}")]
    PoolDilation { h: i64, w: i64 },

    /// Pooling input that is not a non-empty 3-D or 4-D tensor.
    #[error("non-empty 3D or 4D (batch mode) tensor expected for input")]
    PoolRank,

    /// `linear` with a 0-dim operand.
    #[error("both arguments to linear need to be at least 1D, but they are {input}D and {weight}D")]
    LinearZeroDim { input: usize, weight: usize },

    /// `addmm` with an operand that is not a matrix.
    #[error("addmm: {arg} must be a matrix, got {rank}-D tensor")]
    AddmmNotMatrix { arg: &'static str, rank: usize },

    /// `addmm` of matrices whose inner sizes differ.
    #[error(
        "addmm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
        lhs[0], lhs[1], rhs[0], rhs[1]
    )]
    AddmmShapes { lhs: [usize; 2], rhs: [usize; 2] },

    /// `addmm` operands of different dtypes; `lhs` names the first (`self`, `mat1`).
    #[error(
        "{lhs} and mat2 must have the same dtype, but got {} and {}",
        scalar_type_name(*lhs_dtype), scalar_type_name(*rhs_dtype)
    )]
    AddmmDtype {
        lhs: &'static str,
        lhs_dtype: crate::dtype::DType,
        rhs_dtype: crate::dtype::DType,
    },

    /// Convolution, `unfold` and `fold` shapes PyTorch rejects with a
    /// message built from many sizes (formatted where they are checked).
    #[error("{0}")]
    ConvShape(String),

    /// A GPU backend failed (a buffer it could not map, a kernel it could
    /// not launch); a broken invariant of the engine is [`Error::Internal`].
    #[error("{0}")]
    Backend(String),

    /// A device string that names no device.
    #[error("Expected one of cpu, webgpu, gpu device type at start of device string: {text}")]
    DeviceString { text: String },

    /// The GPU device was lost (a driver reset, the browser reclaiming it,
    /// `destroy()`): its tensors are gone, and the next use of `webgpu`
    /// opens a new device.
    #[error(
        "WebGPU device lost ({reason}): tensors on it are gone; the next use of 'webgpu' opens a new device"
    )]
    DeviceLost { reason: String },

    /// `webgpu` asked for where no GPU could be opened.
    #[error("WebGPU is not available: {reason}")]
    DeviceUnavailable { reason: String },

    /// Tensors on different devices in one op.
    #[error(
        "Expected all tensors to be on the same device, but found at least two devices, {first} and {second}!"
    )]
    DeviceMismatch { first: String, second: String },

    /// An invariant of the engine broke: a bug in gradscope, not a refusal
    /// of the caller's input (where PyTorch would fail an internal assert).
    /// Internal errors raise RuntimeError, as PyTorch's do.
    #[error("{0} (an internal error of gradscope: please report it)")]
    Internal(String),

    // IndexError: a dimension, index or position out of range.
    /// A dimension index past the tensor's rank (IndexError); a 0-dim
    /// tensor accepts dims as if it had one dimension, as in PyTorch.
    #[error(
        "Dimension out of range (expected to be in range of [-{0}, {1}], but got {dim})",
        (*rank).max(1), (*rank).max(1) - 1
    )]
    DimOutOfRange { dim: i64, rank: usize },

    /// `argmax()`/`argmin()` over all of an empty tensor (IndexError).
    #[error("{op}(): Expected reduction dim to be specified for input.numel() == 0.")]
    ArgReduceEmpty { op: &'static str },

    /// `max(dim)`... over a dimension of size 0 (IndexError).
    #[error("{op}(): Expected reduction dim {dim} to have non-zero size.")]
    ReduceDimEmpty { op: &'static str, dim: usize },

    /// `narrow` with a start outside the dimension (IndexError).
    #[error("start out of range (expected to be in range of [-{size}, {size}], but got {start})")]
    NarrowStart { start: i64, size: usize },

    /// Slicing a 0-dim tensor (IndexError).
    #[error("slice() cannot be applied to a 0-dim tensor.")]
    SliceZeroDim,

    /// `select` of an index outside the dimension (IndexError).
    #[error("select(): index {index} out of range for tensor of size {shape:?} at dimension {dim}")]
    SelectRange {
        index: i64,
        shape: Vec<usize>,
        dim: usize,
    },

    /// `select` of a 0-dim tensor (IndexError).
    #[error("select() cannot be applied to a 0-dim tensor.")]
    SelectZeroDim,

    /// An integer index outside its dimension, in `t[i]` and advanced
    /// indexing (IndexError).
    #[error("index {index} is out of bounds for dimension {dim} with size {size}")]
    IndexRange { index: i64, dim: usize, size: usize },

    /// An integer index into a 0-dim tensor (IndexError).
    #[error(
        "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
    )]
    IndexZeroDim,

    /// More indices than dimensions (IndexError).
    #[error("too many indices for tensor of dimension {rank}")]
    TooManyIndices { rank: usize },

    /// A float tensor used as an index (IndexError).
    #[error("tensors used as indices must be long, int, byte or bool tensors")]
    IndexDtype,

    /// A boolean mask whose shape differs from the dimensions it indexes (IndexError).
    #[error(
        "The shape of the mask {mask:?} at index {mask_dim} does not match the shape of the indexed tensor {shape:?} at index {dim}"
    )]
    MaskShape {
        mask: Vec<usize>,
        mask_dim: usize,
        shape: Vec<usize>,
        dim: usize,
    },

    /// Index tensors whose shapes do not broadcast together (IndexError).
    #[error(
        "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
        shapes.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ")
    )]
    IndexBroadcast { shapes: Vec<Vec<usize>> },

    /// `index_select`/`embedding`/`index_add` index outside the dimension (IndexError).
    #[error("index out of range in self")]
    IndexSelectRange,

    /// `index_select` with an index of two or more dimensions (IndexError).
    #[error("index_select(): Index is supposed to be a vector")]
    IndexSelectVector,

    /// `index_add` with an index of two or more dimensions (IndexError).
    #[error(
        "index_add_(): Index is supposed to be a vector, but got dim: {rank} with type: {} and size: {shape:?}",
        scalar_type_name(*dtype)
    )]
    IndexAddVector {
        rank: usize,
        dtype: crate::dtype::DType,
        shape: Vec<usize>,
    },

    /// `index_put` with more index tensors than dimensions (IndexError).
    #[error("too many indices for tensor of dimension {rank} (got {count})")]
    IndexPutCount { rank: usize, count: usize },

    /// `unbind` or `cat` naming a dimension of a 0-dim tensor (IndexError).
    #[error("Dimension specified as {dim} but tensor has no dimensions")]
    DimZeroDim { dim: i64 },

    /// A class index outside `[0, classes)` that is not `ignore_index`.
    #[error("Target {target} is out of bounds.")]
    NllTargetBounds { target: i64 },

    // ValueError: an argument's value out of its domain.
    /// An optimizer given no parameters.
    #[error("optimizer got an empty parameter list")]
    OptimizerEmpty,

    /// SGD with nesterov but no momentum or with dampening.
    #[error("Nesterov momentum requires a momentum and zero dampening")]
    NesterovMomentum,

    /// A slice with step 0 (ValueError, from Python's `slice`).
    #[error("slice step cannot be zero")]
    SliceStepZero,

    /// A slice with a negative step (ValueError).
    #[error("step must be greater than zero")]
    SliceStepNegative,

    /// `cat` of no tensors (ValueError).
    #[error("torch.cat(): expected a non-empty list of Tensors")]
    CatEmpty,

    /// `nll_loss` of one sample (`[C]` input) against more than one target.
    #[error("For 1D input, 1D target must have size 1, but got target size: {size}")]
    NllTarget1d { size: usize },

    /// Losses over classes: batch sizes of input and target differ.
    #[error("Expected input batch_size ({input}) to match target batch_size ({target}).")]
    NllBatchSize { input: usize, target: usize },

    /// A 0-dim input to `nll_loss`/`cross_entropy`.
    #[error("Expected 1 or more dimensions (got {rank})")]
    LossInputRank { rank: usize },

    /// A loss reduction other than `none`, `mean` or `sum`.
    #[error("{0} is not a valid value for reduction")]
    Reduction(String),

    /// `binary_cross_entropy` with a target of another size.
    #[error(
        "Using a target size (torch.Size({target:?})) that is different to the input size (torch.Size({input:?})) is deprecated. Please ensure they have the same size."
    )]
    BceTargetSize {
        target: Vec<usize>,
        input: Vec<usize>,
    },

    /// `binary_cross_entropy_with_logits` with a target of another size.
    #[error(
        "Target size (torch.Size({target:?})) must be the same as input size (torch.Size({input:?}))"
    )]
    BceLogitsTargetSize {
        target: Vec<usize>,
        input: Vec<usize>,
    },

    /// A dropout probability outside `[0, 1]`.
    #[error("dropout probability has to be between 0 and 1, but got {p}")]
    DropoutProbability { p: f64 },

    /// Training `batch_norm` with one value per channel.
    #[error(
        "Expected more than 1 value per channel when training, got input size torch.Size({shape:?})"
    )]
    BatchNormOneValue { shape: Vec<usize> },

    // TypeError: a dtype the device cannot hold.
    /// float64 asked for on the GPU: WGSL has no 64-bit floats (TypeError,
    /// as PyTorch's MPS says it).
    #[error(
        "Cannot convert a WebGPU Tensor to float64 dtype as WebGPU doesn't support float64. Please use float32 instead."
    )]
    GpuFloat64,

    // NotImplementedError: a kernel PyTorch has no version of for a
    // dtype.
    /// `-t` on a bool tensor.
    #[error(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
    )]
    NegBool,

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

    /// `argmax`/`argmin` of a bool tensor (NotImplementedError).
    #[error("{op}(): does not support bool input")]
    ArgReduceBool { op: &'static str },

    /// `relu` of a bool tensor (NotImplementedError).
    #[error("Boolean inputs not supported for {op}")]
    BoolUnsupported { op: &'static str },

    /// `a - b` with a bool operand (NotImplementedError); `both` when both are bool.
    #[error(
        "Subtraction, the `-` operator, with {} is not supported. {}",
        if *both { "two bool tensors" } else { "a bool tensor" },
        if *both {
            "Use the `^` or `logical_xor()` operator instead."
        } else {
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
        }
    )]
    SubBool { both: bool },

    // AssertionError: a device this build was not compiled with.
    /// A device this build has no backend for (`cuda`), as a CPU-only
    /// PyTorch says it (AssertionError).
    #[error("Torch not compiled with {} enabled", device.to_uppercase())]
    DeviceNotCompiled { device: String },

    // torch.OutOfMemoryError: past the memory budget.
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
}

impl Error {
    /// The Python exception PyTorch raises for this error.
    pub fn python_type(&self) -> &'static str {
        // Exhaustive, with no catch-all arm: a new variant does not compile
        // until its exception is chosen here.
        match self {
            Error::BroadcastSize { .. }
            | Error::ExpandRank { .. }
            | Error::ExpandSize { .. }
            | Error::ExpandLeading { .. }
            | Error::StorageSizeOverflow { .. }
            | Error::StrideOverflow
            | Error::ArangeSize
            | Error::NumelOverflow
            | Error::ShapeInvalid { .. }
            | Error::NonScalarBackward
            | Error::NoGradFn
            | Error::SavedTensorsFreed
            | Error::SavedTensorModified { .. }
            | Error::ItemNotScalar { .. }
            | Error::ScalarOverflow { .. }
            | Error::GradcheckFailed(..)
            | Error::HookNoGrad
            | Error::RetainGradNoGrad
            | Error::GradInputNoGrad
            | Error::GradInputUnused { .. }
            | Error::LeafInplace
            | Error::LeafViewInplace
            | Error::NoGradViewInplace
            | Error::NoGradViewOfViewInplace { .. }
            | Error::LeakyReluInplaceNegativeSlope
            | Error::MultiOutputViewInplace { .. }
            | Error::InferenceSaved
            | Error::InferenceVersion
            | Error::InferenceInplace
            | Error::InplaceShape { .. }
            | Error::InplaceCast { .. }
            | Error::InplaceOverlap
            | Error::CheckpointMismatch { .. }
            | Error::AnomalyNan { .. }
            | Error::FunctionGradCount { .. }
            | Error::DimRepeated { .. }
            | Error::NormInfEmpty
            | Error::ReduceEmpty { .. }
            | Error::MmShapes { .. }
            | Error::MmNotMatrix { .. }
            | Error::MatmulDtype { .. }
            | Error::ScalarTypeMismatch { .. }
            | Error::BmmNot3d { .. }
            | Error::BmmShapes { .. }
            | Error::MatmulZeroDim { .. }
            | Error::DotSizes { .. }
            | Error::DotNot1d { .. }
            | Error::DotDtype { .. }
            | Error::MvSizes { .. }
            | Error::MvRanks { .. }
            | Error::MvDtype { .. }
            | Error::ViewStride
            | Error::ViewShape { .. }
            | Error::ViewInferTwice
            | Error::ViewShapeDim { .. }
            | Error::ViewInferEmpty { .. }
            | Error::NegativeDimension { .. }
            | Error::TRank { .. }
            | Error::PermuteRank { .. }
            | Error::PermuteRepeated
            | Error::FlattenDims
            | Error::UnflattenSizes { .. }
            | Error::NarrowLength { .. }
            | Error::NarrowZeroDim
            | Error::NarrowNegative
            | Error::DiagonalDims { .. }
            | Error::IndexPutShape { .. }
            | Error::GatherRank { .. }
            | Error::GatherDtype { .. }
            | Error::GatherSize { .. }
            | Error::ScatterSize { .. }
            | Error::GatherRange { .. }
            | Error::IndexSelectBounds { .. }
            | Error::IndexSelectScalar { .. }
            | Error::IndexAddSourceDim { .. }
            | Error::IndexSelectDtype
            | Error::IndexAddShape { .. }
            | Error::IndexPutDtype { .. }
            | Error::ScatterDtype
            | Error::IndexAddDtype { .. }
            | Error::IndexAddCount { .. }
            | Error::IndexAddDtypes { .. }
            | Error::EmbeddingDtype { .. }
            | Error::EmbeddingWeight
            | Error::CatSizes { .. }
            | Error::CatRank { .. }
            | Error::CatZeroDim { .. }
            | Error::StackSizes { .. }
            | Error::StackEmpty
            | Error::SplitZeroDim { .. }
            | Error::SplitNegative { .. }
            | Error::SplitZero { .. }
            | Error::SplitSizesSum { .. }
            | Error::SplitSizesNegative { .. }
            | Error::ChunkCount { .. }
            | Error::ArangeStepZero
            | Error::ArangeSign
            | Error::ArangeRange { .. }
            | Error::LinspaceSteps
            | Error::EyeNegative { .. }
            | Error::RandomRange { .. }
            | Error::IntegerNegativePower
            | Error::ZeroDivision
            | Error::AlphaFloat
            | Error::ClampNoBounds
            | Error::WhereCondition { .. }
            | Error::CrossEntropyProbabilityDtype { .. }
            | Error::NllTargetDtype { .. }
            | Error::NllTargetRank
            | Error::NllSpatialTarget { .. }
            | Error::NllSpatialWeight
            | Error::NllSpatialSize { .. }
            | Error::NllTargetSize { .. }
            | Error::NllWeightSize { .. }
            | Error::NotDifferentiable { .. }
            | Error::LabelSmoothing { .. }
            | Error::BceInputRange
            | Error::LayerNormShape { .. }
            | Error::LayerNormParam { .. }
            | Error::LayerNormEmpty
            | Error::BatchNormParamSize { .. }
            | Error::BatchNormEvalStats
            | Error::ConvChannels { .. }
            | Error::ConvGroupsWeight { .. }
            | Error::ConvGroupsWeightSmall { .. }
            | Error::ConvKernelSize { .. }
            | Error::ConvInputRank { .. }
            | Error::ConvBias { .. }
            | Error::ConvStride
            | Error::ConvPadding
            | Error::ConvPaddingTooLarge { .. }
            | Error::ConvDilation { .. }
            | Error::ConvGroups
            | Error::PoolTooSmall { .. }
            | Error::PoolPadding { .. }
            | Error::PoolStride
            | Error::PoolDilation { .. }
            | Error::PoolRank
            | Error::LinearZeroDim { .. }
            | Error::AddmmNotMatrix { .. }
            | Error::AddmmShapes { .. }
            | Error::AddmmDtype { .. }
            | Error::ConvShape(..)
            | Error::Backend(..)
            | Error::DeviceString { .. }
            | Error::DeviceLost { .. }
            | Error::DeviceUnavailable { .. }
            | Error::DeviceMismatch { .. }
            | Error::Internal(..) => "RuntimeError",
            Error::DimOutOfRange { .. }
            | Error::ArgReduceEmpty { .. }
            | Error::ReduceDimEmpty { .. }
            | Error::NarrowStart { .. }
            | Error::SliceZeroDim
            | Error::SelectRange { .. }
            | Error::SelectZeroDim
            | Error::IndexRange { .. }
            | Error::IndexZeroDim
            | Error::TooManyIndices { .. }
            | Error::IndexDtype
            | Error::MaskShape { .. }
            | Error::IndexBroadcast { .. }
            | Error::IndexSelectRange
            | Error::IndexSelectVector
            | Error::IndexAddVector { .. }
            | Error::IndexPutCount { .. }
            | Error::DimZeroDim { .. }
            | Error::NllTargetBounds { .. } => "IndexError",
            Error::OptimizerEmpty
            | Error::NesterovMomentum
            | Error::SliceStepZero
            | Error::SliceStepNegative
            | Error::CatEmpty
            | Error::NllTarget1d { .. }
            | Error::NllBatchSize { .. }
            | Error::LossInputRank { .. }
            | Error::Reduction(..)
            | Error::BceTargetSize { .. }
            | Error::BceLogitsTargetSize { .. }
            | Error::DropoutProbability { .. }
            | Error::BatchNormOneValue { .. } => "ValueError",
            Error::GpuFloat64 | Error::DefaultDtypeNotFloat => "TypeError",
            Error::NegBool
            | Error::KernelDtype { .. }
            | Error::MeanDtype { .. }
            | Error::VarDtype
            | Error::NormDtype { .. }
            | Error::ArgReduceBool { .. }
            | Error::BoolUnsupported { .. }
            | Error::SubBool { .. } => "NotImplementedError",
            Error::DeviceNotCompiled { .. } => "AssertionError",
            Error::OutOfMemory { .. } => "OutOfMemoryError",
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
        crate::dtype::DType::UInt8 => "unsigned char",
        crate::dtype::DType::Int8 => "signed char",
        crate::dtype::DType::Int16 => "short int",
        crate::dtype::DType::Int32 => "int",
        crate::dtype::DType::Int64 => "long int",
        crate::dtype::DType::BFloat16 => "c10::BFloat16",
        crate::dtype::DType::Float32 => "float",
        crate::dtype::DType::Float64 => "double",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_error_says_it_is_ours_and_raises_runtime_error() {
        let err = Error::Internal("a saved tensor outlived its node".into());
        assert_eq!(
            err.to_string(),
            "a saved tensor outlived its node (an internal error of gradscope: please report it)"
        );
        assert_eq!(err.python_type(), "RuntimeError");
        assert_eq!(Error::GpuFloat64.python_type(), "TypeError");
        assert_eq!(Error::SliceStepZero.python_type(), "ValueError");
    }
}
