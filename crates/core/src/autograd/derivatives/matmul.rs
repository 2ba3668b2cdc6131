//! Backward of matrix products, as PyTorch's `derivatives.yaml`: each
//! operand's gradient is a product of the incoming gradient with the other
//! operand transposed (a view, never a copy).

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::MatmulOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &MatmulOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    Ok(match op {
        // self: grad.mm(mat2.t()); mat2: self.t().mm(grad)
        MatmulOp::Mm => vec![
            b.when(0, || grad.mm(&b.input(1)?.t()?))?,
            b.when(1, || b.input(0)?.t()?.mm(grad))?,
        ],
        // self: grad.bmm(mat2.transpose(1, 2)); mat2: self.transpose(1, 2).bmm(grad)
        MatmulOp::Bmm => vec![
            b.when(0, || grad.bmm(&b.input(1)?.transpose(1, 2)?))?,
            b.when(1, || b.input(0)?.transpose(1, 2)?.bmm(grad))?,
        ],
        // self: grad * tensor; tensor: grad * self
        MatmulOp::Dot => vec![
            b.when(0, || grad.mul(b.input(1)?))?,
            b.when(1, || grad.mul(b.input(0)?))?,
        ],
        // self: grad.ger(vec); vec: self.t().mv(grad)
        MatmulOp::Mv => vec![
            b.when(0, || grad.unsqueeze(1)?.mul(b.input(1)?))?,
            b.when(1, || b.input(0)?.t()?.mv(grad))?,
        ],
        // self: grad.unsqueeze(dim)
        MatmulOp::SqueezeInplace(dim) => vec![b.when(0, || {
            if b.shape(0).get(*dim) == Some(&1) {
                grad.unsqueeze(*dim as i64)
            } else {
                Ok(grad.clone())
            }
        })?],
    })
}
