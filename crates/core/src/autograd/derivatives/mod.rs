//! Every op's backward formula, as PyTorch's `derivatives.yaml`: one
//! exhaustive `match` per family (no `_` arm, so a new op without a formula
//! does not compile), each arm a few tensor ops. Because formulas are tensor
//! ops, under `create_graph=True` they record a graph of their own and double
//! backward needs nothing more.
//!
//! A formula returns the gradient for each input that needs one, in the
//! shape the op broadcast it to; the engine sums it back to the input's shape
//! (`sum_to_size`) once, for every op.

mod arith;
mod index;
mod inplace;
mod join;
mod matmul;
mod nn;
mod reduce;
mod select;
mod softmax;
mod unary;
mod view;

use crate::error::{Error, Result};
pub(crate) use inplace::backward as inplace_backward;

use crate::ops::{Op, SavedSlot};
use crate::tensor::Tensor;

/// What a formula reads: the incoming gradient, the unpacked saved tensors,
/// the inputs' shapes and which inputs need a gradient.
#[derive(Debug)]
pub(crate) struct BackwardInputs<'a> {
    pub grad: &'a Tensor,
    pub saved: &'a [(SavedSlot, Tensor)],
    pub input_shapes: &'a [Vec<usize>],
    pub needs_grad: &'a [bool],
}

impl BackwardInputs<'_> {
    /// A saved tensor; missing means the op's `saved` and its formula
    /// disagree, a bug this turns into an error, not a panic.
    pub fn saved(&self, slot: SavedSlot) -> Result<&Tensor> {
        self.saved
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, t)| t)
            .ok_or_else(|| {
                Error::Backend(format!(
                    "internal error: {slot:?} was not saved for backward"
                ))
            })
    }

    /// Saved input `i`.
    pub fn input(&self, i: usize) -> Result<&Tensor> {
        self.saved(SavedSlot::Input(i))
    }

    /// The saved result.
    pub fn result(&self) -> Result<&Tensor> {
        self.saved(SavedSlot::Output)
    }

    /// Input `i`'s shape.
    pub fn shape(&self, i: usize) -> &[usize] {
        self.input_shapes.get(i).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Runs `formula` only for an input that needs a gradient.
    pub fn when(
        &self,
        i: usize,
        formula: impl FnOnce() -> Result<Tensor>,
    ) -> Result<Option<Tensor>> {
        if self.needs_grad.get(i).copied().unwrap_or(false) {
            formula().map(Some)
        } else {
            Ok(None)
        }
    }
}

/// The gradients of `op`'s inputs, one per input.
pub(crate) fn backward(op: &Op, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    match op {
        Op::Arith(op) => arith::backward(op, b),
        Op::Unary(op) => unary::backward(op, b),
        Op::Reduce(op) => reduce::backward(op, b),
        Op::View(op) => view::backward(op, b),
        Op::Select(op) => select::backward(op, b),
        Op::Index(op) => index::backward(op, b),
        Op::Join(op) => join::backward(op, b),
        Op::Matmul(op) => matmul::backward(op, b),
        Op::Nn(op) => nn::backward(op, b),
        Op::Softmax(op) => softmax::backward(op, b),
    }
}
