//! Every differentiable op: its metadata in one place ([`Op`]), its forward
//! here, its backward in [`crate::autograd::derivatives`].

mod forward;

use crate::BinaryOp;
use crate::autograd;
use crate::error::Result;
use crate::tensor::Tensor;

pub(crate) use forward::forward;

/// A differentiable op as the graph records it, with any attributes its
/// backward needs.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Elementwise `add`, `sub`, `mul`, `div` with broadcasting.
    Binary(BinaryOp),
    /// `neg`.
    Neg,
    /// `sum()` over all elements.
    Sum,
    /// `mean()` over all elements.
    Mean,
    /// `sum_to_size(shape)`.
    SumToSize(Vec<usize>),
    /// `expand(shape)`, a view.
    Expand(Vec<usize>),
}

/// Which input slots an op keeps for backward; PyTorch's names for them.
pub(crate) const SAVED_NAMES: [&str; 2] = ["self", "other"];

impl Op {
    /// PyTorch's name for the node backward runs (`MulBackward0`).
    pub fn node_name(&self) -> &'static str {
        match self {
            Op::Binary(BinaryOp::Add) => "AddBackward0",
            Op::Binary(BinaryOp::Sub) => "SubBackward0",
            Op::Binary(BinaryOp::Mul) => "MulBackward0",
            Op::Binary(BinaryOp::Div) => "DivBackward0",
            Op::Neg => "NegBackward0",
            Op::Sum => "SumBackward0",
            Op::Mean => "MeanBackward0",
            Op::SumToSize(_) => "SumBackward1",
            Op::Expand(_) => "ExpandBackward0",
        }
    }

    /// PyTorch's name for the forward op (`mul`), as the trace reports it.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Binary(BinaryOp::Add) => "add",
            Op::Binary(BinaryOp::Sub) => "sub",
            Op::Binary(BinaryOp::Mul) => "mul",
            Op::Binary(BinaryOp::Div) => "div",
            Op::Neg => "neg",
            Op::Sum => "sum",
            Op::Mean => "mean",
            Op::SumToSize(_) => "sum_to_size",
            Op::Expand(_) => "expand",
        }
    }

    /// How many tensor inputs it takes.
    pub fn arity(&self) -> usize {
        match self {
            Op::Binary(_) => 2,
            Op::Neg | Op::Sum | Op::Mean | Op::SumToSize(_) | Op::Expand(_) => 1,
        }
    }

    /// The input slots its backward reads, given which inputs need a
    /// gradient: as in PyTorch's `derivatives.yaml`, an input is saved only
    /// when a formula that will run mentions it.
    pub(crate) fn saved_inputs(&self, needs_grad: &[bool]) -> Vec<usize> {
        let needs = |i: usize| needs_grad.get(i).copied().unwrap_or(false);
        match self {
            // self: grad * other; other: grad * self
            Op::Binary(BinaryOp::Mul) => [(0, needs(1)), (1, needs(0))]
                .iter()
                .filter(|s| s.1)
                .map(|s| s.0)
                .collect(),
            // self: grad / other; other: -grad * self / other^2
            Op::Binary(BinaryOp::Div) => [(0, needs(1)), (1, true)]
                .iter()
                .filter(|s| s.1)
                .map(|s| s.0)
                .collect(),
            Op::Binary(BinaryOp::Add | BinaryOp::Sub)
            | Op::Neg
            | Op::Sum
            | Op::Mean
            | Op::SumToSize(_)
            | Op::Expand(_) => vec![],
        }
    }
}

/// Runs `op` forward and, when grad mode is on and an input needs a
/// gradient, records its node: the one path every op takes.
pub(crate) fn apply(op: Op, inputs: &[&Tensor]) -> Result<Tensor> {
    debug_assert_eq!(inputs.len(), op.arity());
    let output = forward(&op, inputs)?;
    autograd::record(op, inputs, &output);
    Ok(output)
}
