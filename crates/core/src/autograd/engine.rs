//! The backward engine: runs ready nodes highest sequence number first, as
//! PyTorch's engine does on one thread, summing gradients per node, firing
//! hooks, and releasing each node's saved tensors once it ran. It serves
//! both `backward()` (accumulate into leaves' `.grad`) and `autograd.grad`
//! (capture the gradients of chosen inputs, running only what leads there).

use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::rc::Rc;

use gradscope_trace::{EventKind, NodeId};

use super::derivatives::{self, BackwardInputs};
use super::{CopySlices, Node, NodeKind, views};
use crate::error::{Error, Result};
use crate::grad_mode::{GradModeGuard, is_anomaly_enabled};
use crate::tensor::Tensor;
use crate::trace;

/// A node waiting to run, ordered by PyTorch's rule.
struct Ready(Rc<Node>);

impl PartialEq for Ready {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}
impl Eq for Ready {}
impl PartialOrd for Ready {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ready {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.0.sequence_nr, self.0.id).cmp(&(other.0.sequence_nr, other.0.id))
    }
}

/// Where gradients go.
pub(crate) enum Sink<'a> {
    /// Into every reached leaf's `.grad` (`backward()`).
    Accumulate,
    /// Returned for these nodes' incoming gradients (`autograd.grad`).
    Capture(&'a [Rc<Node>]),
}

/// The node a gradient for `t` enters the graph at, and `t`'s default
/// gradient; errors as PyTorch's for tensors outside any graph.
pub(crate) fn root_of(t: &Tensor, gradient: Option<&Tensor>) -> Result<(Rc<Node>, Tensor)> {
    let node = match t.grad_fn() {
        Some(node) => node,
        None if t.requires_grad() => t.grad_accumulator(),
        None => return Err(Error::NoGradFn),
    };
    let grad = match gradient {
        Some(g) => g.clone(),
        None if t.numel() == 1 => t.full_like(1.0),
        None => return Err(Error::NonScalarBackward),
    };
    trace::emit(|| EventKind::BackwardRoot {
        numel: t.numel() as u64,
        // Not `item()`: that reports a ValueRead, and emitting from inside
        // an emission would re-enter the recorder.
        value: (t.numel() == 1)
            .then(|| t.to_vec::<f64>().first().copied())
            .flatten(),
    });
    Ok((node, grad))
}

/// Runs backward from `roots`; returns the captured gradients (one per
/// capture node, `None` where none arrived) or nothing when accumulating.
pub(crate) fn run(
    roots: Vec<(Rc<Node>, Tensor)>,
    sink: Sink<'_>,
    retain_graph: bool,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    let Some(first) = roots.first() else {
        return Ok(vec![]);
    };
    let (root, _) = first;
    trace::emit(|| EventKind::BackwardBegan {
        root: root.id,
        retain_graph,
    });
    let result = walk(roots, &sink, retain_graph, create_graph);
    if let (Sink::Capture(_), Ok(grads)) = (&sink, &result) {
        for (input, grad) in grads.iter().enumerate() {
            if let Some(grad) = grad {
                trace::emit(|| {
                    let (shape, norm, values) = summary(grad);
                    EventKind::GradCaptured {
                        input: input as u64,
                        shape,
                        norm,
                        values,
                    }
                });
            }
        }
    }
    trace::emit(|| EventKind::BackwardEnded);
    result
}

fn walk(
    roots: Vec<(Rc<Node>, Tensor)>,
    sink: &Sink<'_>,
    retain_graph: bool,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    let (mut remaining, order) = count_dependencies(roots.iter().map(|r| &r.0));
    let capture: &[Rc<Node>] = match sink {
        Sink::Accumulate => &[],
        Sink::Capture(nodes) => nodes,
    };
    let needed = match sink {
        Sink::Accumulate => None,
        Sink::Capture(nodes) => Some(leading_to(&order, nodes)),
    };
    let mut captured: Vec<Option<Tensor>> = vec![None; capture.len()];
    let mut buffers: BTreeMap<NodeId, Tensor> = BTreeMap::new();
    let mut ready = BinaryHeap::new();
    for (node, grad) in roots {
        add_into(&mut buffers, node.id, grad, create_graph)?;
        if remaining.get(&node.id).copied().unwrap_or(0) == 0
            && !ready.iter().any(|r: &Ready| r.0.id == node.id)
        {
            ready.push(Ready(node));
        }
    }
    while let Some(Ready(node)) = ready.pop() {
        let grad = match buffers.remove(&node.id) {
            Some(grad) => Some(node.run_pre_hooks(grad)?),
            None => None,
        };
        for (slot, target) in captured.iter_mut().zip(capture) {
            if target.id == node.id {
                *slot = grad.clone();
            }
        }
        let runs = needed.as_ref().is_none_or(|set| set.contains(&node.id));
        let outputs = match (&grad, runs) {
            (Some(grad), true) => run_node(&node, grad, sink, retain_graph, create_graph)?,
            _ => vec![],
        };
        // The rest of the node's turn (its saved tensors released, its
        // gradients passed on, its own dropped) runs no Python: its
        // events share one clock read.
        let _same_time = trace::same_time();
        if runs && grad.is_some() {
            ran(&node, retain_graph);
        }
        let mut outputs = outputs.into_iter();
        for next in &node.next {
            let out = outputs.next().flatten();
            let Some(next) = next else { continue };
            if let Some(out) = out {
                add_into(&mut buffers, next.id, out, create_graph)?;
            }
            if let Some(count) = remaining.get_mut(&next.id) {
                *count -= 1;
                if *count == 0 {
                    ready.push(Ready(next.clone()));
                }
            }
        }
        // Before the guard goes, so their storages' frees share its time.
        drop((outputs, grad, node));
    }
    Ok(captured)
}

/// Reports that `node`'s backward ran, and releases what it saved unless
/// the graph is kept.
fn ran(node: &Node, retain_graph: bool) {
    let id = node.id;
    trace::emit(|| EventKind::NodeExecuted { node: id });
    if !retain_graph && !matches!(node.kind, NodeKind::AccumulateGrad(_)) {
        node.release_saved();
    }
}

/// Sums a gradient into a node's input buffer.
fn add_into(
    buffers: &mut BTreeMap<NodeId, Tensor>,
    id: NodeId,
    grad: Tensor,
    create_graph: bool,
) -> Result<()> {
    let sum = match buffers.remove(&id) {
        Some(acc) => {
            let _mode = GradModeGuard::internal(create_graph);
            acc.add(&grad)?
        }
        None => grad,
    };
    buffers.insert(id, sum);
    Ok(())
}

/// How many edges point at each node reachable from `roots`, and the
/// reachable nodes in discovery order; an explicit stack, so deep graphs
/// cannot overflow the call stack.
fn count_dependencies<'a>(
    roots: impl Iterator<Item = &'a Rc<Node>>,
) -> (BTreeMap<NodeId, usize>, Vec<Rc<Node>>) {
    let mut counts = BTreeMap::new();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<Rc<Node>> = roots.filter(|r| seen.insert(r.id)).cloned().collect();
    let mut order = stack.clone();
    while let Some(node) = stack.pop() {
        for next in node.next.iter().flatten() {
            *counts.entry(next.id).or_insert(0) += 1;
            if seen.insert(next.id) {
                stack.push(next.clone());
                order.push(next.clone());
            }
        }
    }
    (counts, order)
}

/// The nodes with a path to a capture node: only they need to run for
/// `autograd.grad`. Sweeps to a fixed point over the reachable nodes, which
/// needs no recursion.
fn leading_to(order: &[Rc<Node>], capture: &[Rc<Node>]) -> BTreeSet<NodeId> {
    let targets: BTreeSet<NodeId> = capture.iter().map(|n| n.id).collect();
    let mut needed = BTreeSet::new();
    // Higher sequence numbers come first in a graph, so sweeping from low to
    // high usually settles in one pass; AccumulateGrad nodes never lead on.
    let mut nodes: Vec<&Rc<Node>> = order.iter().collect();
    nodes.sort_by_key(|n| (n.sequence_nr, n.id));
    loop {
        let mut changed = false;
        for node in &nodes {
            if needed.contains(&node.id) {
                continue;
            }
            let leads = node
                .next
                .iter()
                .flatten()
                .any(|n| targets.contains(&n.id) || needed.contains(&n.id));
            if leads {
                needed.insert(node.id);
                changed = true;
            }
        }
        if !changed {
            return needed;
        }
    }
}

/// Runs one node's backward and returns one gradient per `next` edge.
fn run_node(
    node: &Rc<Node>,
    grad: &Tensor,
    sink: &Sink<'_>,
    retain_graph: bool,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    // Whatever a formula makes lands on the gradient's device.
    let _on = crate::device::Scope::new(grad.device());
    let outputs = match &node.kind {
        NodeKind::AccumulateGrad(leaf) => {
            if let Sink::Accumulate = sink {
                accumulate(leaf, grad, create_graph)?;
            }
            vec![]
        }
        NodeKind::Op(_) | NodeKind::Inplace(_) => formula_backward(node, grad, create_graph)?,
        NodeKind::CopySlices(c) => copy_slices(c, grad, retain_graph, create_graph)?,
        NodeKind::Zeros(_) => vec![Some(grad.full_like(0.0))],
        NodeKind::AsStrided(chain) => {
            let _mode = GradModeGuard::internal(create_graph);
            vec![Some(views::place(chain, grad)?)]
        }
        NodeKind::Custom(function) => {
            let saved: Vec<Tensor> = node.unpack_saved()?.into_iter().map(|(_, t)| t).collect();
            let _mode = GradModeGuard::internal(create_graph);
            to_input_meta(node, function.run(&saved, grad, node.next.len())?)?
        }
    };
    if is_anomaly_enabled()
        && let Some(index) = outputs.iter().position(|g| g.as_ref().is_some_and(has_nan))
    {
        return Err(Error::AnomalyNan {
            node: node.name().into(),
            index,
            line: node.created_at,
        });
    }
    Ok(outputs)
}

/// An op node's backward formula: one gradient per `next` edge (none for
/// a node without a formula).
fn formula_backward(
    node: &Rc<Node>,
    grad: &Tensor,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    let saved = node.unpack_saved()?;
    let mut needs_grad = vec![false; node.input_shapes.len()];
    for (&i, edge) in node.edge_inputs.iter().zip(&node.next) {
        needs_grad[i] = edge.is_some();
    }
    let _mode = GradModeGuard::internal(create_graph);
    let inputs = BackwardInputs {
        grad,
        saved: &saved,
        input_shapes: &node.input_shapes,
        needs_grad: &needs_grad,
    };
    let grads = match &node.kind {
        NodeKind::Op(op) => derivatives::backward(op, &inputs)?,
        NodeKind::Inplace(op) => derivatives::inplace_backward(op, &inputs)?,
        NodeKind::AccumulateGrad(_)
        | NodeKind::Custom(_)
        | NodeKind::CopySlices(_)
        | NodeKind::AsStrided(_)
        | NodeKind::Zeros(_) => vec![],
    };
    to_input_meta(node, grads)
}

/// PyTorch's `CopySlices::apply`: the base's gradient keeps its value
/// outside the view; inside it, the in-place op's backward runs on the
/// view's part and its gradient for the view takes that place.
fn copy_slices(
    c: &CopySlices,
    grad: &Tensor,
    retain_graph: bool,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    let region = {
        let _mode = GradModeGuard::internal(false);
        let ones = Tensor::full_dtype(&c.view_shape, 1.0, grad.dtype());
        views::place(&c.chain, &ones)?.ne(&Tensor::scalar(0.0))?
    };
    let _mode = GradModeGuard::internal(create_graph);
    let slice = views::replay(&c.chain, grad)?;
    let zero = Tensor::scalar(0.0);
    let inner = c.inner.as_ref();
    match inner.map(|n| (n, &n.kind)) {
        Some((node, NodeKind::Op(_) | NodeKind::Inplace(_))) if c.wrapped => {
            let mut grads = formula_backward(node, &slice, create_graph)?;
            if !retain_graph {
                node.release_saved();
            }
            let for_view = grads.first_mut().and_then(Option::take);
            let inside = match for_view {
                Some(g) => views::place(&c.chain, &g)?,
                None => zero,
            };
            let mut out = vec![Some(inside.where_cond(&region, grad)?)];
            out.extend(grads.into_iter().skip(1));
            Ok(out)
        }
        _ => {
            let mut out = vec![Some(zero.where_cond(&region, grad)?)];
            if inner.is_some() {
                out.push(Some(slice));
            }
            Ok(out)
        }
    }
}

/// One gradient per `next` edge, from one per input: as PyTorch's
/// validate_outputs, each takes its input's shape (summing broadcast
/// dimensions) and dtype.
fn to_input_meta(node: &Node, mut grads: Vec<Option<Tensor>>) -> Result<Vec<Option<Tensor>>> {
    node.edge_inputs
        .iter()
        .map(|&i| {
            let g = grads.get_mut(i).and_then(Option::take);
            let (shape, dtype) = (&node.input_shapes[i], node.input_dtypes[i]);
            g.map(|g| g.sum_to_size(shape)?.to_dtype(dtype)).transpose()
        })
        .collect()
}

fn has_nan(t: &Tensor) -> bool {
    t.dtype().is_float() && t.to_vec::<f64>().iter().any(|v| v.is_nan())
}

/// A gradient as the trace reports it: shape, 2-norm over every element,
/// and the first elements. Read only while recording.
fn summary(t: &Tensor) -> (Vec<usize>, f64, Vec<f64>) {
    let mut values = t.to_vec::<f64>();
    let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
    values.truncate(gradscope_trace::event::GRAD_VALUES_KEPT);
    (t.shape().to_vec(), norm, values)
}

/// The leaf's `.grad` as the trace reports it, read only while recording.
fn grad_value(tensor: gradscope_trace::TensorId, leaf: &Tensor) -> EventKind {
    let (shape, norm, values) = match leaf.grad() {
        Some(g) => summary(&g),
        None => (leaf.shape().to_vec(), 0.0, vec![]),
    };
    EventKind::GradValue {
        tensor,
        shape,
        norm,
        values,
    }
}

/// Adds `grad` into `leaf.grad`: assigned the first time, summed after, as
/// PyTorch does when `zero_grad` is forgotten.
fn accumulate(leaf: &Tensor, grad: &Tensor, create_graph: bool) -> Result<()> {
    let previous = leaf.grad();
    let accumulated = previous.is_some();
    let new = match previous {
        None if create_graph => grad.clone(),
        // PyTorch steals a dense gradient and copies any other (an expanded
        // view must not become `.grad`).
        None => grad.dense_detached(),
        Some(old) => {
            let _mode = GradModeGuard::internal(create_graph);
            old.add(grad)?
        }
    };
    leaf.set_grad(Some(new));
    let tensor = leaf.id();
    trace::emit(|| EventKind::GradAccumulated {
        tensor,
        accumulated,
    });
    trace::emit(|| grad_value(tensor, leaf));
    Ok(())
}
