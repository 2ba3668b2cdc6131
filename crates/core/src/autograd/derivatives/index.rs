//! Backward of indexing: what one op gathers, its backward scatters (and
//! the reverse), so each formula is another op of the family.

use super::BackwardInputs;
use crate::error::Result;
use crate::ops::IndexOp;
use crate::ops::SavedSlot;
use crate::tensor::Tensor;

pub(super) fn backward(op: &IndexOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    let zeros = |i: usize| Tensor::full_dtype(b.shape(i), 0.0, grad.dtype());
    let saved = |range: std::ops::Range<usize>| -> Result<Vec<Tensor>> {
        range
            .map(|i| b.saved(SavedSlot::Input(i)).cloned())
            .collect()
    };
    Ok(match op {
        // self: index_put(zeros_like(self), indices, grad, accumulate=true)
        IndexOp::Index { dims } => {
            let mut grads = vec![b.when(0, || {
                zeros(0).index_put_dims(dims, &saved(1..1 + dims.len())?, grad, true)
            })?];
            grads.extend(dims.iter().map(|_| None));
            grads
        }
        IndexOp::IndexPut { dims, accumulate } => {
            let indices = || saved(2..2 + dims.len());
            let mut grads = vec![
                // self: accumulate ? grad : grad.index_put(indices, 0)
                b.when(0, || match accumulate {
                    true => Ok(grad.clone()),
                    false => {
                        let zero = Tensor::full_dtype(&[], 0.0, grad.dtype());
                        grad.index_put_dims(dims, &indices()?, &zero, false)
                    }
                })?,
                // values: grad[indices], summed to the values' shape by the engine
                b.when(1, || grad.index_tensors(dims, &indices()?))?,
            ];
            grads.extend(dims.iter().map(|_| None));
            grads
        }
        // self: zeros.scatter_add(dim, index, grad)
        IndexOp::Gather { dim } => vec![
            b.when(0, || zeros(0).scatter_add(*dim as i64, b.input(1)?, grad))?,
            None,
        ],
        // self: grad; src: grad.gather(dim, index)
        IndexOp::ScatterAdd { dim } => vec![
            b.when(0, || Ok(grad.clone()))?,
            None,
            b.when(2, || grad.gather(*dim as i64, b.input(1)?))?,
        ],
        // self: grad.scatter(dim, index, 0); src: grad.gather(dim, index)
        IndexOp::Scatter { dim, value } => vec![
            b.when(0, || grad.scatter_value(*dim as i64, b.input(1)?, 0.0))?,
            None,
            match value {
                true => None,
                false => b.when(2, || grad.gather(*dim as i64, b.input(1)?))?,
            },
        ],
        // self: zeros.index_add(dim, index, grad)
        IndexOp::IndexSelect { dim } => vec![
            b.when(0, || zeros(0).index_add(*dim as i64, b.input(1)?, grad))?,
            None,
        ],
        // self: grad; source: grad.index_select(dim, index)
        IndexOp::IndexAdd { dim } => vec![
            b.when(0, || Ok(grad.clone()))?,
            None,
            b.when(2, || {
                let picked = grad.index_select(*dim as i64, b.input(1)?)?;
                match b.shape(2).is_empty() {
                    true => picked.reshape(&[]),
                    false => Ok(picked),
                }
            })?,
        ],
        // weight: embedding_dense_backward(grad, indices, num_weights, padding_idx)
        IndexOp::Embedding { padding_idx } => vec![
            b.when(0, || {
                embedding_backward(grad, b.input(1)?, b.shape(0), *padding_idx)
            })?,
            None,
        ],
    })
}

/// Each looked-up row's gradient added into zeros of the weight's shape,
/// except rows looked up as `padding_idx`.
fn embedding_backward(
    grad: &Tensor,
    indices: &Tensor,
    weight_shape: &[usize],
    padding_idx: Option<usize>,
) -> Result<Tensor> {
    let width = weight_shape.get(1).copied().unwrap_or(0) as i64;
    let flat = indices.reshape(&[-1])?;
    let rows = grad.reshape(&[-1, width])?;
    let rows = match padding_idx {
        None => rows,
        Some(p) => {
            // A constant mask: the padding row's gradient is zero, not differentiated.
            let keep: Vec<f64> = flat
                .to_vec::<i64>()
                .iter()
                .map(|&i| f64::from(u8::from(i != p as i64)))
                .collect();
            let len = keep.len();
            let keep = Tensor::from_vec(keep, &[len, 1])?.to_dtype(grad.dtype())?;
            rows.mul(&keep)?
        }
    };
    Tensor::full_dtype(weight_shape, 0.0, grad.dtype()).index_add(0, &flat, &rows)
}
