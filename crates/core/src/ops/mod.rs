//! Every differentiable op, by family: each family file holds its op enum,
//! the op's metadata (PyTorch's node name, arity, what it saves), its forward
//! on the CPU and the `Tensor` methods that call it. Backward formulas live
//! in [`crate::autograd::derivatives`], one file per family.

pub mod arith;
pub mod compare;
pub mod factory;
pub mod index;
pub mod index_methods;
pub mod inplace;
pub mod int_division;
pub mod join;
pub mod matmul;
pub mod nn;
pub mod nn_conv;
pub mod nn_linear;
pub mod nn_loss;
pub mod nn_norm;
pub mod nn_pool;
pub mod random;
pub mod reduce;
pub mod reduce_api;
pub mod select;
pub mod softmax;
pub mod unary;
pub mod view;
pub mod view_index;
pub mod view_methods;
pub mod view_shape;

use std::rc::Rc;

use gradscope_trace::EventKind;

pub use arith::ArithOp;
pub use index::IndexOp;
pub use join::JoinOp;
pub use matmul::MatmulOp;
pub use nn::NnOp;
pub use reduce::ReduceOp;
pub use select::SelectOp;
pub use softmax::SoftmaxOp;
pub use unary::UnaryOp;
pub use view::ViewOp;

use crate::autograd;
use crate::cpu::CpuBuffer;
use crate::error::Result;
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::Tensor;
use crate::trace;

/// A differentiable op as the graph records it, with any attributes its
/// backward needs.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Binary arithmetic with broadcasting and type promotion.
    Arith(ArithOp),
    /// Elementwise maths on one tensor.
    Unary(UnaryOp),
    /// Reductions.
    Reduce(ReduceOp),
    /// Views: new layouts over the same storage.
    View(ViewOp),
    /// `where`, `maximum`, `minimum`.
    Select(SelectOp),
    /// Indexing and gathering.
    Index(IndexOp),
    /// `cat`, `stack`.
    Join(JoinOp),
    /// Matrix products.
    Matmul(MatmulOp),
    /// Neural-network functions.
    Nn(NnOp),
    /// `softmax`, `log_softmax`.
    Softmax(SoftmaxOp),
}

/// What a node keeps for backward: an input, or the op's own result (as
/// `exp` does), which PyTorch saves without its `grad_fn` to avoid a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SavedSlot {
    /// Input number `i`.
    Input(usize),
    /// The op's result.
    Output,
}

/// The metadata every op family provides, in one place per op.
pub trait OpInfo {
    /// PyTorch's name for the node backward runs (`MulBackward0`).
    fn node_name(&self) -> &'static str;
    /// PyTorch's name for the forward op (`mul`), as the trace reports it.
    fn name(&self) -> &'static str;
    /// How many tensor inputs it takes.
    fn arity(&self) -> usize;
    /// What its backward reads, given which inputs need a gradient: as in
    /// PyTorch's `derivatives.yaml`, only what a formula that will run mentions.
    fn saved(&self, needs_grad: &[bool]) -> Vec<SavedSlot>;
    /// Whether input `i` can carry a gradient at all. Index tensors and
    /// conditions cannot: PyTorch gives them no `next_functions` entry.
    fn is_differentiable_input(&self, _i: usize) -> bool {
        true
    }
}

impl Op {
    fn info(&self) -> &dyn OpInfo {
        match self {
            Op::Arith(op) => op,
            Op::Unary(op) => op,
            Op::Reduce(op) => op,
            Op::View(op) => op,
            Op::Select(op) => op,
            Op::Index(op) => op,
            Op::Join(op) => op,
            Op::Matmul(op) => op,
            Op::Nn(op) => op,
            Op::Softmax(op) => op,
        }
    }

    /// PyTorch's node name.
    pub fn node_name(&self) -> &'static str {
        self.info().node_name()
    }

    /// PyTorch's op name.
    pub fn name(&self) -> &'static str {
        self.info().name()
    }

    /// Number of tensor inputs.
    pub fn arity(&self) -> usize {
        self.info().arity()
    }

    /// What backward reads.
    pub fn saved(&self, needs_grad: &[bool]) -> Vec<SavedSlot> {
        self.info().saved(needs_grad)
    }

    /// Whether input `i` gets a `next_functions` edge.
    pub fn is_differentiable_input(&self, i: usize) -> bool {
        self.info().is_differentiable_input(i)
    }

    fn forward(&self, inputs: &[&Tensor]) -> Result<Tensor> {
        match self {
            Op::Arith(op) => op.forward(inputs),
            Op::Unary(op) => op.forward(inputs),
            Op::Reduce(op) => op.forward(inputs),
            Op::View(op) => op.forward(inputs),
            Op::Select(op) => op.forward(inputs),
            Op::Index(op) => op.forward(inputs),
            Op::Join(op) => op.forward(inputs),
            Op::Matmul(op) => op.forward(inputs),
            Op::Nn(op) => op.forward(inputs),
            Op::Softmax(op) => op.forward(inputs),
        }
    }
}

/// PyTorch's names for saved inputs, by position.
pub(crate) fn saved_name(slot: SavedSlot) -> &'static str {
    match slot {
        SavedSlot::Input(0) => "self",
        SavedSlot::Input(1) => "other",
        SavedSlot::Input(_) => "input",
        SavedSlot::Output => "result",
    }
}

/// A new contiguous tensor over a freshly computed buffer.
pub(crate) fn new_tensor(buffer: CpuBuffer, shape: &[usize]) -> Tensor {
    Tensor::from_parts(Rc::new(Storage::new(buffer)), Layout::contiguous(shape))
}

/// The inputs as exactly `N` tensors, or an internal error naming the op.
pub(crate) fn inputs<'a, const N: usize>(
    op: &dyn OpInfo,
    inputs: &[&'a Tensor],
) -> Result<[&'a Tensor; N]> {
    inputs.try_into().map_err(|_| {
        crate::Error::Backend(format!("internal error: {} takes {} inputs", op.name(), N))
    })
}

/// Runs `op` forward and, when grad mode is on and an input needs a
/// gradient, records its node: the one path every op takes.
pub(crate) fn apply(op: Op, inputs: &[&Tensor]) -> Result<Tensor> {
    // The output's allocation, the op and its node: one clock read.
    let _same_time = trace::same_time();
    // Index tensors may stay on the CPU, as PyTorch allows for CUDA.
    let device = crate::device::common(
        inputs
            .iter()
            .enumerate()
            .filter(|(i, t)| op.is_differentiable_input(*i) && !nn::is_absent(t))
            .map(|(_, t)| *t),
    )?;
    let _scope = crate::device::Scope::new(device);
    let output = if device == crate::Device::Cpu {
        op.forward(inputs)
    } else {
        let kernels = crate::device::kernel_stats().kernels;
        let output = op.forward(inputs);
        // A view shares an input's storage: nothing was computed anywhere.
        let computed = output.as_ref().is_ok_and(|out| {
            !inputs
                .iter()
                .any(|t| Rc::ptr_eq(t.storage(), out.storage()))
        });
        if computed && crate::device::kernel_stats().kernels == kernels {
            crate::device::count_fallback(op.name());
        }
        output
    };
    crate::device::check_device_error()?;
    if device != crate::Device::Cpu {
        crate::device::note_reserved();
    }
    let output = output?;
    // With float64 as the default dtype, an op of non-float64 inputs on the
    // GPU (`int_tensor / 2`) would make a float64 GPU tensor: refused, as
    // PyTorch's MPS refuses float64. An explicit cast keeps its own rule.
    let from_default = output.dtype() == crate::DType::Float64
        && !matches!(op, Op::Unary(UnaryOp::ToDtype { .. }))
        && inputs.iter().all(|t| t.dtype() != crate::DType::Float64);
    if device == crate::Device::WebGpu && from_default {
        return Err(crate::Error::GpuFloat64);
    }
    crate::ledger::check_out_of_memory()?;
    trace::emit(|| EventKind::OpCalled {
        op: op.name().into(),
        shape: output.shape().to_vec(),
    });
    autograd::record(op, inputs, &output)?;
    Ok(output)
}
