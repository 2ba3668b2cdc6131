//! Neural-network functions with PyTorch's own nodes: `layer_norm`, `batch_norm`, `conv2d`, `max_pool2d`, `dropout`, losses.

use super::{OpInfo, SavedSlot};
use crate::error::Result;
use crate::tensor::Tensor;

/// An op of this family (none yet).
#[derive(Clone, Debug, PartialEq)]
pub enum NnOp {}

impl OpInfo for NnOp {
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

impl NnOp {
    pub(crate) fn forward(&self, _inputs: &[&Tensor]) -> Result<Tensor> {
        match *self {}
    }
}
