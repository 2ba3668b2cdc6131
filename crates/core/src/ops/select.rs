//! Elementwise selection: `where`, `maximum`, `minimum` (ties split the gradient, as PyTorch).

use super::{OpInfo, SavedSlot};
use crate::error::Result;
use crate::tensor::Tensor;

/// An op of this family (none yet).
#[derive(Clone, Debug, PartialEq)]
pub enum SelectOp {}

impl OpInfo for SelectOp {
    fn node_name(&self) -> &'static str {
        match *self {}
    }

    fn name(&self) -> &'static str {
        match *self {}
    }

    fn arity(&self) -> usize {
        match *self {}
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        match *self {}
    }
}

impl SelectOp {
    pub(crate) fn forward(&self, _inputs: &[&Tensor]) -> Result<Tensor> {
        match *self {}
    }
}
