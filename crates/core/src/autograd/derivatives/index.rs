//! Backward of indexing.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::IndexOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &IndexOp, _b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    match *op {}
}
