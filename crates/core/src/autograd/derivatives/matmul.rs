//! Backward of matrix products.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::MatmulOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &MatmulOp, _b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    match *op {}
}
