//! The events the engine emits, in the order it does things.

use serde::{Deserialize, Serialize};

/// What a storage's bytes are for, as the memory view groups them. A storage
/// with several roles counts under the first in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Model parameters (`nn.Parameter`).
    Parameter,
    /// `.grad` of leaves.
    Gradient,
    /// Optimizer state (momentum, Adam's moments).
    OptimizerState,
    /// Tensors a graph node keeps for backward.
    SavedForBackward,
    /// Everything else: inputs, activations, temporaries.
    Other,
}

impl Category {
    /// Every category, in priority order.
    pub const ALL: [Category; 5] = [
        Category::Parameter,
        Category::Gradient,
        Category::OptimizerState,
        Category::SavedForBackward,
        Category::Other,
    ];

    /// The name the memory view and `memory_summary` print.
    pub fn label(self) -> &'static str {
        match self {
            Category::Parameter => "parameter",
            Category::Gradient => "gradient",
            Category::OptimizerState => "optimizer state",
            Category::SavedForBackward => "saved for backward",
            Category::Other => "other",
        }
    }
}

/// How many elements of a `.grad` a [`EventKind::GradValue`] event keeps
/// (its norm covers them all): enough for the lessons to compare gradients,
/// few enough that a long training loop's trace stays light in the browser.
pub const GRAD_VALUES_KEPT: usize = 1024;

/// A name from the engine's fixed sets (ops, node classes, devices,
/// dtypes, saved slots) as the engine spells it, borrowed, or owned when
/// it is not one of them (a custom `Function`'s node, a trace read back).
/// Every op's events carry several, which need no allocation this way.
/// Serialised as a plain string.
pub type Name = std::borrow::Cow<'static, str>;

/// Identifies one autograd graph node for the life of a program.
pub type NodeId = u64;
/// Identifies one tensor handle for the life of a program.
pub type TensorId = u64;
/// Identifies one allocation (shared by every view of it).
pub type StorageId = u64;

/// One thing the engine did: a sequence number, a wall-clock time and what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Position in the trace, from 0, without gaps.
    pub seq: u64,
    /// Microseconds since the trace began.
    pub time_us: u64,
    /// The program line that caused it, when the Python runtime is driving.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// What happened.
    pub kind: EventKind,
}

impl Event {
    /// A trace of `kinds` in order, numbered from 0, at time 0 and on no
    /// line: what tests and tools build views from when timing and lines
    /// do not matter.
    pub fn numbered(kinds: impl IntoIterator<Item = EventKind>) -> Vec<Event> {
        kinds
            .into_iter()
            .enumerate()
            .map(|(i, kind)| Event {
                seq: i as u64,
                time_us: 0,
                line: None,
                kind,
            })
            .collect()
    }
}

/// A tensor saved for backward by a graph node, as the memory view sees it.
///
/// The dtype, strides, offset and version came later: a trace written
/// before them reads them as empty and zero (`serde(default)`), and the
/// node details then leave them out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedInfo {
    /// What PyTorch calls it (`self`, `other`, `result`).
    pub name: Name,
    /// Its shape.
    pub shape: Vec<usize>,
    /// The storage it keeps alive.
    pub storage: StorageId,
    /// That storage's size in bytes (0 while deferred).
    pub bytes: u64,
    /// Not held: inside a checkpoint, recomputed when backward needs it.
    #[serde(default)]
    pub deferred: bool,
    /// Its dtype as `torch.` names it (`float32`); empty in older traces.
    #[serde(default)]
    pub dtype: Name,
    /// Its strides in elements, as `stride()` gives them (empty when
    /// deferred or in older traces).
    #[serde(default)]
    pub strides: Vec<i64>,
    /// Its offset into the storage in elements, `storage_offset()`.
    #[serde(default)]
    pub offset: u64,
    /// The storage's version counter when it was saved (`_version`), the
    /// one backward checks.
    #[serde(default)]
    pub version: u64,
}

/// A tensor that a statement which raised reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaisedInput {
    /// Its name in the program.
    pub name: String,
    /// Its handle.
    pub tensor: TensorId,
    /// The node that made it, `None` for a leaf.
    pub node: Option<NodeId>,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its dtype (`torch.float32`).
    pub dtype: String,
}

/// What the engine did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// A storage was allocated on a device.
    StorageAllocated {
        /// The allocation.
        storage: StorageId,
        /// Its size in bytes.
        bytes: u64,
        /// The device's type (`cpu`, `webgpu`).
        device: Name,
        /// What it is for, when allocated (usually `Other`).
        category: Category,
    },
    /// A storage's bytes moved to another category (a tensor was saved for
    /// backward, a saved tensor was released, a `.grad` was set or cleared).
    StorageRecategorised {
        /// The allocation.
        storage: StorageId,
        /// Its category now.
        category: Category,
    },
    /// A GPU's caching allocator now holds `bytes` from the device: its
    /// reserve, at least the bytes of live tensors there (PyTorch's
    /// `memory_reserved`, beside the ledger's allocated bytes). Emitted
    /// when it changes.
    DeviceReserved {
        /// The device's type, as `StorageAllocated` names it (`webgpu`).
        device: String,
        /// Bytes reserved.
        bytes: u64,
    },
    /// A storage's last handle went away.
    StorageFreed {
        /// The allocation.
        storage: StorageId,
    },
    /// A differentiable op ran forward.
    OpCalled {
        /// PyTorch's name for it (`add`, `mul`, `mean`).
        op: Name,
        /// The result's shape.
        shape: Vec<usize>,
    },
    /// A graph node was created: an op node or a leaf's `AccumulateGrad`.
    NodeCreated {
        /// The node.
        node: NodeId,
        /// PyTorch's class name (`MulBackward0`, `AccumulateGrad`).
        name: Name,
        /// Its sequence number; backward runs higher numbers first.
        sequence_nr: u64,
        /// `next_functions`: one entry per input, `None` where the input needs no gradient.
        next: Vec<Option<NodeId>>,
        /// What it keeps for backward.
        saved: Vec<SavedInfo>,
        /// For `AccumulateGrad`, the leaf it accumulates into.
        leaf: Option<TensorId>,
    },
    /// `backward()` began at a root node.
    BackwardBegan {
        /// The root's node.
        root: NodeId,
        /// Whether the saved tensors stay for another backward.
        retain_graph: bool,
    },
    /// A node's backward ran.
    NodeExecuted {
        /// The node.
        node: NodeId,
    },
    /// A node's saved tensors were released after it ran.
    SavedReleased {
        /// The node.
        node: NodeId,
    },
    /// A gradient was added into a leaf's `.grad`.
    GradAccumulated {
        /// The leaf.
        tensor: TensorId,
        /// Whether `.grad` already held a value (accumulation, not assignment).
        accumulated: bool,
    },
    /// `backward()` finished.
    BackwardEnded,
    /// A checkpointed function began running again for backward.
    RecomputeBegan {
        /// The checkpoint.
        checkpoint: u64,
    },
    /// The recomputation finished; its saved tensors are held until used.
    RecomputeEnded {
        /// The checkpoint.
        checkpoint: u64,
    },
    /// A gradient hook ran (`register_hook`, `retain_grad`) at a node.
    HookFired {
        /// The node whose incoming gradient the hook saw.
        node: NodeId,
    },
    /// A grad mode scope began (`no_grad`, `enable_grad`, `inference_mode`).
    GradModeEntered {
        /// The mode's PyTorch name.
        mode: String,
    },
    /// The innermost grad mode scope ended.
    GradModeExited {
        /// The mode's PyTorch name.
        mode: String,
    },
    /// A named range began (`torch.profiler.record_function(name)`): the
    /// lessons' phases.
    RangeBegan {
        /// The range's name.
        name: String,
    },
    /// The innermost named range ended.
    RangeEnded {
        /// The range's name.
        name: String,
    },
    /// An `nn.Module` call began: its forward pre-hooks, `forward` and
    /// forward hooks run inside it, and every node created until the
    /// matching [`EventKind::ModuleExited`] belongs to it.
    ModuleEntered {
        /// Its qualified name as `named_modules()` of the outermost module
        /// being called gives it: `""` for that module, then `fc1`,
        /// `layers.0`.
        name: String,
        /// Its class name (`Linear`, `Sequential`).
        class: String,
    },
    /// The innermost module call ended, returning or raising.
    ModuleExited,
    /// `backward()` or `autograd.grad` is about to start from this output
    /// (emitted just before [`EventKind::BackwardBegan`]).
    BackwardRoot {
        /// How many elements the output has.
        numel: u64,
        /// Its value when it has one element (the loss, usually).
        #[serde(with = "crate::float::option")]
        value: Option<f64>,
    },
    /// A leaf's `.grad` after a gradient was added into it (follows
    /// [`EventKind::GradAccumulated`]); lets claims compare gradients.
    GradValue {
        /// The leaf.
        tensor: TensorId,
        /// The leaf's shape.
        shape: Vec<usize>,
        /// The 2-norm of the whole `.grad`.
        #[serde(with = "crate::float::one")]
        norm: f64,
        /// Its first [`GRAD_VALUES_KEPT`] elements, row-major.
        #[serde(with = "crate::float::many")]
        values: Vec<f64>,
    },
    /// `autograd.grad` returned a gradient for one of its inputs (emitted
    /// just before [`EventKind::BackwardEnded`]); `.grad` is not touched.
    GradCaptured {
        /// The input's position in `inputs`.
        input: u64,
        /// The gradient's shape.
        shape: Vec<usize>,
        /// Its 2-norm.
        #[serde(with = "crate::float::one")]
        norm: f64,
        /// Its first [`GRAD_VALUES_KEPT`] elements, row-major.
        #[serde(with = "crate::float::many")]
        values: Vec<f64>,
    },
    /// An optimizer updated its parameters (`optimizer.step()`).
    OptimizerStep {
        /// PyTorch's class name (`SGD`, `Adam`).
        optimizer: String,
        /// How many parameters had a gradient and were updated.
        updated: u64,
    },
    /// An optimizer cleared its parameters' gradients (`zero_grad()`).
    ZeroGrad {
        /// Set to None (PyTorch's default) rather than zeroed in place.
        set_to_none: bool,
    },
    /// `clip_grad_norm_` scaled the gradients.
    GradClipped {
        /// The joint norm before clipping (what the call returns).
        #[serde(with = "crate::float::one")]
        total_norm: f64,
        /// The joint norm after clipping.
        #[serde(with = "crate::float::one")]
        clipped_norm: f64,
        /// The `max_norm` asked for.
        #[serde(with = "crate::float::one")]
        max_norm: f64,
    },
    /// A program read one element's value (`item()`): what it logs, such
    /// as an accuracy, as the engine computed it.
    ValueRead {
        /// The value.
        #[serde(with = "crate::float::one")]
        value: f64,
    },
    /// A statement of the learner's program bound a tensor to a name
    /// (`y = x + 2`, `self.h = ...`, an item of a list, a module's
    /// parameter): reported once per tensor and name, after the statement.
    TensorNamed {
        /// The tensor handle.
        tensor: TensorId,
        /// Its storage, which the memory view names after it.
        storage: StorageId,
        /// The node that made it (`grad_fn`), `None` for a leaf.
        node: Option<NodeId>,
        /// The name as the program spells it (`y`, `self.h`, `xs[0]`,
        /// `model.fc1.weight`).
        name: String,
        /// For a module's parameter, its `named_parameters()` name
        /// (`fc1.weight`, `0.bias`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parameter: Option<String>,
    },
    /// The program showed a figure (`plt.show()`): the console shows it
    /// from here on, so stepping back before it takes it away.
    FigureShown {
        /// Which of the run's figures, from 1, in the order shown.
        number: u64,
    },
    /// The lines of the learner's frames that called the running one
    /// (outermost first) changed; every event from here until the next
    /// such event was caused from under them. A module-level statement
    /// has none.
    CallersChanged {
        /// The calling lines, outermost first.
        lines: Vec<u32>,
    },
    /// A statement of the program raised an exception that ended it: the
    /// operation that failed, as the graph draws it.
    Raised {
        /// The exception type's name (`RuntimeError`).
        type_name: String,
        /// `str(exception)`.
        message: String,
        /// The statement's source text (`z = x @ w`).
        source: String,
        /// The tensors that statement reads, in the order it names them.
        inputs: Vec<RaisedInput>,
        /// Whether the statement runs backward (`loss.backward()`,
        /// `torch.autograd.grad`): the failure belongs to the graph of its
        /// first input, not to a new operation.
        #[serde(default)]
        backward: bool,
    },
}
