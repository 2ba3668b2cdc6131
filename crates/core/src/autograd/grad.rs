//! `torch.autograd.grad`: gradients of outputs with respect to chosen inputs,
//! returned instead of accumulated into `.grad`.

use super::engine::{self, Sink};
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// PyTorch's `torch.autograd.grad(outputs, inputs, grad_outputs,
/// retain_graph, create_graph, allow_unused)`; `retain_graph` defaults to
/// `create_graph`. Entries are `None` only for unused inputs with
/// `allow_unused`.
///
/// ```
/// use gradscope_core::{Tensor, autograd::grad};
/// let x = Tensor::from_vec(vec![3.0f32], &[1])?.requires_grad_(true);
/// let y = x.mul(&x)?.sum()?;
/// let [dx] = &grad(&[y], &[x.clone()], None, None, false, false)?[..] else { unreachable!() };
/// assert_eq!(dx.as_ref().map(|g| g.to_vec::<f32>()), Some(vec![6.0]));
/// assert!(x.grad().is_none());
/// # Ok::<(), gradscope_core::Error>(())
/// ```
pub fn grad(
    outputs: &[Tensor],
    inputs: &[Tensor],
    grad_outputs: Option<&[Option<Tensor>]>,
    retain_graph: Option<bool>,
    create_graph: bool,
    allow_unused: bool,
) -> Result<Vec<Option<Tensor>>> {
    let roots = outputs
        .iter()
        .enumerate()
        .map(|(i, out)| {
            let given = grad_outputs.and_then(|g| g.get(i)).and_then(Option::as_ref);
            engine::root_of(out, given)
        })
        .collect::<Result<Vec<_>>>()?;
    let capture = inputs
        .iter()
        .map(|t| match t.grad_fn() {
            Some(node) => Ok(node),
            None if t.requires_grad() => Ok(t.grad_accumulator()),
            None => Err(Error::GradInputNoGrad),
        })
        .collect::<Result<Vec<_>>>()?;
    let retain = retain_graph.unwrap_or(create_graph);
    let grads = engine::run(roots, Sink::Capture(&capture), retain, create_graph)?;
    if !allow_unused && let Some(index) = grads.iter().position(Option::is_none) {
        return Err(Error::GradInputUnused { index });
    }
    Ok(grads)
}
