//! The autograd graph: nodes with `next_functions` edges, recorded as ops
//! run, and the engine that walks them backwards.

pub mod checkpoint;
pub mod derivatives;
mod engine;
pub mod function;
mod grad;
pub mod gradcheck;
pub(crate) mod hooks;
mod saved;

pub use grad::grad;
pub use hooks::{Hook, HookHandle};

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gradscope_trace::{EventKind, NodeId, SavedInfo};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::grad_mode::is_grad_enabled;
use crate::ops::{Op, SavedSlot};
use crate::tensor::Tensor;
use crate::trace;
use saved::SavedTensor;

thread_local! {
    static NEXT_NODE_ID: Cell<NodeId> = const { Cell::new(1) };
    // PyTorch numbers op nodes per thread in creation order; backward runs
    // the highest number first.
    static NEXT_SEQUENCE_NR: Cell<u64> = const { Cell::new(0) };
}

fn take_next(counter: &'static std::thread::LocalKey<Cell<u64>>) -> u64 {
    counter.with(|c| {
        let v = c.get();
        c.set(v + 1);
        v
    })
}

/// What a node does when backward reaches it.
#[derive(Debug)]
pub(crate) enum NodeKind {
    /// The backward of a recorded op.
    Op(Op),
    /// Adds the incoming gradient into a leaf's `.grad`.
    AccumulateGrad(Tensor),
    /// A user-defined `autograd.Function`'s backward.
    Custom(function::CustomBackward),
}

/// One node of the autograd graph, PyTorch's `torch.autograd.graph.Node`.
#[derive(Debug)]
pub struct Node {
    id: NodeId,
    sequence_nr: u64,
    pub(crate) kind: NodeKind,
    next: Vec<Option<Rc<Node>>>,
    /// The input each `next` edge belongs to (inputs that cannot carry a
    /// gradient, such as index tensors, have no edge).
    edge_inputs: Vec<usize>,
    /// What backward reads; `None` once released.
    saved: RefCell<Option<Vec<SavedTensor>>>,
    input_shapes: Vec<Vec<usize>>,
    input_dtypes: Vec<DType>,
    /// Hooks on the gradient of the tensor this node produced.
    pre_hooks: hooks::Hooks,
    /// The program line whose op created it, for anomaly mode's report.
    created_at: Option<u32>,
}

impl Node {
    pub(crate) fn accumulate_grad(leaf: Tensor) -> Rc<Node> {
        let node = Rc::new(Node {
            id: take_next(&NEXT_NODE_ID),
            // PyTorch gives AccumulateGrad UINT64_MAX so it runs as soon as ready.
            sequence_nr: u64::MAX,
            input_shapes: vec![leaf.shape().to_vec()],
            input_dtypes: vec![leaf.dtype()],
            pre_hooks: hooks::Hooks::default(),
            created_at: None,
            kind: NodeKind::AccumulateGrad(leaf),
            next: vec![],
            edge_inputs: vec![],
            saved: RefCell::new(Some(vec![])),
        });
        node.emit_created();
        node
    }

    /// The saved tensors as backward reads them (see [`SavedTensor::unpack`]).
    pub(crate) fn unpack_saved(self: &Rc<Self>) -> Result<Vec<(SavedSlot, Tensor)>> {
        let saved = self.saved.borrow();
        let saved = saved.as_ref().ok_or(Error::SavedTensorsFreed)?;
        saved
            .iter()
            .map(|s| Ok((s.slot(), s.unpack(self)?)))
            .collect()
    }

    /// PyTorch's `name()`: `MulBackward0`, `AccumulateGrad`.
    pub fn name(&self) -> &str {
        match &self.kind {
            NodeKind::Op(op) => op.node_name(),
            NodeKind::AccumulateGrad(_) => "AccumulateGrad",
            NodeKind::Custom(f) => &f.name,
        }
    }

    /// This node's id in the trace.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// PyTorch's `_sequence_nr()`.
    pub fn sequence_nr(&self) -> u64 {
        self.sequence_nr
    }

    /// PyTorch's `next_functions`, without the input numbers.
    pub fn next_functions(&self) -> &[Option<Rc<Node>>] {
        &self.next
    }

    /// For `AccumulateGrad`, PyTorch's `variable`: the leaf it feeds.
    pub fn variable(&self) -> Option<&Tensor> {
        match &self.kind {
            NodeKind::AccumulateGrad(t) => Some(t),
            NodeKind::Op(_) | NodeKind::Custom(_) => None,
        }
    }

    fn emit_created(&self) {
        trace::emit(|| EventKind::NodeCreated {
            node: self.id,
            name: self.name().into(),
            sequence_nr: self.sequence_nr,
            next: self.next.iter().map(|n| n.as_ref().map(|n| n.id)).collect(),
            saved: self.saved_info(),
            leaf: self.variable().map(Tensor::id),
        });
    }

    fn saved_info(&self) -> Vec<SavedInfo> {
        self.saved
            .borrow()
            .iter()
            .flatten()
            .map(SavedTensor::info)
            .collect()
    }

    /// Drops what backward would have read; a later backward through this
    /// node is an error.
    fn release_saved(&self) {
        self.saved.borrow_mut().take();
        let node = self.id;
        trace::emit(|| EventKind::SavedReleased { node });
    }
}

impl Drop for Node {
    // Dropping a long chain recursively would overflow the stack; unlink it
    // with an explicit work list instead, as PyTorch's deleter does.
    fn drop(&mut self) {
        let mut stack: Vec<Rc<Node>> = std::mem::take(&mut self.next)
            .into_iter()
            .flatten()
            .collect();
        stack.extend(take_grad_fns(self.saved.get_mut().take()));
        while let Some(node) = stack.pop() {
            if let Ok(mut node) = Rc::try_unwrap(node) {
                stack.extend(std::mem::take(&mut node.next).into_iter().flatten());
                stack.extend(take_grad_fns(node.saved.get_mut().take()));
            }
        }
    }
}

impl Node {
    /// Before an in-place op overwrites `storage`, makes this node keep a
    /// copy of any value it saved from there.
    pub(crate) fn snapshot_saved(&self, storage: &Rc<crate::storage::Storage>) {
        for s in self.saved.borrow_mut().iter_mut().flatten() {
            s.snapshot_if_reads(storage);
        }
    }
}

/// The `grad_fn`s of saved tensors this node holds the last handle to.
fn take_grad_fns(saved: Option<Vec<SavedTensor>>) -> Vec<Rc<Node>> {
    saved
        .into_iter()
        .flatten()
        .filter_map(|s| s.take_grad_fn())
        .collect()
}

/// The edge a gradient for `input` flows along, if it needs one.
fn edge_to(input: &Tensor) -> Option<Rc<Node>> {
    match input.grad_fn() {
        Some(node) => Some(node),
        None if input.requires_grad() => Some(input.grad_accumulator()),
        None => None,
    }
}

/// Records `op`'s node on `output` when grad mode is on and some input
/// needs a gradient.
pub(crate) fn record(op: Op, inputs: &[&Tensor], output: &Tensor) -> Result<()> {
    if !is_grad_enabled() {
        return Ok(());
    }
    let edge_inputs: Vec<usize> = (0..inputs.len())
        .filter(|&i| op.is_differentiable_input(i))
        .collect();
    let next: Vec<Option<Rc<Node>>> = edge_inputs.iter().map(|&i| edge_to(inputs[i])).collect();
    if next.iter().all(Option::is_none) {
        return Ok(());
    }
    let mut needs = vec![false; inputs.len()];
    for (&i, edge) in edge_inputs.iter().zip(&next) {
        needs[i] = edge.is_some();
    }
    let slots = op.saved(&needs).into_iter().filter_map(|slot| match slot {
        SavedSlot::Input(i) => inputs.get(i).map(|t| (slot, (*t).clone())),
        SavedSlot::Output => Some((slot, output.detach())),
    });
    let saved = save_all(slots)?;
    attach(NodeKind::Op(op), inputs, (edge_inputs, next), saved, output);
    Ok(())
}

/// Saves tensors for a new node, refusing inference tensors as PyTorch does.
fn save_all(slots: impl Iterator<Item = (SavedSlot, Tensor)>) -> Result<Vec<SavedTensor>> {
    slots
        .map(|(slot, tensor)| {
            if tensor.is_inference() {
                return Err(Error::InferenceSaved);
            }
            Ok(SavedTensor::new(slot, tensor))
        })
        .collect()
}

/// Creates a node of `kind` over `inputs` and makes it `output`'s `grad_fn`.
fn attach(
    kind: NodeKind,
    inputs: &[&Tensor],
    (edge_inputs, next): (Vec<usize>, Vec<Option<Rc<Node>>>),
    saved: Vec<SavedTensor>,
    output: &Tensor,
) {
    let node = Rc::new(Node {
        id: take_next(&NEXT_NODE_ID),
        sequence_nr: take_next(&NEXT_SEQUENCE_NR),
        kind,
        next,
        edge_inputs,
        saved: RefCell::new(Some(saved)),
        input_shapes: inputs.iter().map(|t| t.shape().to_vec()).collect(),
        input_dtypes: inputs.iter().map(|t| t.dtype()).collect(),
        pre_hooks: hooks::Hooks::default(),
        created_at: trace::current_line(),
    });
    node.emit_created();
    output.0.requires_grad.set(true);
    *output.0.grad_fn.borrow_mut() = Some(node);
}

/// PyTorch's `tensor.backward(gradient, retain_graph, create_graph)`.
pub(crate) fn backward(
    root: &Tensor,
    gradient: Option<&Tensor>,
    retain_graph: bool,
    create_graph: bool,
) -> Result<()> {
    let root = engine::root_of(root, gradient)?;
    engine::run(
        vec![root],
        engine::Sink::Accumulate,
        retain_graph,
        create_graph,
    )?;
    Ok(())
}
