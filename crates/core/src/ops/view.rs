//! Views: ops whose result shares the input's storage under a new layout.

use super::{Op, OpInfo, SavedSlot, apply, inputs};
use crate::error::Result;
use crate::tensor::Tensor;

/// A view op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewOp {
    /// `expand(shape)`: size-1 dimensions repeated through stride 0.
    Expand(Vec<usize>),
}

impl OpInfo for ViewOp {
    fn node_name(&self) -> &'static str {
        match self {
            ViewOp::Expand(_) => "ExpandBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            ViewOp::Expand(_) => "expand",
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        match self {
            ViewOp::Expand(_) => vec![],
        }
    }
}

impl ViewOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        let layout = match self {
            ViewOp::Expand(shape) => x.layout().broadcast_to(shape)?,
        };
        Ok(Tensor::from_parts(x.storage().clone(), layout))
    }
}

impl Tensor {
    /// A stride-0 view repeating size-1 dimensions, PyTorch's `expand`.
    pub fn expand(&self, shape: &[usize]) -> Result<Tensor> {
        apply(Op::View(ViewOp::Expand(shape.to_vec())), &[self])
    }
}
