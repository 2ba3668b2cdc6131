//! Custom autograd functions, PyTorch's `torch.autograd.Function`: a forward
//! run without recording, and a user backward that the engine calls like any
//! other node (named `<Name>Backward`, as PyTorch names them).

use std::rc::Rc;

use super::saved::SavedTensor;
use super::{NodeKind, attach, edge_to, save_all};
use crate::error::{Error, Result};
use crate::grad_mode::{GradModeGuard, is_grad_enabled};
use crate::ops::SavedSlot;
use crate::tensor::Tensor;

/// What `forward` tells autograd, PyTorch's `ctx`.
#[derive(Debug, Default)]
pub struct FunctionCtx {
    saved: Vec<Tensor>,
    /// What the trace calls each saved tensor, where not `self`, `other`...
    saved_names: Vec<Option<&'static str>>,
    /// PyTorch's `ctx.needs_input_grad`.
    pub needs_input_grad: Vec<bool>,
    non_differentiable: bool,
}

impl FunctionCtx {
    /// PyTorch's `ctx.save_for_backward(*tensors)`.
    pub fn save_for_backward(&mut self, tensors: &[Tensor]) {
        self.saved = tensors.to_vec();
    }

    /// Names the saved tensors in the trace, in order, as PyTorch's node
    /// for the same op names them (`mask`, `indices`).
    pub fn name_saved(&mut self, names: &[&'static str]) {
        self.saved_names = names.iter().copied().map(Some).collect();
    }

    /// PyTorch's `ctx.mark_non_differentiable(output)`: the output gets no
    /// `grad_fn` (gradscope's functions have one output).
    pub fn mark_non_differentiable(&mut self) {
        self.non_differentiable = true;
    }
}

/// A user backward: the saved tensors and the output's gradient in, one
/// gradient (or `None`) per input out.
pub type BackwardFn = Rc<dyn Fn(&[Tensor], &Tensor) -> Result<Vec<Option<Tensor>>>>;

/// A custom node's name and backward.
#[derive(Clone)]
pub struct CustomBackward {
    pub(crate) name: String,
    backward: BackwardFn,
}

impl std::fmt::Debug for CustomBackward {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name)
    }
}

impl CustomBackward {
    /// Runs the user's backward and checks it returned one gradient per input.
    pub(crate) fn run(
        &self,
        saved: &[Tensor],
        grad: &Tensor,
        inputs: usize,
    ) -> Result<Vec<Option<Tensor>>> {
        let grads = (self.backward)(saved, grad)?;
        if grads.len() != inputs {
            return Err(Error::FunctionGradCount {
                name: self.name.clone(),
                expected: inputs,
                got: grads.len(),
            });
        }
        Ok(grads)
    }
}

/// PyTorch's `MyFunction.apply(*inputs)` for a function named `name`:
/// runs `forward` without recording, then (when grad mode is on and an input
/// needs a gradient) gives its output a `<name>Backward` node.
pub fn apply_function(
    name: &str,
    inputs: &[Tensor],
    forward: impl FnOnce(&mut FunctionCtx, &[Tensor]) -> Result<Tensor>,
    backward: BackwardFn,
) -> Result<Tensor> {
    apply_node(&format!("{name}Backward"), inputs, forward, backward)
}

/// As [`apply_function`], with the node named `node` itself: the Python
/// runtime's composites record the one node PyTorch's op would
/// (`CumsumBackward0`), with PyTorch's formula as its backward.
pub fn apply_node(
    node: &str,
    inputs: &[Tensor],
    forward: impl FnOnce(&mut FunctionCtx, &[Tensor]) -> Result<Tensor>,
    backward: BackwardFn,
) -> Result<Tensor> {
    let next: Vec<_> = inputs.iter().map(edge_to).collect();
    let mut ctx = FunctionCtx {
        needs_input_grad: next.iter().map(Option::is_some).collect(),
        ..Default::default()
    };
    let output = {
        let _no_grad = GradModeGuard::internal(false);
        forward(&mut ctx, inputs)?
    };
    if !is_grad_enabled() || ctx.non_differentiable || next.iter().all(Option::is_none) {
        return Ok(output);
    }
    // A returned input would otherwise get this node as its grad_fn.
    let output = if inputs.iter().any(|t| Rc::ptr_eq(&t.0, &output.0)) {
        output.detach()
    } else {
        output
    };
    let names = ctx.saved_names;
    let saved: Vec<SavedTensor> = save_all(
        ctx.saved
            .into_iter()
            .enumerate()
            .map(|(i, t)| (SavedSlot::Input(i), t)),
    )?
    .into_iter()
    .enumerate()
    .map(|(i, s)| s.named(names.get(i).copied().flatten()))
    .collect();
    let kind = NodeKind::Custom(CustomBackward {
        name: node.to_string(),
        backward,
    });
    let refs: Vec<&Tensor> = inputs.iter().collect();
    attach(
        kind,
        &refs,
        ((0..inputs.len()).collect(), next),
        saved,
        &output,
    );
    Ok(output)
}
