//! Subscripts, `t[...]`, as PyTorch's `TensorIndexing` applies them:
//! integers select, slices slice, `None` unsqueezes, `...` skips, each a view
//! with its own node; integer and boolean tensors then gather once
//! (`IndexBackward0`). Also the plan advanced indexing and `index_put` share.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{Layout, broadcast_shapes};
use crate::tensor::Tensor;

/// One entry of a subscript, PyTorch's `at::indexing::TensorIndex`.
#[derive(Clone, Debug)]
pub enum TensorIndex {
    /// An integer, `t[2]` or `t[-1]`: the dimension disappears.
    Int(i64),
    /// A slice `start:stop:step`; `None` parts are open, as in Python.
    Slice {
        /// First index, `None` for the start.
        start: Option<i64>,
        /// One past the last index, `None` for the end.
        stop: Option<i64>,
        /// Distance between indices, `None` for 1.
        step: Option<i64>,
    },
    /// `None`: a new size-1 dimension.
    NewAxis,
    /// `...`: as many full slices as the other entries leave.
    Ellipsis,
    /// A Python `True` or `False`: a new dimension of size 1 or 0.
    Bool(bool),
    /// An int64 or bool tensor (advanced indexing); a 0-dim int64 tensor
    /// acts as an integer, as in PyTorch.
    Tensor(Tensor),
}

impl TensorIndex {
    /// The full slice `:`.
    pub const FULL: TensorIndex = TensorIndex::Slice {
        start: None,
        stop: None,
        step: None,
    };

    /// How many of the tensor's dimensions this entry consumes.
    fn specified_dims(&self) -> usize {
        match self {
            TensorIndex::Int(_) | TensorIndex::Slice { .. } => 1,
            TensorIndex::NewAxis | TensorIndex::Ellipsis | TensorIndex::Bool(_) => 0,
            TensorIndex::Tensor(t) if t.dtype() == DType::Bool => t.layout().rank(),
            TensorIndex::Tensor(_) => 1,
        }
    }
}

impl Tensor {
    /// `self[indices]` with PyTorch's semantics: basic entries give views,
    /// tensor entries then gather into a new tensor (`IndexBackward0`).
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// use gradscope_core::ops::view_index::TensorIndex;
    /// let x = Tensor::from_vec((0..6).map(|v| v as f32).collect(), &[2, 3])?;
    /// let col = x.index(&[TensorIndex::FULL, TensorIndex::Int(-1)])?;
    /// assert_eq!(col.to_vec::<f32>(), vec![2.0, 5.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn index(&self, indices: &[TensorIndex]) -> Result<Tensor> {
        // A lone basic entry takes PyTorch's fast path: `t[:]` slices even
        // when the slice is full, `t[...]` aliases.
        if let [single] = indices {
            match single {
                TensorIndex::NewAxis => return self.unsqueeze(0),
                TensorIndex::Ellipsis => return self.alias(),
                TensorIndex::Int(i) => return select_entry(self, 0, *i, 0),
                TensorIndex::Slice { start, stop, step } => {
                    return slice_entry(self, 0, *start, *stop, *step, true).map(|t| t.0);
                }
                TensorIndex::Bool(_) | TensorIndex::Tensor(_) => {}
            }
        }
        let rank = self.layout().rank();
        let specified: usize = indices.iter().map(TensorIndex::specified_dims).sum();
        if specified > rank {
            return Err(Error::TooManyIndices { rank });
        }
        let mut result = self.clone();
        let mut changed = false;
        let mut dim = 0usize;
        let mut tensors: Vec<(usize, Tensor)> = vec![];
        for (real_dim, entry) in indices.iter().enumerate() {
            match entry {
                TensorIndex::Int(i) => {
                    result = select_entry(&result, dim, *i, real_dim)?;
                    changed = true;
                }
                TensorIndex::Slice { start, stop, step } => {
                    let (sliced, did) = slice_entry(&result, dim, *start, *stop, *step, false)?;
                    (result, changed, dim) = (sliced, changed || did, dim + 1);
                }
                TensorIndex::Ellipsis => dim += rank - specified,
                TensorIndex::NewAxis => {
                    result = result.unsqueeze(dim as i64)?;
                    (changed, dim) = (true, dim + 1);
                }
                TensorIndex::Bool(b) => {
                    result = result.unsqueeze(dim as i64)?;
                    tensors.push((dim, bool_index(*b)?));
                    (changed, dim) = (true, dim + 1);
                }
                TensorIndex::Tensor(t)
                    if t.layout().rank() == 0
                        && matches!(t.dtype(), DType::Int64 | DType::Int32) =>
                {
                    let i = t.item()? as i64;
                    result = select_entry(&result, dim, i, real_dim)?;
                    changed = true;
                }
                TensorIndex::Tensor(t) if t.layout().rank() == 0 && t.dtype() == DType::Bool => {
                    result = result.unsqueeze(dim as i64)?;
                    tensors.push((dim, bool_index(t.item()? != 0.0)?));
                    (changed, dim) = (true, dim + 1);
                }
                TensorIndex::Tensor(t) => {
                    tensors.push((dim, t.clone()));
                    dim += entry.specified_dims();
                }
            }
        }
        if tensors.is_empty() {
            return if changed { Ok(result) } else { self.alias() };
        }
        let (dims, tensors): (Vec<usize>, Vec<Tensor>) = tensors.into_iter().unzip();
        result.index_tensors(&dims, &tensors)
    }
}

/// An integer entry, with the messages of PyTorch's `applySelect` (which
/// name the entry's position, `real_dim`, not the tensor's dimension).
fn select_entry(t: &Tensor, dim: usize, index: i64, real_dim: usize) -> Result<Tensor> {
    let shape = t.shape();
    if index == 0 && dim == 0 && shape.is_empty() {
        return Err(Error::IndexZeroDim);
    }
    let size = shape.get(dim).copied().unwrap_or(0);
    let signed_size = size as i64;
    if index < -signed_size || index >= signed_size {
        return Err(Error::IndexRange {
            index,
            dim: real_dim,
            size,
        });
    }
    t.select(dim as i64, index)
}

/// A slice entry; inside a tuple a slice covering the whole dimension is
/// skipped, as PyTorch's `applySlice` does. Returns whether it sliced.
fn slice_entry(
    t: &Tensor,
    dim: usize,
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    always: bool,
) -> Result<(Tensor, bool)> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(Error::SliceStepZero);
    }
    if step < 0 {
        return Err(Error::SliceStepNegative);
    }
    let length = t.shape().get(dim).copied().unwrap_or(0) as i64;
    let full = start.unwrap_or(0) == 0 && stop.is_none_or(|s| s >= length) && step == 1;
    if full && !always {
        return Ok((t.clone(), false));
    }
    Ok((t.slice(dim as i64, start, stop, step)?, true))
}

/// PyTorch's `boolToIndexingTensor`: `True` indexes the new dimension
/// with `[0]`, `False` with `[]`.
fn bool_index(value: bool) -> Result<Tensor> {
    let data = if value { vec![0i64] } else { vec![] };
    let len = data.len();
    Tensor::from_vec(data, &[len])
}

/// Where advanced indexing reads: the result's shape and, for each result
/// element in row-major order, its position in the indexed storage.
#[derive(Debug)]
pub(crate) struct IndexPlan {
    /// The shape of `self[indices]`.
    pub shape: Vec<usize>,
    /// Storage positions under the layout the plan was made for.
    pub positions: Vec<usize>,
}

/// PyTorch's `make_info` for `index`/`index_put`: masks become the
/// coordinates of their true elements, index tensors broadcast together,
/// and the indexed dimensions go where PyTorch puts them (in place when
/// adjacent, first otherwise). `dims[j]` is where `indices[j]` starts.
pub(crate) fn index_plan(layout: &Layout, dims: &[usize], indices: &[Tensor]) -> Result<IndexPlan> {
    let shape = layout.shape();
    let mut expanded: Vec<Expanded> = vec![];
    for (&dim, index) in dims.iter().zip(indices) {
        match index.dtype() {
            DType::Int64 | DType::Int32 => {
                expanded.push((dim, index.to_vec(), index.shape().to_vec()))
            }
            DType::Bool => expanded.extend(mask_coordinates(shape, dim, index)?),
            // PyTorch still reads a uint8 index as a mask (with a deprecation warning).
            DType::UInt8 => {
                let mask = index.to_dtype(DType::Bool)?;
                expanded.extend(mask_coordinates(shape, dim, &mask)?)
            }
            DType::Int8 | DType::Int16 | DType::BFloat16 | DType::Float32 | DType::Float64 => {
                return Err(Error::IndexDtype);
            }
        }
    }
    let broadcast = expanded.iter().try_fold(vec![], |acc: Vec<usize>, e| {
        broadcast_shapes(&acc, &e.2).map_err(|_| Error::IndexBroadcast {
            shapes: expanded.iter().map(|e| e.2.clone()).collect(),
        })
    })?;
    let count: usize = broadcast.iter().product();
    let mut offsets = vec![0isize; count];
    for (j, (dim, values, index_shape)) in expanded.iter().enumerate() {
        let size = shape.get(*dim).copied().unwrap_or(0);
        let stride = layout.strides().get(*dim).copied().unwrap_or(0);
        let reads = Layout::contiguous(index_shape).broadcast_to(&broadcast)?;
        for (offset, i) in offsets.iter_mut().zip(reads.indices()) {
            let v = values[i];
            if v < -(size as i64) || v >= size as i64 {
                return Err(Error::IndexRange {
                    index: v,
                    dim: j,
                    size,
                });
            }
            let v = if v < 0 { v + size as i64 } else { v };
            *offset += v as isize * stride;
        }
    }
    let indexed: Vec<usize> = expanded.iter().map(|e| e.0).collect();
    let adjacent = indexed.windows(2).all(|w| w[1] == w[0] + 1);
    let first = indexed.first().copied().unwrap_or(0);
    let plain = |range: std::ops::Range<usize>| -> Vec<usize> {
        range.filter(|d| !indexed.contains(d)).collect()
    };
    let (before, after) = match adjacent {
        true => (plain(0..first), plain(first..shape.len())),
        false => (vec![], plain(0..shape.len())),
    };
    let outer = Layout::new(
        before.iter().map(|&d| shape[d]).collect(),
        before.iter().map(|&d| layout.strides()[d]).collect(),
        layout.offset(),
    );
    let inner = Layout::new(
        after.iter().map(|&d| shape[d]).collect(),
        after.iter().map(|&d| layout.strides()[d]).collect(),
        0,
    );
    let mut positions = Vec::with_capacity(outer.numel() * count * inner.numel());
    for o in outer.indices() {
        for &b in &offsets {
            for i in inner.indices() {
                positions.push((o as isize + b + i as isize) as usize);
            }
        }
    }
    let mut result_shape = outer.shape().to_vec();
    result_shape.extend(&broadcast);
    result_shape.extend(inner.shape());
    Ok(IndexPlan {
        shape: result_shape,
        positions,
    })
}

/// One int64 index after masks are expanded: the dimension it indexes,
/// its values and its shape.
type Expanded = (usize, Vec<i64>, Vec<usize>);

/// A boolean mask starting at `dim` as one int64 index per mask dimension
/// (the coordinates of its true elements), after PyTorch's shape check.
fn mask_coordinates(shape: &[usize], dim: usize, mask: &Tensor) -> Result<Vec<Expanded>> {
    let mask_shape = mask.shape();
    for (j, &size) in mask_shape.iter().enumerate() {
        if shape.get(dim + j) != Some(&size) {
            return Err(Error::MaskShape {
                mask: mask_shape.to_vec(),
                mask_dim: j,
                shape: shape.to_vec(),
                dim: dim + j,
            });
        }
    }
    let rank = mask_shape.len();
    let mut coords = vec![vec![]; rank];
    let mut counter = vec![0i64; rank];
    for value in mask.to_vec::<bool>() {
        if value {
            for (c, &v) in coords.iter_mut().zip(&counter) {
                c.push(v);
            }
        }
        for d in (0..rank).rev() {
            counter[d] += 1;
            if counter[d] < mask_shape[d] as i64 {
                break;
            }
            counter[d] = 0;
        }
    }
    Ok(coords
        .into_iter()
        .enumerate()
        .map(|(j, c)| {
            let len = c.len();
            (dim + j, c, vec![len])
        })
        .collect())
}
