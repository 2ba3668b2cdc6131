//! Backward of joining.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::JoinOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &JoinOp, _b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    match *op {}
}
