//! The `Tensor` methods of the indexing family: PyTorch's argument checks
//! and errors, then one [`IndexOp`] each.

use super::index::IndexOp;
use super::view_shape::wrap_dim;
use super::{Op, apply};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// An index tensor's dtype as `index_select`-style ops accept it.
fn is_index(t: &Tensor) -> bool {
    matches!(t.dtype(), DType::Int64 | DType::Int32)
}

impl Tensor {
    /// Advanced indexing after the basic entries: `indices[j]` (int64, or
    /// bool masks) starts at dimension `dims[j]`.
    pub(crate) fn index_tensors(&self, dims: &[usize], indices: &[Tensor]) -> Result<Tensor> {
        let mut ins: Vec<&Tensor> = vec![self];
        ins.extend(indices);
        apply(
            Op::Index(IndexOp::Index {
                dims: dims.to_vec(),
            }),
            &ins,
        )
    }

    /// `index_put` with the index tensors' start dimensions already known.
    pub(crate) fn index_put_dims(
        &self,
        dims: &[usize],
        indices: &[Tensor],
        values: &Tensor,
        accumulate: bool,
    ) -> Result<Tensor> {
        if values.dtype() != self.dtype() {
            return Err(Error::IndexPutDtype {
                this: self.dtype(),
                src: values.dtype(),
            });
        }
        let mut ins: Vec<&Tensor> = vec![self, values];
        ins.extend(indices);
        let op = IndexOp::IndexPut {
            dims: dims.to_vec(),
            accumulate,
        };
        apply(Op::Index(op), &ins)
    }

    /// A copy with `values` written (or added, with `accumulate`) at
    /// `self[indices]`, PyTorch's `index_put`; `None` entries index nothing.
    pub fn index_put(
        &self,
        indices: &[Option<Tensor>],
        values: &Tensor,
        accumulate: bool,
    ) -> Result<Tensor> {
        let rank = self.layout().rank();
        let mut dim = 0;
        let (mut dims, mut tensors) = (vec![], vec![]);
        for index in indices {
            match index {
                Some(t) => {
                    dims.push(dim);
                    tensors.push(t.clone());
                    dim += if t.dtype() == DType::Bool {
                        t.layout().rank()
                    } else {
                        1
                    };
                }
                None => dim += 1,
            }
        }
        if dim > rank {
            return Err(Error::IndexPutCount {
                rank,
                count: indices.len(),
            });
        }
        self.index_put_dims(&dims, &tensors, values, accumulate)
    }

    /// `out[i][j] = self[i][index[i][j]]` along `dim`, PyTorch's `gather`.
    pub fn gather(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        let rank = self.layout().rank();
        let dim = wrap_dim(dim, rank)?;
        if !is_index(index) {
            return Err(Error::GatherDtype { op: "gather" });
        }
        if rank.max(1) != index.layout().rank().max(1) {
            return Err(Error::GatherRank { of: "input" });
        }
        if index.numel() > 0 {
            for (at, (&i, &s)) in index.shape().iter().zip(self.shape()).enumerate() {
                if at != dim && i > s {
                    return Err(Error::GatherSize {
                        at,
                        index: index.shape().to_vec(),
                        shape: self.shape().to_vec(),
                        dim,
                    });
                }
            }
        }
        apply(Op::Index(IndexOp::Gather { dim }), &[self, index])
    }

    /// A copy of `self` with `src[i][j]` added at `[i][index[i][j]]` along
    /// `dim`, PyTorch's `scatter_add`.
    pub fn scatter_add(&self, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
        let dim = self.check_scatter(dim, index, src)?;
        apply(Op::Index(IndexOp::ScatterAdd { dim }), &[self, index, src])
    }

    /// A copy of `self` with `src[i][j]` written at `[i][index[i][j]]` along
    /// `dim`, PyTorch's `scatter(dim, index, src)` (where an index repeats,
    /// the last write wins).
    pub fn scatter(&self, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
        let dim = self.check_scatter(dim, index, src)?;
        let op = IndexOp::Scatter { dim, value: false };
        apply(Op::Index(op), &[self, index, src])
    }

    /// A copy of `self` with `value` written wherever `index` points along
    /// `dim`, PyTorch's `scatter(dim, index, value)`: the one-hot of
    /// `zeros(n, k).scatter(1, labels, 1.0)`.
    pub fn scatter_value(&self, dim: i64, index: &Tensor, value: f64) -> Result<Tensor> {
        let value = Tensor::full_dtype(&[], value, self.dtype());
        // The number fits any index: it is checked as a src of index's shape.
        let dim = self.check_scatter(dim, index, &value.expand(index.shape())?)?;
        let op = IndexOp::Scatter { dim, value: true };
        apply(Op::Index(op), &[self, index, &value])
    }

    /// PyTorch's checks of `scatter`'s and `scatter_add`'s arguments; the
    /// dimension, wrapped.
    fn check_scatter(&self, dim: i64, index: &Tensor, src: &Tensor) -> Result<usize> {
        let rank = self.layout().rank();
        let dim = wrap_dim(dim, rank)?;
        if !is_index(index) {
            return Err(Error::GatherDtype { op: "scatter" });
        }
        if self.dtype() != src.dtype() {
            return Err(Error::ScatterDtype);
        }
        let ranks = |t: &Tensor| t.layout().rank().max(1);
        if ranks(index) != ranks(self) {
            return Err(Error::GatherRank { of: "self" });
        }
        if ranks(index) != ranks(src) {
            return Err(Error::GatherRank { of: "src" });
        }
        let fits = index.shape().iter().enumerate().all(|(d, &i)| {
            i <= src.shape().get(d).copied().unwrap_or(1)
                && (d == dim || i <= self.shape().get(d).copied().unwrap_or(1))
        });
        if index.numel() > 0 && !fits {
            return Err(Error::ScatterSize {
                index: index.shape().to_vec(),
                shape: self.shape().to_vec(),
                dim,
                src: src.shape().to_vec(),
            });
        }
        Ok(dim)
    }

    /// The slices `index` names along `dim`, PyTorch's `index_select`.
    pub fn index_select(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        let dim = wrap_dim(dim, self.layout().rank())?;
        if index.layout().rank() > 1 {
            return Err(Error::IndexSelectVector);
        }
        if !is_index(index) {
            return Err(Error::IndexSelectDtype);
        }
        if self.layout().rank() == 0 && index.numel() > 1 {
            return Err(Error::IndexSelectScalar {
                count: index.numel(),
            });
        }
        apply(Op::Index(IndexOp::IndexSelect { dim }), &[self, index])
    }

    /// A copy of `self` with slice `i` of `source` added at slice
    /// `index[i]` along `dim`, PyTorch's `index_add`.
    pub fn index_add(&self, dim: i64, index: &Tensor, source: &Tensor) -> Result<Tensor> {
        let rank = self.layout().rank();
        let dim = wrap_dim(dim, rank)?;
        if index.layout().rank() > 1 {
            return Err(Error::IndexAddVector {
                rank: index.layout().rank(),
                dtype: index.dtype(),
                shape: index.shape().to_vec(),
            });
        }
        if !is_index(index) {
            return Err(Error::IndexAddDtype {
                dtype: index.dtype(),
            });
        }
        if self.dtype() != source.dtype() {
            return Err(Error::IndexAddDtypes {
                this: self.dtype(),
                src: source.dtype(),
            });
        }
        let source_rank = source.layout().rank();
        if dim > 0 && dim >= source_rank {
            return Err(Error::IndexAddSourceDim {
                dim,
                rank: source_rank,
            });
        }
        let slices = source.shape().get(dim).copied().unwrap_or(1);
        if index.numel() != slices {
            return Err(Error::IndexAddCount {
                indices: index.numel(),
                size: slices,
                dim,
            });
        }
        let others = |s: &[usize]| -> Vec<usize> {
            s.iter()
                .enumerate()
                .filter(|(d, _)| *d != dim)
                .map(|(_, &v)| v)
                .collect()
        };
        let same_rank = rank == source_rank;
        if !same_rank || others(self.shape()) != others(source.shape()) {
            return Err(Error::IndexAddShape {
                shape: self.shape().to_vec(),
                src: source.shape().to_vec(),
            });
        }
        apply(Op::Index(IndexOp::IndexAdd { dim }), &[self, index, source])
    }

    /// Rows of `weight` looked up by `indices`, PyTorch's
    /// `torch.nn.functional.embedding(indices, weight, padding_idx)`; the
    /// row `padding_idx` (negative counts from the end) gets no gradient.
    pub fn embedding(
        indices: &Tensor,
        weight: &Tensor,
        padding_idx: Option<i64>,
    ) -> Result<Tensor> {
        if weight.layout().rank() != 2 {
            return Err(Error::EmbeddingWeight);
        }
        if !is_index(indices) {
            return Err(Error::EmbeddingDtype {
                dtype: indices.dtype(),
            });
        }
        let rows = weight.shape()[0] as i64;
        let padding_idx = padding_idx
            .map(|p| if p < 0 { p + rows } else { p })
            .filter(|p| (0..rows).contains(p))
            .map(|p| p as usize);
        apply(
            Op::Index(IndexOp::Embedding { padding_idx }),
            &[weight, indices],
        )
    }
}
