//! Views: ops whose result shares the input's storage (and so its version
//! counter) under a new layout, plus the copies PyTorch falls back to when a
//! view is impossible (`contiguous`, `reshape` of a non-viewable layout) and
//! the two scatter ops the backward of `slice`/`select` needs.
//!
//! Argument checking and the `Tensor` methods live in `view_methods.rs`.

use std::rc::Rc;

use super::{OpInfo, SavedSlot, inputs, new_tensor};
use crate::cpu::{CpuBuffer, Element};
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped};
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A view op, or one of the copies and scatters that stand in for one.
/// Dimensions and indices are already wrapped and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewOp {
    /// `expand(shape)`: size-1 dimensions repeated through stride 0.
    Expand(Vec<usize>),
    /// `view(shape)` (also `reshape`, `flatten`, `unflatten` when they can view).
    View(Vec<usize>),
    /// `_reshape_alias(shape)`: `reshape` of a non-contiguous tensor whose
    /// strides allow a view.
    ReshapeAlias(Vec<usize>),
    /// `_unsafe_view(shape)`: `reshape`'s view of its own contiguous copy.
    UnsafeView(Vec<usize>),
    /// `alias()`: the same layout, as `t[...]` gives.
    Alias,
    /// `clone()`: a copy keeping the strides of a dense layout.
    Clone,
    /// `clone(memory_format=contiguous)`: the copy `contiguous()` makes.
    Contiguous,
    /// `transpose(a, b)`.
    Transpose(usize, usize),
    /// `t()` of a tensor with at most two dimensions.
    T,
    /// `permute(order)`.
    Permute(Vec<usize>),
    /// `squeeze()`: every size-1 dimension removed.
    SqueezeAll,
    /// `squeeze(dim)`.
    SqueezeDim(usize),
    /// `squeeze(dims)`.
    SqueezeDims(Vec<usize>),
    /// `unsqueeze(dim)`.
    Unsqueeze(usize),
    /// `slice(dim, start, end, step)` (also `narrow`, `t[a:b:c]`), with
    /// `start <= end <= size`.
    Slice {
        /// The sliced dimension.
        dim: usize,
        /// First index taken.
        start: usize,
        /// One past the last index.
        end: usize,
        /// Distance between taken indices, at least 1.
        step: usize,
    },
    /// `select(dim, index)` (also `t[i]`).
    Select {
        /// The removed dimension.
        dim: usize,
        /// The index kept.
        index: usize,
    },
    /// `diagonal(offset, dim1, dim2)`.
    Diagonal {
        /// Above the main diagonal (below when negative).
        offset: i64,
        /// The first of the two dimensions.
        dim1: usize,
        /// The second.
        dim2: usize,
    },
    /// `diagonal_backward`: the gradient of a diagonal placed into zeros.
    DiagonalBackward {
        /// The input's shape.
        shape: Vec<usize>,
        /// As in [`ViewOp::Diagonal`].
        offset: i64,
        /// As in [`ViewOp::Diagonal`].
        dim1: usize,
        /// As in [`ViewOp::Diagonal`].
        dim2: usize,
    },
    /// `slice_backward`: the gradient of a slice placed into zeros of the
    /// input's shape.
    SliceBackward {
        /// The sliced input's shape.
        shape: Vec<usize>,
        /// As in [`ViewOp::Slice`].
        dim: usize,
        /// As in [`ViewOp::Slice`].
        start: usize,
        /// As in [`ViewOp::Slice`].
        end: usize,
        /// As in [`ViewOp::Slice`].
        step: usize,
    },
    /// `select_backward`: the gradient of a select placed into zeros.
    SelectBackward {
        /// The input's shape.
        shape: Vec<usize>,
        /// As in [`ViewOp::Select`].
        dim: usize,
        /// As in [`ViewOp::Select`].
        index: usize,
    },
    /// The in-place form of a shape view (`unsqueeze_`, `squeeze_`, `t_`,
    /// `transpose_`): the same layout and gradient as the op it wraps,
    /// PyTorch's other node (`UnsqueezeBackward1`); see
    /// [`Tensor::view_inplace`].
    Inplace(Box<ViewOp>),
}

impl OpInfo for ViewOp {
    fn node_name(&self) -> &'static str {
        match self {
            ViewOp::Expand(_) => "ExpandBackward0",
            ViewOp::View(_) => "ViewBackward0",
            ViewOp::ReshapeAlias(_) => "ReshapeAliasBackward0",
            ViewOp::UnsafeView(_) => "UnsafeViewBackward0",
            ViewOp::Alias => "AliasBackward0",
            ViewOp::Clone | ViewOp::Contiguous => "CloneBackward0",
            ViewOp::Transpose(..) => "TransposeBackward0",
            ViewOp::T => "TBackward0",
            ViewOp::Permute(_) => "PermuteBackward0",
            ViewOp::SqueezeAll => "SqueezeBackward0",
            ViewOp::SqueezeDim(_) => "SqueezeBackward1",
            ViewOp::SqueezeDims(_) => "SqueezeBackward2",
            ViewOp::Unsqueeze(_) => "UnsqueezeBackward0",
            ViewOp::Slice { .. } => "SliceBackward0",
            ViewOp::Select { .. } => "SelectBackward0",
            ViewOp::SliceBackward { .. } => "SliceBackwardBackward0",
            ViewOp::SelectBackward { .. } => "SelectBackwardBackward0",
            ViewOp::Diagonal { .. } => "DiagonalBackward0",
            ViewOp::DiagonalBackward { .. } => "DiagonalBackwardBackward0",
            ViewOp::Inplace(op) => match **op {
                ViewOp::Unsqueeze(_) => "UnsqueezeBackward1",
                ViewOp::T => "TBackward1",
                ViewOp::Transpose(..) => "TransposeBackward1",
                ViewOp::SqueezeAll => "SqueezeBackward3",
                ViewOp::SqueezeDim(_) => "SqueezeBackward4",
                ViewOp::SqueezeDims(_) => "SqueezeBackward5",
                ref other => other.node_name(),
            },
        }
    }

    fn name(&self) -> &'static str {
        match self {
            ViewOp::Expand(_) => "expand",
            ViewOp::View(_) => "view",
            ViewOp::ReshapeAlias(_) => "_reshape_alias",
            ViewOp::UnsafeView(_) => "_unsafe_view",
            ViewOp::Alias => "alias",
            ViewOp::Clone | ViewOp::Contiguous => "clone",
            ViewOp::Transpose(..) => "transpose",
            ViewOp::T => "t",
            ViewOp::Permute(_) => "permute",
            ViewOp::SqueezeAll | ViewOp::SqueezeDim(_) | ViewOp::SqueezeDims(_) => "squeeze",
            ViewOp::Unsqueeze(_) => "unsqueeze",
            ViewOp::Slice { .. } => "slice",
            ViewOp::Select { .. } => "select",
            ViewOp::SliceBackward { .. } => "slice_backward",
            ViewOp::SelectBackward { .. } => "select_backward",
            ViewOp::Diagonal { .. } => "diagonal",
            ViewOp::DiagonalBackward { .. } => "diagonal_backward",
            ViewOp::Inplace(op) => match **op {
                ViewOp::Unsqueeze(_) => "unsqueeze_",
                ViewOp::T => "t_",
                ViewOp::Transpose(..) => "transpose_",
                ViewOp::SqueezeAll | ViewOp::SqueezeDim(_) | ViewOp::SqueezeDims(_) => "squeeze_",
                ref other => other.name(),
            },
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        // Every formula reads only the input's shape and the op's attributes.
        vec![]
    }
}

impl ViewOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        let l = x.layout();
        let layout = match self {
            ViewOp::Inplace(op) => return op.forward(ins),
            ViewOp::Expand(shape) => l.broadcast_to(shape)?,
            ViewOp::View(shape) | ViewOp::ReshapeAlias(shape) | ViewOp::UnsafeView(shape) => {
                l.view(shape).ok_or(Error::ViewStride)?
            }
            ViewOp::Alias => l.clone(),
            ViewOp::Clone => {
                crate::ledger::check_new_buffer(x.shape(), x.dtype())?;
                let on_device = |k: &dyn Kernels| Ok(shaped(k.copy(operand(x))?, x.shape()));
                return kernels::run_or(on_device, || Ok(copy_dense(x)));
            }
            ViewOp::Contiguous => {
                // A copy of an expanded view can be far larger than its storage.
                crate::ledger::check_new_buffer(x.shape(), x.dtype())?;
                let on_device = |k: &dyn Kernels| Ok(shaped(k.copy(operand(x))?, x.shape()));
                return kernels::run_or(on_device, || {
                    let buffer = x.storage().data().gather_as(l, x.dtype());
                    Ok(new_tensor(buffer, x.shape()))
                });
            }
            ViewOp::Transpose(a, b) if l.rank() > 0 => l.transpose(*a, *b),
            ViewOp::Transpose(..) => l.clone(),
            ViewOp::T if l.rank() == 2 => l.transpose(0, 1),
            ViewOp::T => l.clone(),
            ViewOp::Permute(order) => l.permute(order),
            ViewOp::SqueezeAll => l.squeeze(&size_one_dims(l, 0..l.rank())),
            ViewOp::SqueezeDim(d) => l.squeeze(&size_one_dims(l, [*d])),
            ViewOp::SqueezeDims(dims) => l.squeeze(&size_one_dims(l, dims.iter().copied())),
            ViewOp::Unsqueeze(d) => l.unsqueeze(*d),
            ViewOp::Slice {
                dim,
                start,
                end,
                step,
            } => l.slice(*dim, *start, (end - start).div_ceil(*step), *step),
            ViewOp::Select { dim, index } => l.select(*dim, *index),
            ViewOp::Diagonal { offset, dim1, dim2 } => l.diagonal(*offset, *dim1, *dim2),
            ViewOp::SliceBackward {
                shape,
                dim,
                start,
                end,
                step,
            } => {
                let len = (end - start).div_ceil(*step);
                let target = Layout::contiguous(shape).slice(*dim, *start, len, *step);
                return scatter_into_zeros(x, shape, &target);
            }
            ViewOp::SelectBackward { shape, dim, index } => {
                let target = Layout::contiguous(shape).select(*dim, *index);
                return scatter_into_zeros(x, shape, &target);
            }
            ViewOp::DiagonalBackward {
                shape,
                offset,
                dim1,
                dim2,
            } => {
                let target = Layout::contiguous(shape).diagonal(*offset, *dim1, *dim2);
                return scatter_into_zeros(x, shape, &target);
            }
        };
        Ok(Tensor::from_parts(x.storage().clone(), layout))
    }
}

/// The dimensions among `dims` whose size is 1 (and exist: a 0-dim tensor
/// squeezes nothing).
fn size_one_dims(l: &Layout, dims: impl IntoIterator<Item = usize>) -> Vec<usize> {
    dims.into_iter()
        .filter(|&d| l.shape().get(d) == Some(&1))
        .collect()
}

/// A copy of `x` that keeps its strides when its elements fill a block
/// densely (a transposed matrix stays column-major), row-major otherwise, as
/// PyTorch's `clone(memory_format=torch.preserve_format)`.
fn copy_dense(x: &Tensor) -> Tensor {
    let l = x.layout();
    let Some(order) = l.dense_order() else {
        return new_tensor(x.storage().data().gather_as(l, x.dtype()), x.shape());
    };
    let permuted = l.permute(&order);
    let buffer = x.storage().data().gather_as(&permuted, x.dtype());
    let mut inverse = vec![0; order.len()];
    for (i, &d) in order.iter().enumerate() {
        inverse[d] = i;
    }
    let layout = Layout::contiguous(permuted.shape()).permute(&inverse);
    Tensor::from_parts(Rc::new(Storage::new(buffer)), layout)
}

/// Zeros of `shape` in `src`'s dtype with `src`'s elements written at
/// `target`'s positions (a layout over the contiguous result).
pub(crate) fn scatter_into_zeros(src: &Tensor, shape: &[usize], target: &Layout) -> Result<Tensor> {
    let numel = shape.iter().product();
    kernels::run_or(
        |k| Ok(shaped(k.scatter(&[(operand(src), target)], numel)?, shape)),
        || scatter_into_zeros_on_host(src, shape, target),
    )
}

/// [`scatter_into_zeros`] on the host.
fn scatter_into_zeros_on_host(src: &Tensor, shape: &[usize], target: &Layout) -> Result<Tensor> {
    fn go<T: Element>(out: &mut [T], target: &Layout, src: &[T], layout: &Layout) {
        for (o, i) in target.indices().zip(layout.indices()) {
            out[o] = src[i];
        }
    }
    let numel = shape.iter().product();
    let mut out = CpuBuffer::full(src.dtype(), numel, 0.0);
    let data = src.storage().data();
    let layout = src.layout();
    crate::cpu_dispatch_pair!((&mut out, &*data), (o, s) => go(o, target, s, layout),
    _ => {
        return Err(Error::Backend(
            "internal error: scatter dtypes differ".into(),
        ));
    });
    Ok(new_tensor(out, shape))
}
