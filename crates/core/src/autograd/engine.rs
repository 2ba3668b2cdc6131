//! The backward engine: runs ready nodes highest sequence number first, as
//! PyTorch's engine does on one thread, accumulating gradients per input and
//! releasing each node's saved tensors once it ran.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::rc::Rc;

use gradscope_trace::{EventKind, NodeId};

use super::derivatives::{self, BackwardInputs};
use super::{Node, NodeKind};
use crate::error::{Error, Result};
use crate::grad_mode::GradModeGuard;
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

/// PyTorch's `tensor.backward(gradient, retain_graph, create_graph)`.
pub(crate) fn backward(
    root: &Tensor,
    gradient: Option<&Tensor>,
    retain_graph: bool,
    create_graph: bool,
) -> Result<()> {
    let root_node = match root.grad_fn() {
        Some(node) => node,
        None if root.requires_grad() => root.grad_accumulator(),
        None => return Err(Error::NoGradFn),
    };
    let root_grad = match gradient {
        Some(g) => g.clone(),
        None if root.numel() == 1 => Tensor::ones(root.shape()),
        None => return Err(Error::NonScalarBackward),
    };
    trace::emit(|| EventKind::BackwardBegan {
        root: root_node.id,
        retain_graph,
    });
    let dependencies = count_dependencies(&root_node);
    let mut remaining = dependencies;
    let mut buffers: BTreeMap<NodeId, Vec<Option<Tensor>>> = BTreeMap::new();
    buffers.insert(root_node.id, vec![Some(root_grad)]);
    let mut ready = BinaryHeap::from([Ready(root_node)]);
    let result = (|| {
        while let Some(Ready(node)) = ready.pop() {
            let inputs = buffers.remove(&node.id).unwrap_or_default();
            let grad = inputs.into_iter().next().flatten();
            let Some(grad) = grad else { continue };
            let outputs = run_node(&node, &grad, retain_graph, create_graph)?;
            for (next, out) in node.next.iter().zip(outputs) {
                let (Some(next), Some(out)) = (next, out) else {
                    continue;
                };
                let slot = buffers.entry(next.id).or_insert_with(|| vec![None]);
                slot[0] = Some(match slot[0].take() {
                    Some(acc) => {
                        let _mode = GradModeGuard::set(create_graph);
                        acc.add(&out)?
                    }
                    None => out,
                });
                if let Some(count) = remaining.get_mut(&next.id) {
                    *count -= 1;
                    if *count == 0 {
                        ready.push(Ready(next.clone()));
                    }
                }
            }
        }
        Ok(())
    })();
    trace::emit(|| EventKind::BackwardEnded);
    result
}

/// How many edges point at each node reachable from `root`, found with an
/// explicit stack so deep graphs cannot overflow the call stack.
fn count_dependencies(root: &Rc<Node>) -> BTreeMap<NodeId, usize> {
    let mut counts = BTreeMap::new();
    let mut seen = BTreeSet::from([root.id]);
    let mut stack = vec![root.clone()];
    while let Some(node) = stack.pop() {
        for next in node.next.iter().flatten() {
            *counts.entry(next.id).or_insert(0) += 1;
            if seen.insert(next.id) {
                stack.push(next.clone());
            }
        }
    }
    counts
}

/// Runs one node's backward and returns one gradient per `next` edge.
fn run_node(
    node: &Rc<Node>,
    grad: &Tensor,
    retain_graph: bool,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    let outputs = match &node.kind {
        NodeKind::AccumulateGrad(leaf) => {
            accumulate(leaf, grad, create_graph)?;
            vec![]
        }
        NodeKind::Op(op) => {
            let saved = node.unpack_saved()?;
            let needs_grad: Vec<bool> = node.next.iter().map(Option::is_some).collect();
            let _mode = GradModeGuard::set(create_graph);
            let inputs = BackwardInputs {
                grad,
                saved: &saved,
                input_shapes: &node.input_shapes,
                needs_grad: &needs_grad,
            };
            let grads = derivatives::backward(op, &inputs)?;
            // As PyTorch's validate_outputs: each gradient takes its input's
            // shape (summing broadcast dimensions) and dtype.
            let meta = node.input_shapes.iter().zip(&node.input_dtypes);
            grads
                .into_iter()
                .zip(meta)
                .map(|(g, (shape, dtype))| {
                    g.map(|g| g.sum_to_size(shape)?.to_dtype(*dtype))
                        .transpose()
                })
                .collect::<Result<Vec<_>>>()?
        }
    };
    let id = node.id;
    trace::emit(|| EventKind::NodeExecuted { node: id });
    if !retain_graph && matches!(node.kind, NodeKind::Op(_)) {
        node.release_saved();
    }
    Ok(outputs)
}

/// Adds `grad` into `leaf.grad`: assigned the first time, summed after, as
/// PyTorch does when `zero_grad` is forgotten.
fn accumulate(leaf: &Tensor, grad: &Tensor, create_graph: bool) -> Result<()> {
    let previous = leaf.grad();
    let accumulated = previous.is_some();
    let new = match previous {
        None if create_graph => grad.clone(),
        None => grad.detach(),
        Some(old) => {
            let _mode = GradModeGuard::set(create_graph);
            old.add(grad)?
        }
    };
    leaf.set_grad(Some(new));
    let tensor = leaf.id();
    trace::emit(|| EventKind::GradAccumulated {
        tensor,
        accumulated,
    });
    Ok(())
}
