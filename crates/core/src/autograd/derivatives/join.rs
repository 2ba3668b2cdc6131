//! Backward of joining: each input's gradient is its slice of the joined
//! gradient; each split piece's gradient goes back into zeros.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::JoinOp;
use crate::tensor::Tensor;

pub(super) fn backward(op: &JoinOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    match op {
        // tensors: cat_tensors_backward (each input's slice of grad)
        JoinOp::Cat { dim, count } => {
            let mut offset = 0i64;
            (0..*count)
                .map(|i| {
                    let shape = b.shape(i);
                    if shape == [0] {
                        // PyTorch's legacy empty input gets an empty gradient.
                        return b.when(i, || Ok(Tensor::full_dtype(&[0], 0.0, grad.dtype())));
                    }
                    let size = shape.get(*dim).copied().unwrap_or(0) as i64;
                    offset += size;
                    b.when(i, || grad.narrow(*dim as i64, offset - size, size))
                })
                .collect()
        }
        // tensors: unbind(grad, dim)
        JoinOp::Stack { dim, count } => (0..*count)
            .map(|i| b.when(i, || grad.select(*dim as i64, i as i64)))
            .collect(),
        // self: split_backward (this piece's gradient in zeros)
        JoinOp::Split {
            dim, start, len, ..
        } => Ok(vec![b.when(0, || {
            grad.slice_backward(b.shape(0), *dim, *start, start + len, 1)
        })?]),
        // self: unbind_backward (this piece's gradient in zeros)
        JoinOp::Unbind { dim, index } => {
            Ok(vec![b.when(0, || {
                grad.select_backward(b.shape(0), *dim, *index)
            })?])
        }
    }
}
