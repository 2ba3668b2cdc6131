//! The `Tensor` methods of the view family: argument checks with PyTorch's
//! errors, then one [`ViewOp`] each, recorded with PyTorch's node name.

use super::view::ViewOp;
use super::view_shape::{infer_size, signed, wrap_dim, wrap_dims};
use super::{Op, apply};
use crate::error::{Error, Result};
use crate::tensor::Tensor;

impl Tensor {
    fn view_op(&self, op: ViewOp) -> Result<Tensor> {
        apply(Op::View(op), &[self])
    }

    /// A stride-0 view repeating size-1 dimensions, PyTorch's `expand`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2, 1])?;
    /// assert_eq!(x.expand(&[2, 3])?.layout().strides(), &[1, 0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn expand(&self, shape: &[usize]) -> Result<Tensor> {
        self.expand_sizes(&signed(shape))
    }

    /// PyTorch's `expand(*sizes)`, where `-1` keeps a dimension's size.
    pub fn expand_sizes(&self, sizes: &[i64]) -> Result<Tensor> {
        if sizes.len() < self.layout().rank() {
            return Err(Error::ExpandRank {
                dtype: self.dtype(),
                requested: sizes.to_vec(),
                actual: self.shape().to_vec(),
            });
        }
        let shape = self.layout().expand(sizes)?.shape().to_vec();
        self.view_op(ViewOp::Expand(shape))
    }

    /// PyTorch's `expand_as(other)`.
    pub fn expand_as(&self, other: &Tensor) -> Result<Tensor> {
        self.expand(other.shape())
    }

    /// The same elements with another shape, sharing storage, PyTorch's
    /// `view`; one size may be `-1`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::zeros(&[2, 3]);
    /// assert_eq!(x.view(&[-1])?.shape(), &[6]);
    /// assert!(x.t()?.view(&[6]).is_err()); // use reshape
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn view(&self, shape: &[i64]) -> Result<Tensor> {
        let shape = infer_size(shape, self.numel())?;
        if self.layout().view(&shape).is_none() {
            return Err(Error::ViewStride);
        }
        self.view_op(ViewOp::View(shape))
    }

    /// PyTorch's `view_as(other)`.
    pub fn view_as(&self, other: &Tensor) -> Result<Tensor> {
        self.view(&signed(other.shape()))
    }

    /// A view with another shape when the strides allow one, else a
    /// contiguous copy viewed, PyTorch's `reshape`. Its nodes are PyTorch's:
    /// `ViewBackward0` for a contiguous tensor, `ReshapeAliasBackward0` for
    /// another viewable one, `UnsafeViewBackward0` over `CloneBackward0` for a copy.
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        if self.layout().is_contiguous() {
            return self.view(shape);
        }
        let shape = infer_size(shape, self.numel())?;
        if self.layout().view(&shape).is_some() {
            return self.view_op(ViewOp::ReshapeAlias(shape));
        }
        self.view_op(ViewOp::Contiguous)?
            .view_op(ViewOp::UnsafeView(shape))
    }

    /// PyTorch's `reshape_as(other)`.
    pub fn reshape_as(&self, other: &Tensor) -> Result<Tensor> {
        self.reshape(&signed(other.shape()))
    }

    /// Dimensions `start_dim..=end_dim` merged into one, PyTorch's `flatten`;
    /// the same tensor when there is nothing to merge.
    pub fn flatten(&self, start_dim: i64, end_dim: i64) -> Result<Tensor> {
        let rank = self.layout().rank();
        if rank == 0 {
            return self.reshape(&[1]);
        }
        let (start, end) = (wrap_dim(start_dim, rank)?, wrap_dim(end_dim, rank)?);
        if start > end {
            return Err(Error::FlattenDims);
        }
        if start == end {
            return Ok(self.clone());
        }
        let shape = self.shape();
        // Checked: a 32-bit build's sizes wrap past 2**32 (a meta tensor's
        // flattened 8589934592 printed as 0 in the page).
        let merged = shape[start..=end]
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .and_then(|n| i64::try_from(n).ok())
            .ok_or(Error::NumelOverflow)?;
        let mut new: Vec<i64> = signed(&shape[..start]);
        new.push(merged);
        new.extend(signed(&shape[end + 1..]));
        self.reshape(&new)
    }

    /// Dimension `dim` split into `sizes` (one may be `-1`), PyTorch's `unflatten`.
    pub fn unflatten(&self, dim: i64, sizes: &[i64]) -> Result<Tensor> {
        let dim = wrap_dim(dim, self.layout().rank())?;
        let size = self.shape().get(dim).copied().unwrap_or(1);
        let inner = infer_size(sizes, size).map_err(|err| match err {
            Error::ViewShape { .. } => Error::UnflattenSizes {
                sizes: sizes.to_vec(),
                dim,
                size,
            },
            other => other,
        })?;
        let shape = self.shape();
        let mut new = signed(&shape[..dim.min(shape.len())]);
        new.extend(signed(&inner));
        new.extend(signed(shape.get(dim + 1..).unwrap_or(&[])));
        self.view(&new)
    }

    /// Dimensions `dim0` and `dim1` swapped, PyTorch's `transpose`.
    pub fn transpose(&self, dim0: i64, dim1: i64) -> Result<Tensor> {
        let rank = self.layout().rank();
        let (a, b) = (wrap_dim(dim0, rank)?, wrap_dim(dim1, rank)?);
        self.view_op(ViewOp::Transpose(a, b))
    }

    /// The transpose of a matrix (a vector or scalar unchanged), PyTorch's `t()`.
    pub fn t(&self) -> Result<Tensor> {
        let rank = self.layout().rank();
        if rank > 2 {
            return Err(Error::TRank { op: "t", rank });
        }
        self.view_op(ViewOp::T)
    }

    /// The dimensions in the order `dims`, PyTorch's `permute`.
    pub fn permute(&self, dims: &[i64]) -> Result<Tensor> {
        let rank = self.layout().rank();
        if dims.len() != rank {
            return Err(Error::PermuteRank {
                rank,
                len: dims.len(),
            });
        }
        let order = wrap_dims(dims, rank).map_err(|err| match err {
            Error::DimRepeated { .. } => Error::PermuteRepeated,
            other => other,
        })?;
        self.view_op(ViewOp::Permute(order))
    }

    /// Every size-1 dimension removed, PyTorch's `squeeze()`.
    pub fn squeeze(&self) -> Result<Tensor> {
        self.view_op(ViewOp::SqueezeAll)
    }

    /// Dimension `dim` removed if its size is 1, PyTorch's `squeeze(dim)`.
    pub fn squeeze_dim(&self, dim: i64) -> Result<Tensor> {
        let dim = wrap_dim(dim, self.layout().rank())?;
        self.view_op(ViewOp::SqueezeDim(dim))
    }

    /// The size-1 dimensions among `dims` removed, PyTorch's `squeeze(dims)`.
    pub fn squeeze_dims(&self, dims: &[i64]) -> Result<Tensor> {
        let dims = wrap_dims(dims, self.layout().rank())?;
        self.view_op(ViewOp::SqueezeDims(dims))
    }

    /// PyTorch's in-place view ops (`unsqueeze_`, `squeeze_`, `t_`,
    /// `transpose_`) given `op`, their out-of-place form with dimensions
    /// already wrapped: the tensor that takes `self`'s place (the Python
    /// object then holds it), a view of the same storage with `op`'s
    /// layout. The version counter counts the change; a tensor with history
    /// gets the in-place node (`UnsqueezeBackward1`), whose gradient is the
    /// out-of-place op's. A leaf that requires grad is refused while grad
    /// is recorded, as PyTorch refuses it; with grad off it stays a leaf
    /// that requires grad.
    ///
    /// ```
    /// use gradscope_core::{Tensor, ops::ViewOp};
    /// let x = Tensor::ones(&[2, 3]);
    /// let y = x.view_inplace(ViewOp::Unsqueeze(0))?;
    /// assert_eq!((y.shape(), y.version()?), (&[1, 2, 3][..], 1));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn view_inplace(&self, op: ViewOp) -> Result<Tensor> {
        let leaf_with_grad = self.is_leaf() && self.requires_grad();
        if leaf_with_grad && crate::grad_mode::is_grad_enabled() {
            return Err(Error::LeafInplace);
        }
        let out = self.view_op(ViewOp::Inplace(Box::new(op)))?;
        self.storage().bump_version();
        Ok(if leaf_with_grad {
            out.detach().requires_grad_(true)
        } else {
            out
        })
    }

    /// PyTorch's `unsqueeze_(dim)`: see [`Tensor::view_inplace`].
    pub fn unsqueeze_(&self, dim: i64) -> Result<Tensor> {
        let dim = wrap_dim(dim, self.layout().rank() + 1)?;
        self.view_inplace(ViewOp::Unsqueeze(dim))
    }

    /// PyTorch's `squeeze_()`, `squeeze_(dim)` (one entry in `dims`) or
    /// `squeeze_(dims)`: see [`Tensor::view_inplace`].
    pub fn squeeze_(&self, dims: Option<&[i64]>, one: bool) -> Result<Tensor> {
        let rank = self.layout().rank();
        let op = match dims {
            None => ViewOp::SqueezeAll,
            Some(&[d]) if one => ViewOp::SqueezeDim(wrap_dim(d, rank)?),
            Some(dims) => ViewOp::SqueezeDims(wrap_dims(dims, rank)?),
        };
        self.view_inplace(op)
    }

    /// PyTorch's `t_()`: see [`Tensor::view_inplace`].
    pub fn t_(&self) -> Result<Tensor> {
        let rank = self.layout().rank();
        if rank > 2 {
            return Err(Error::TRank { op: "t_", rank });
        }
        self.view_inplace(ViewOp::T)
    }

    /// PyTorch's `transpose_(dim0, dim1)`: see [`Tensor::view_inplace`].
    pub fn transpose_(&self, dim0: i64, dim1: i64) -> Result<Tensor> {
        let rank = self.layout().rank();
        let (a, b) = (wrap_dim(dim0, rank)?, wrap_dim(dim1, rank)?);
        self.view_inplace(ViewOp::Transpose(a, b))
    }

    /// A size-1 dimension inserted at `dim`, PyTorch's `unsqueeze`.
    pub fn unsqueeze(&self, dim: i64) -> Result<Tensor> {
        let dim = wrap_dim(dim, self.layout().rank() + 1)?;
        self.view_op(ViewOp::Unsqueeze(dim))
    }

    /// The same tensor if its layout is row-major, else a row-major copy
    /// (`CloneBackward0`), PyTorch's `contiguous()`.
    pub fn contiguous(&self) -> Result<Tensor> {
        if self.layout().is_contiguous() {
            return Ok(self.clone());
        }
        self.view_op(ViewOp::Contiguous)
    }

    /// A copy with its own storage, PyTorch's `clone()` (a dense layout such
    /// as a transpose keeps its strides). Named so because `Clone::clone`
    /// copies the handle, as Python's assignment does.
    pub fn clone_tensor(&self) -> Result<Tensor> {
        self.view_op(ViewOp::Clone)
    }

    /// A view of the same elements with a node of its own, PyTorch's `alias()`.
    pub fn alias(&self) -> Result<Tensor> {
        self.view_op(ViewOp::Alias)
    }

    /// Elements `start..start + length` of `dim`, PyTorch's `narrow`
    /// (`SliceBackward0`).
    pub fn narrow(&self, dim: i64, start: i64, length: i64) -> Result<Tensor> {
        let rank = self.layout().rank();
        if rank == 0 {
            return Err(Error::NarrowZeroDim);
        }
        if length < 0 {
            return Err(Error::NarrowNegative);
        }
        let d = wrap_dim(dim, rank)?;
        let size = self.shape()[d];
        let signed_size = size as i64;
        if start < -signed_size || start > signed_size {
            return Err(Error::NarrowStart { start, size });
        }
        let start = if start < 0 {
            start + signed_size
        } else {
            start
        };
        if start > signed_size - length {
            return Err(Error::NarrowLength {
                start,
                length,
                size,
            });
        }
        self.slice(dim, Some(start), Some(start + length), 1)
    }

    /// Every `step`-th element of `dim` from `start` to before `end`, each
    /// bound negative-wrapped and clamped as Python slices are, PyTorch's
    /// `slice` (`t[start:end:step]`).
    pub fn slice(
        &self,
        dim: i64,
        start: Option<i64>,
        end: Option<i64>,
        step: i64,
    ) -> Result<Tensor> {
        let rank = self.layout().rank();
        if rank == 0 {
            return Err(Error::SliceZeroDim);
        }
        if step <= 0 {
            return Err(if step == 0 {
                Error::SliceStepZero
            } else {
                Error::SliceStepNegative
            });
        }
        let dim = wrap_dim(dim, rank)?;
        let (start, end) = clamp_slice(start, end, self.shape()[dim]);
        self.view_op(ViewOp::Slice {
            dim,
            start,
            end,
            step: usize::try_from(step).unwrap_or(usize::MAX),
        })
    }

    /// Index `index` of `dim`, which disappears, PyTorch's `select`.
    pub fn select(&self, dim: i64, index: i64) -> Result<Tensor> {
        let rank = self.layout().rank();
        if rank == 0 {
            return Err(Error::SelectZeroDim);
        }
        let dim = wrap_dim(dim, rank)?;
        let size = self.shape()[dim] as i64;
        if index < -size || index >= size {
            return Err(Error::SelectRange {
                index,
                shape: self.shape().to_vec(),
                dim,
            });
        }
        let index = if index < 0 { index + size } else { index } as usize;
        self.view_op(ViewOp::Select { dim, index })
    }

    /// The diagonal of dimensions `dim1` and `dim2`, `offset` above the
    /// main one (below when negative), as a view with it as the last
    /// dimension: PyTorch's `diagonal`.
    pub fn diagonal(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
        let rank = self.layout().rank();
        let (d1, d2) = (wrap_dim(dim1, rank)?, wrap_dim(dim2, rank)?);
        if d1 == d2 {
            return Err(Error::DiagonalDims { dim1, dim2 });
        }
        self.view_op(ViewOp::Diagonal {
            offset,
            dim1: d1,
            dim2: d2,
        })
    }

    /// PyTorch's `diagonal_backward`: this gradient of a diagonal placed
    /// into zeros of `shape`.
    pub(crate) fn diagonal_backward(
        &self,
        shape: &[usize],
        offset: i64,
        dim1: usize,
        dim2: usize,
    ) -> Result<Tensor> {
        self.view_op(ViewOp::DiagonalBackward {
            shape: shape.to_vec(),
            offset,
            dim1,
            dim2,
        })
    }

    /// PyTorch's `slice_backward`: this gradient of a slice placed into
    /// zeros of the sliced tensor's `shape`.
    pub(crate) fn slice_backward(
        &self,
        shape: &[usize],
        dim: usize,
        start: usize,
        end: usize,
        step: usize,
    ) -> Result<Tensor> {
        self.view_op(ViewOp::SliceBackward {
            shape: shape.to_vec(),
            dim,
            start,
            end,
            step,
        })
    }

    /// PyTorch's `select_backward`: this gradient of a select placed into zeros.
    pub(crate) fn select_backward(
        &self,
        shape: &[usize],
        dim: usize,
        index: usize,
    ) -> Result<Tensor> {
        self.view_op(ViewOp::SelectBackward {
            shape: shape.to_vec(),
            dim,
            index,
        })
    }
}

/// A slice's bounds as PyTorch's `slice` clamps them: negatives count from
/// the end, then both are clamped into `0..=size` with `start <= end`.
pub(crate) fn clamp_slice(start: Option<i64>, end: Option<i64>, size: usize) -> (usize, usize) {
    let size = size as i64;
    let wrap = |v: i64| if v < 0 { v + size } else { v };
    let start = wrap(start.unwrap_or(0)).clamp(0, size);
    let end = wrap(end.unwrap_or(i64::MAX)).clamp(start, size);
    (start as usize, end as usize)
}
