//! Backward of views: each gradient is the inverse view, or the view's
//! gradient placed back into zeros of the input's shape.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::ViewOp;
use crate::ops::view_shape::signed;
use crate::tensor::Tensor;

pub(super) fn backward(op: &ViewOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    // An in-place view's gradient is its out-of-place form's.
    if let ViewOp::Inplace(op) = op {
        return backward(op, b);
    }
    let grad = b.grad;
    let shape = b.shape(0);
    let formula = || -> Result<Tensor> {
        match op {
            ViewOp::Expand(_) => grad.sum_to_size(shape),
            // self: grad.reshape(self.sizes()), for every view that only reshapes
            ViewOp::View(_)
            | ViewOp::ReshapeAlias(_)
            | ViewOp::UnsafeView(_)
            | ViewOp::SqueezeAll
            | ViewOp::SqueezeDim(_)
            | ViewOp::SqueezeDims(_) => grad.reshape(&signed(shape)),
            ViewOp::Alias | ViewOp::Clone | ViewOp::Contiguous => Ok(grad.clone()),
            ViewOp::Transpose(a, c) => grad.transpose(*a as i64, *c as i64),
            ViewOp::T => grad.t(),
            ViewOp::Permute(order) => {
                let mut inverse = vec![0i64; order.len()];
                for (i, &d) in order.iter().enumerate() {
                    inverse[d] = i as i64;
                }
                grad.permute(&inverse)
            }
            ViewOp::Unsqueeze(d) => grad.squeeze_dim(*d as i64),
            ViewOp::Slice {
                dim,
                start,
                end,
                step,
            } => grad.slice_backward(shape, *dim, *start, *end, *step),
            ViewOp::Select { dim, index } => grad.select_backward(shape, *dim, *index),
            // grad_output: grad.slice(dim, start, end, step)
            ViewOp::SliceBackward {
                dim,
                start,
                end,
                step,
                ..
            } => grad.slice(
                *dim as i64,
                Some(*start as i64),
                Some(*end as i64),
                *step as i64,
            ),
            // grad_output: grad.select(dim, index)
            ViewOp::SelectBackward { dim, index, .. } => grad.select(*dim as i64, *index as i64),
            ViewOp::Diagonal { offset, dim1, dim2 } => {
                grad.diagonal_backward(shape, *offset, *dim1, *dim2)
            }
            // grad_output: grad.diagonal(offset, dim1, dim2)
            ViewOp::DiagonalBackward {
                offset, dim1, dim2, ..
            } => grad.diagonal(*offset, *dim1 as i64, *dim2 as i64),
            // Unwrapped above: an in-place view never wraps another.
            ViewOp::Inplace(_) => Err(crate::Error::Backend(
                "internal error: nested in-place view".into(),
            )),
        }
    };
    Ok(vec![b.when(0, formula)?])
}
