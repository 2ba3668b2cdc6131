//! Backward of elementwise selection.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::SelectOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &SelectOp, _b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    match *op {}
}
