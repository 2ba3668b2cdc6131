//! Joining: `cat`, `stack`, and the views `split`/`chunk` produce.

use super::{OpInfo, SavedSlot};
use crate::error::Result;
use crate::tensor::Tensor;

/// An op of this family (none yet).
#[derive(Clone, Debug, PartialEq)]
pub enum JoinOp {}

impl OpInfo for JoinOp {
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

impl JoinOp {
    pub(crate) fn forward(&self, _inputs: &[&Tensor]) -> Result<Tensor> {
        match *self {}
    }
}
