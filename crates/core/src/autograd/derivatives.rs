//! Every op's backward formula, in one exhaustive `match`, as PyTorch's
//! `derivatives.yaml`: formulas are written as tensor ops, so under
//! `create_graph=True` they record a graph of their own and double backward
//! needs nothing more.
//!
//! A formula returns the gradient for each input that needs one, in the
//! shape the op broadcast it to; the engine sums it back to the input's
//! shape (`sum_to_size`) for every op at once.

use crate::BinaryOp;
use crate::error::{Error, Result};
use crate::ops::Op;
use crate::tensor::Tensor;

/// What backward needs from a node: the incoming gradient, the saved input
/// slots and the inputs' shapes.
#[derive(Debug)]
pub(crate) struct BackwardInputs<'a> {
    pub grad: &'a Tensor,
    pub saved: &'a [Option<Tensor>],
    pub input_shapes: &'a [Vec<usize>],
    pub needs_grad: &'a [bool],
}

impl BackwardInputs<'_> {
    /// A saved input slot; missing means the op's `saved_inputs` and its
    /// formula disagree, a bug this turns into an error, not a panic.
    fn saved(&self, slot: usize) -> Result<&Tensor> {
        self.saved
            .get(slot)
            .and_then(Option::as_ref)
            .ok_or_else(|| {
                Error::Backend(format!("internal error: saved slot {slot} was not saved"))
            })
    }

    fn shape(&self, slot: usize) -> &[usize] {
        self.input_shapes
            .get(slot)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Runs `formula` only for an input that needs a gradient.
    fn when(
        &self,
        slot: usize,
        formula: impl FnOnce() -> Result<Tensor>,
    ) -> Result<Option<Tensor>> {
        if self.needs_grad.get(slot).copied().unwrap_or(false) {
            formula().map(Some)
        } else {
            Ok(None)
        }
    }
}

/// The gradients of `op`'s inputs, one per input slot.
pub(crate) fn backward(op: &Op, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match op {
        Op::Binary(BinaryOp::Add) => {
            vec![
                b.when(0, || Ok(grad.clone()))?,
                b.when(1, || Ok(grad.clone()))?,
            ]
        }
        Op::Binary(BinaryOp::Sub) => {
            vec![b.when(0, || Ok(grad.clone()))?, b.when(1, || grad.neg())?]
        }
        Op::Binary(BinaryOp::Mul) => vec![
            b.when(0, || grad.mul(b.saved(1)?))?,
            b.when(1, || grad.mul(b.saved(0)?))?,
        ],
        Op::Binary(BinaryOp::Div) => vec![
            b.when(0, || grad.div(b.saved(1)?))?,
            b.when(1, || div_other_backward(grad, b.saved(0)?, b.saved(1)?))?,
        ],
        Op::Neg => vec![b.when(0, || grad.neg())?],
        Op::Sum | Op::SumToSize(_) => vec![b.when(0, || grad.expand(b.shape(0)))?],
        Op::Mean => vec![b.when(0, || {
            let numel: usize = b.shape(0).iter().product();
            grad.expand(b.shape(0))?.div(&Tensor::scalar(numel as f32))
        })?],
        Op::Expand(_) => vec![b.when(0, || grad.sum_to_size(b.shape(0)))?],
    })
}

/// `other: -grad * self / (other * other)`
fn div_other_backward(grad: &Tensor, this: &Tensor, other: &Tensor) -> Result<Tensor> {
    grad.neg()?.mul(this)?.div(&other.mul(other)?)
}
