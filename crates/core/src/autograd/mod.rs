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
pub(crate) mod views;

pub use grad::grad;
pub use hooks::{Hook, HookHandle};
pub(crate) use saved::forward_name;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gradscope_trace::{EventKind, NodeId, SavedInfo};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::grad_mode::is_grad_enabled;
use crate::ops::inplace::InplaceOp;
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
    /// The backward of an in-place op PyTorch names on its own
    /// (`LeakyReluBackward1`, `CopyBackwards`).
    Inplace(InplaceOp),
    /// Adds the incoming gradient into a leaf's `.grad`.
    AccumulateGrad(Tensor),
    /// A user-defined `autograd.Function`'s backward.
    Custom(function::CustomBackward),
    /// PyTorch's `CopySlices`: the `grad_fn` a base gets when one of its
    /// views is modified in place.
    CopySlices(CopySlices),
    /// PyTorch's `AsStridedBackward0` as a view's regenerated `grad_fn`
    /// after its base's history changed: the gradient placed back into the
    /// base's shape by the steps that make the view.
    AsStrided(Vec<views::Step>),
    /// The node of an in-place op whose result does not depend on the old
    /// value (`zero_`'s `ZeroBackward0`, `fill_`'s `FillBackward2`): zeros
    /// for its one edge.
    Zeros(&'static str),
}

/// What a `CopySlices` node needs: the view's place in the base and the
/// in-place op's node.
#[derive(Debug)]
pub(crate) struct CopySlices {
    /// The steps from the base to the modified view.
    chain: Vec<views::Step>,
    /// The view's shape.
    view_shape: Vec<usize>,
    /// The in-place op's node, run on the view's part of the gradient.
    /// `wrapped`: its edges other than the view's are this node's own
    /// (PyTorch's layout). Otherwise the node is this node's second edge
    /// and receives the view's part of the gradient, which routes the same
    /// gradients through a graph an in-place op built of several nodes.
    inner: Option<Rc<Node>>,
    wrapped: bool,
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

    /// PyTorch's `_saved_*` attributes: what this node saved, by slot, as
    /// backward would read it; PyTorch's error once backward released it.
    pub fn saved_tensors(self: &Rc<Self>) -> Result<Vec<(crate::ops::SavedSlot, Tensor)>> {
        self.unpack_saved()
    }

    /// PyTorch's `name()`: `MulBackward0`, `AccumulateGrad`.
    pub fn name(&self) -> &str {
        match self.class_name() {
            Ok(name) => name,
            Err(name) => name,
        }
    }

    /// [`Node::name`]: `Ok` for the engine's own nodes, whose names are
    /// fixed, `Err` for a custom `Function`'s.
    fn class_name(&self) -> std::result::Result<&'static str, &str> {
        match &self.kind {
            NodeKind::Op(op) => Ok(op.node_name()),
            NodeKind::Inplace(op) => Ok(op.node_name()),
            NodeKind::AccumulateGrad(_) => Ok("AccumulateGrad"),
            NodeKind::Custom(f) => Err(&f.name),
            // The C++ name is `torch::autograd::CopySlices`; as for
            // `AccumulateGrad`, the bindings' `name()` adds the namespace.
            NodeKind::CopySlices(_) => Ok("CopySlices"),
            NodeKind::AsStrided(_) => Ok("AsStridedBackward0"),
            NodeKind::Zeros(name) => Ok(name),
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
            NodeKind::Op(_)
            | NodeKind::Inplace(_)
            | NodeKind::Custom(_)
            | NodeKind::CopySlices(_)
            | NodeKind::AsStrided(_)
            | NodeKind::Zeros(_) => None,
        }
    }

    fn emit_created(&self) {
        trace::emit(|| EventKind::NodeCreated {
            node: self.id,
            name: match self.class_name() {
                Ok(name) => name.into(),
                Err(name) => name.to_owned().into(),
            },
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
    /// node is an error if it saved anything. As in PyTorch, only a freed
    /// saved tensor is: a node that saved none (a view's `SelectBackward0`,
    /// `SumBackward0`) can run again.
    fn release_saved(&self) {
        let mut saved = self.saved.borrow_mut();
        if saved.as_ref().is_some_and(|s| !s.is_empty()) {
            *saved = None;
        }
        drop(saved);
        let node = self.id;
        trace::emit(|| EventKind::SavedReleased { node });
    }
}

impl Drop for Node {
    // Dropping a long chain recursively would overflow the stack; unlink it
    // with an explicit work list instead, as PyTorch's deleter does.
    fn drop(&mut self) {
        let mut stack = self.take_children();
        while let Some(node) = stack.pop() {
            if let Ok(mut node) = Rc::try_unwrap(node) {
                stack.extend(node.take_children());
            }
        }
    }
}

impl Node {
    /// Every node this one holds: its edges, the `grad_fn`s of saved
    /// tensors it holds the last handle to, and a `CopySlices`' inner node
    /// (bases rebased in a loop chain through those).
    fn take_children(&mut self) -> Vec<Rc<Node>> {
        let mut children: Vec<Rc<Node>> = std::mem::take(&mut self.next)
            .into_iter()
            .flatten()
            .collect();
        children.extend(take_grad_fns(self.saved.get_mut().take()));
        if let NodeKind::CopySlices(c) = &mut self.kind {
            children.extend(c.inner.take());
        }
        children
    }
}

impl Node {
    /// Before an in-place op overwrites `storage`, makes this node and the
    /// other nodes the op made (numbered from `mark` on) keep a copy of any
    /// input they saved from there: PyTorch's `original_self` clone.
    pub(crate) fn snapshot_saved(
        self: &Rc<Self>,
        storage: &Rc<crate::storage::Storage>,
        mark: u64,
    ) {
        let mut stack = vec![self.clone()];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(node) = stack.pop() {
            if node.sequence_nr < mark
                || matches!(node.kind, NodeKind::AccumulateGrad(_))
                || !seen.insert(node.id)
            {
                continue;
            }
            for s in node.saved.borrow_mut().iter_mut().flatten() {
                s.snapshot_if_reads(storage);
            }
            stack.extend(node.next.iter().flatten().cloned());
        }
    }

    /// After an in-place op wrote its result into `t`, makes this node (the
    /// op's) save `t` itself where it saved its result, at `t`'s new
    /// version: a later write to `t` is then caught, as in PyTorch.
    pub(crate) fn resave_result(&self, t: &Tensor) {
        for s in self.saved.borrow_mut().iter_mut().flatten() {
            s.rebind_result(t);
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
        None if input.requires_grad() && !views::requires_grad_from_base(input) => {
            Some(input.grad_accumulator())
        }
        None => None,
    }
}

/// Records `op`'s node on `output` when grad mode is on and some input
/// needs a gradient.
pub(crate) fn record(op: Op, inputs: &[&Tensor], output: &Tensor) -> Result<()> {
    views::note(&op, inputs.first().copied(), output);
    if !is_grad_enabled() {
        return Ok(());
    }
    let edge_inputs: Vec<usize> = (0..inputs.len())
        .filter(|&i| op.is_differentiable_input(i))
        .collect();
    // PyTorch records a node whenever an input requires grad, even one
    // whose edges all lead nowhere (a view made under no_grad).
    if !edge_inputs.iter().any(|&i| inputs[i].requires_grad()) {
        return Ok(());
    }
    let next: Vec<Option<Rc<Node>>> = edge_inputs.iter().map(|&i| edge_to(inputs[i])).collect();
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

/// Records an in-place op's own node on `output` (the values it will write)
/// when grad mode is on and an input needs a gradient; `inputs[0]` is the
/// tensor written, whose old history becomes the first edge.
pub(crate) fn record_inplace(op: InplaceOp, inputs: &[&Tensor], output: &Tensor) -> Result<()> {
    if !is_grad_enabled() || !inputs.iter().any(|t| t.requires_grad()) {
        return Ok(());
    }
    let next: Vec<Option<Rc<Node>>> = inputs.iter().map(|t| edge_to(t)).collect();
    let slots = op.saved().into_iter().filter_map(|slot| match slot {
        SavedSlot::Input(i) => inputs.get(i).map(|t| (slot, (*t).clone())),
        SavedSlot::Output => Some((slot, output.detach())),
    });
    let saved = save_all(slots)?;
    let edge_inputs = (0..inputs.len()).collect();
    attach(
        NodeKind::Inplace(op),
        inputs,
        (edge_inputs, next),
        saved,
        output,
    );
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
    let meta = inputs
        .iter()
        .map(|t| (t.shape().to_vec(), t.dtype()))
        .collect();
    let node = new_node(kind, (edge_inputs, next), saved, meta);
    set_grad_fn(output, node);
}

/// A new node with the next sequence number, announced to the trace.
fn new_node(
    kind: NodeKind,
    (edge_inputs, next): (Vec<usize>, Vec<Option<Rc<Node>>>),
    saved: Vec<SavedTensor>,
    meta: Vec<(Vec<usize>, DType)>,
) -> Rc<Node> {
    let (input_shapes, input_dtypes) = meta.into_iter().unzip();
    let node = Rc::new(Node {
        id: take_next(&NEXT_NODE_ID),
        sequence_nr: take_next(&NEXT_SEQUENCE_NR),
        kind,
        next,
        edge_inputs,
        saved: RefCell::new(Some(saved)),
        input_shapes,
        input_dtypes,
        pre_hooks: hooks::Hooks::default(),
        created_at: trace::current_line(),
    });
    node.emit_created();
    node
}

/// Makes `node` the tensor's history (PyTorch's `set_gradient_edge`).
fn set_grad_fn(t: &Tensor, node: Rc<Node>) {
    t.0.requires_grad.set(true);
    *t.0.grad_fn.borrow_mut() = Some(node);
}

/// The sequence number the next op node will get: nodes numbered from a
/// mark on were made after it.
pub(crate) fn sequence_mark() -> u64 {
    NEXT_SEQUENCE_NR.with(Cell::get)
}

/// How an in-place op's node becomes history, PyTorch's `rebase_history`.
/// `node` is the op's node (`None` when its result carries no gradient, as
/// `fill_`'s), `mark` the [`sequence_mark`] taken before the op ran, `op`
/// the in-place op's name.
pub(crate) fn rebase_history(t: &Tensor, node: Option<Rc<Node>>, mark: u64, op: &str) {
    if let Some(view) = views::view_of(t) {
        let base = view.base;
        if node.is_none() && !base.requires_grad() {
            return;
        }
        let base_edge = edge_to(&base);
        let fresh = node.as_ref().filter(|n| n.sequence_nr >= mark);
        // PyTorch's layout when the op is one node reading the view as its
        // first input: the node runs inside CopySlices, whose edges are the
        // base's and the node's others.
        let wrapped = fresh.is_some_and(|n| {
            sequence_mark() == mark + 1
                && matches!(n.kind, NodeKind::Op(_) | NodeKind::Inplace(_))
                && n.edge_inputs.first() == Some(&0)
                && n.input_shapes.first().map(Vec::as_slice) == Some(t.shape())
                && match (n.next.first().and_then(Option::as_ref), t.grad_fn()) {
                    (Some(a), Some(b)) => Rc::ptr_eq(a, &b),
                    (None, None) => !t.requires_grad(),
                    _ => false,
                }
        });
        let mut next = vec![base_edge];
        let mut meta = vec![(base.shape().to_vec(), base.dtype())];
        if wrapped {
            if let Some(n) = &node {
                for (k, edge) in n.next.iter().enumerate().skip(1) {
                    next.push(edge.clone());
                    let i = n.edge_inputs.get(k).copied().unwrap_or(k);
                    meta.push((
                        n.input_shapes.get(i).cloned().unwrap_or_default(),
                        n.input_dtypes
                            .get(i)
                            .copied()
                            .unwrap_or(DType::DEFAULT_FLOAT),
                    ));
                }
            }
        } else if let Some(n) = &node {
            next.push(Some(n.clone()));
            meta.push((t.shape().to_vec(), t.dtype()));
        }
        let edge_inputs = (0..next.len()).collect();
        let kind = NodeKind::CopySlices(CopySlices {
            chain: view.chain,
            view_shape: t.shape().to_vec(),
            inner: node,
            wrapped,
        });
        let copy_slices = new_node(kind, (edge_inputs, next), vec![], meta);
        set_grad_fn(&base, copy_slices);
        regenerate_views(&base);
        return;
    }
    match node {
        Some(node) => {
            set_grad_fn(t, node);
            regenerate_views(t);
        }
        // The old value no longer reaches the result: PyTorch records a
        // node that gives it a zero gradient, and the tensor still requires
        // grad.
        None if t.requires_grad() => {
            let name = match op {
                "zero_" => "ZeroBackward0",
                "fill_" => "FillBackward2",
                // Other ops with a result that needs no gradient
                // (comparisons written in place): out of the graph.
                _ => {
                    *t.0.grad_fn.borrow_mut() = None;
                    t.0.requires_grad.set(false);
                    return;
                }
            };
            let node = new_node(
                NodeKind::Zeros(name),
                (vec![0], vec![edge_to(t)]),
                vec![],
                vec![(t.shape().to_vec(), t.dtype())],
            );
            set_grad_fn(t, node);
            regenerate_views(t);
        }
        None => {}
    }
}

/// After `base`'s history changed, each live view of it reads its gradient
/// through the new history: PyTorch regenerates a view's `grad_fn` as
/// `AsStridedBackward0` when the shared version counter moved.
fn regenerate_views(base: &Tensor) {
    let Some(base_fn) = base.grad_fn() else {
        return;
    };
    for (view, chain) in views::views_of(base) {
        let meta = vec![(base.shape().to_vec(), base.dtype())];
        let node = new_node(
            NodeKind::AsStrided(chain),
            (vec![0], vec![Some(base_fn.clone())]),
            vec![],
            meta,
        );
        set_grad_fn(&view, node);
    }
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
