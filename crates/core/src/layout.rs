//! Shapes, strides and broadcasting: how a tensor's elements sit in its storage.
//!
//! A [`Layout`] is PyTorch's `(size, stride, storage_offset)` triple. Views
//! (transpose, narrow, expand) only build a new layout over the same storage;
//! kernels walk any layout, so no view ever copies.

use crate::error::{Error, Result};

/// How a tensor's elements map to its storage: PyTorch's `size()`, `stride()`
/// and `storage_offset()`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
}

impl Layout {
    /// A dense row-major layout of `shape` starting at element 0.
    ///
    /// ```
    /// use gradscope_core::Layout;
    /// let l = Layout::contiguous(&[2, 3]);
    /// assert_eq!(l.strides(), &[3, 1]);
    /// ```
    pub fn contiguous(shape: &[usize]) -> Self {
        let mut strides = vec![0isize; shape.len()];
        let mut acc = 1isize;
        for (stride, &dim) in strides.iter_mut().zip(shape).rev() {
            *stride = acc;
            // Saturating: strides past isize only arise with a size-0
            // dimension, where no element is ever addressed.
            acc = acc.saturating_mul(dim.max(1) as isize);
        }
        Self {
            shape: shape.to_vec(),
            strides,
            offset: 0,
        }
    }

    /// A layout from explicit parts. Callers check that every reachable
    /// element is inside the storage.
    pub fn new(shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> Self {
        Self {
            shape,
            strides,
            offset,
        }
    }

    /// The sizes of each dimension, PyTorch's `size()`.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Element strides of each dimension, PyTorch's `stride()`.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The storage index of element `[0, 0, ...]`, PyTorch's `storage_offset()`.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Number of elements, PyTorch's `numel()`.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of dimensions, PyTorch's `dim()`.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Whether the elements are dense and row-major from the offset, PyTorch's
    /// `is_contiguous()`: strides of size-1 dimensions do not matter, and an
    /// empty layout is contiguous.
    pub fn is_contiguous(&self) -> bool {
        if self.numel() == 0 {
            return true;
        }
        let mut expected = 1isize;
        for (&dim, &stride) in self.shape.iter().zip(&self.strides).rev() {
            if dim != 1 {
                if stride != expected {
                    return false;
                }
                expected *= dim as isize;
            }
        }
        true
    }

    /// This layout seen with `shape` (same rank or lower), reading repeated
    /// elements through stride 0 as PyTorch's `expand` does.
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Self> {
        if shape.len() < self.rank() {
            // A layout has no dtype; tensor-level callers check the rank first.
            return Err(Error::ExpandRank {
                dtype: crate::dtype::DType::DEFAULT_FLOAT,
                requested: shape.iter().map(|&d| d as i64).collect(),
                actual: self.shape.clone(),
            });
        }
        let sizes: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        self.expand(&sizes)
    }

    /// PyTorch's `inferExpandGeometry`: `-1` keeps a size, new leading
    /// dimensions are prepended, and size-1 dimensions grow through stride 0.
    /// `sizes` must have at least this layout's rank.
    pub fn expand(&self, sizes: &[i64]) -> Result<Self> {
        let rank = sizes.len();
        let extra = rank.saturating_sub(self.rank());
        let mut shape = vec![0usize; rank];
        let mut strides = vec![0isize; rank];
        for i in (0..rank).rev() {
            let existing = i.checked_sub(extra);
            let (size, stride) = match existing {
                Some(d) => (self.shape[d], self.strides[d]),
                // Saturating: the sizes are checked below, after the loop.
                None if i + 1 < rank => (1, (shape[i + 1] as isize).saturating_mul(strides[i + 1])),
                None => (1, 1),
            };
            let target = match sizes[i] {
                -1 if existing.is_none() => {
                    return Err(Error::ExpandLeading { size: -1, dim: i });
                }
                -1 => size as i64,
                t => t,
            };
            (shape[i], strides[i]) = if target == size as i64 {
                (size, stride)
            } else if size != 1 {
                return Err(Error::ExpandSize {
                    requested: sizes.to_vec(),
                    actual: self.shape.clone(),
                    dim: i,
                    size,
                    target,
                });
            } else if target < 0 {
                return Err(Error::NumelOverflow);
            } else {
                // A size past usize (on wasm32) has no layout here.
                (
                    usize::try_from(target).map_err(|_| Error::NumelOverflow)?,
                    0,
                )
            };
        }
        // PyTorch's numel is an int64 product of the sizes.
        let numel = shape
            .iter()
            .try_fold(1i64, |n, &d| n.checked_mul(i64::try_from(d).ok()?));
        if numel.is_none() {
            return Err(Error::NumelOverflow);
        }
        Ok(Self {
            shape,
            strides,
            offset: self.offset,
        })
    }

    /// The dimensions reordered so that result dimension `i` is this
    /// layout's `order[i]`, PyTorch's `permute`; `order` is a permutation.
    pub fn permute(&self, order: &[usize]) -> Self {
        Self {
            shape: order.iter().map(|&d| self.shape[d]).collect(),
            strides: order.iter().map(|&d| self.strides[d]).collect(),
            offset: self.offset,
        }
    }

    /// Dimensions `a` and `b` swapped, PyTorch's `transpose`.
    pub fn transpose(&self, a: usize, b: usize) -> Self {
        let mut out = self.clone();
        out.shape.swap(a, b);
        out.strides.swap(a, b);
        out
    }

    /// Every `step`-th index of `dim` from `start`, `len` of them, PyTorch's
    /// `slice`; the caller has clamped the range to the dimension.
    pub fn slice(&self, dim: usize, start: usize, len: usize, step: usize) -> Self {
        let mut out = self.clone();
        // An empty slice keeps its start offset, as PyTorch's does.
        out.offset = (self.offset as isize + start as isize * self.strides[dim]) as usize;
        out.shape[dim] = len;
        // A step past the dimension keeps at most one index, whose stride
        // no access reads: saturate rather than overflow.
        let step = isize::try_from(step).unwrap_or(isize::MAX);
        out.strides[dim] = self.strides[dim].saturating_mul(step);
        out
    }

    /// Index `index` of `dim`, which disappears, PyTorch's `select`.
    pub fn select(&self, dim: usize, index: usize) -> Self {
        let mut out = self.clone();
        out.offset = (self.offset as isize + index as isize * self.strides[dim]) as usize;
        out.shape.remove(dim);
        out.strides.remove(dim);
        out
    }

    /// The diagonal of dimensions `dim1` and `dim2` (distinct), `offset`
    /// above it (below when negative), as a last dimension: PyTorch's
    /// `diagonal` view, stepping both dimensions at once.
    pub fn diagonal(&self, offset: i64, dim1: usize, dim2: usize) -> Self {
        let (rows, cols) = (self.shape[dim1] as i64, self.shape[dim2] as i64);
        let (r0, c0) = if offset >= 0 {
            (0, offset)
        } else {
            (-offset, 0)
        };
        let len = (rows - r0).min(cols - c0).max(0) as usize;
        let mut out = self.clone();
        if len > 0 {
            out.offset = (self.offset as isize
                + r0 as isize * self.strides[dim1]
                + c0 as isize * self.strides[dim2]) as usize;
        }
        let stride = self.strides[dim1] + self.strides[dim2];
        let (hi, lo) = (dim1.max(dim2), dim1.min(dim2));
        for d in [hi, lo] {
            out.shape.remove(d);
            out.strides.remove(d);
        }
        out.shape.push(len);
        out.strides.push(stride);
        out
    }

    /// A size-1 dimension inserted at `dim`, PyTorch's `unsqueeze` (its
    /// stride as PyTorch's `inferUnsqueezeGeometry` chooses it).
    pub fn unsqueeze(&self, dim: usize) -> Self {
        let stride = match dim < self.rank() {
            true => self.shape[dim] as isize * self.strides[dim],
            false => 1,
        };
        let mut out = self.clone();
        out.shape.insert(dim, 1);
        out.strides.insert(dim, stride);
        out
    }

    /// The layout without the (size-1) dimensions in `dims`, PyTorch's `squeeze`.
    pub fn squeeze(&self, dims: &[usize]) -> Self {
        let keep = |d: &usize| !dims.contains(d);
        let kept: Vec<usize> = (0..self.rank()).filter(keep).collect();
        self.permute(&kept)
    }

    /// This layout's elements seen with `shape` without copying, PyTorch's
    /// `computeStride`; `None` when some dimension would have to span two
    /// separately strided blocks. `shape` must have the same element count.
    pub fn view(&self, shape: &[usize]) -> Option<Self> {
        let with = |strides| {
            Some(Self {
                shape: shape.to_vec(),
                strides,
                offset: self.offset,
            })
        };
        if self.shape.is_empty() {
            return with(vec![1; shape.len()]);
        }
        if self.numel() == 0 {
            if self.shape == shape {
                return with(self.strides.clone());
            }
            return with(Self::contiguous(shape).strides);
        }
        let mut strides = vec![0isize; shape.len()];
        let mut view_d = shape.len() as isize - 1;
        let mut chunk_base_stride = self.strides.last().copied().unwrap_or(1);
        let mut tensor_numel = 1usize;
        let mut view_numel = 1usize;
        for tensor_d in (0..self.rank()).rev() {
            tensor_numel *= self.shape[tensor_d];
            let chunk_ends = tensor_d == 0
                || (self.shape[tensor_d - 1] != 1
                    && self.strides[tensor_d - 1] != tensor_numel as isize * chunk_base_stride);
            if !chunk_ends {
                continue;
            }
            while view_d >= 0 && (view_numel < tensor_numel || shape[view_d as usize] == 1) {
                strides[view_d as usize] = view_numel as isize * chunk_base_stride;
                view_numel *= shape[view_d as usize];
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return None;
            }
            if tensor_d > 0 {
                chunk_base_stride = self.strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
        if view_d != -1 {
            return None;
        }
        with(strides)
    }

    /// For a layout whose elements fill a block densely in some order
    /// (contiguous, transposed, permuted): the dimension order from the
    /// largest stride to the smallest, PyTorch's
    /// `is_non_overlapping_and_dense`. `None` for any other layout.
    pub fn dense_order(&self) -> Option<Vec<usize>> {
        let mut order: Vec<usize> = (0..self.rank()).collect();
        // Stable, so equal strides (size-1 dimensions) keep their order.
        order.sort_by(|&a, &b| {
            let key = |d: usize| (self.shape[d] != 1, self.strides[d]);
            key(b).cmp(&key(a))
        });
        let mut expected = 1isize;
        for &d in order.iter().rev() {
            if self.shape[d] == 1 {
                continue;
            }
            if self.strides[d] != expected {
                return None;
            }
            expected *= self.shape[d] as isize;
        }
        Some(order)
    }

    /// Storage indices of every element in row-major order.
    pub fn indices(&self) -> StridedIndex {
        StridedIndex::new(self)
    }
}

/// The shape two operands broadcast to, by NumPy's and PyTorch's rules.
///
/// ```
/// use gradscope_core::layout::broadcast_shapes;
/// assert_eq!(broadcast_shapes(&[2, 1], &[3]).unwrap(), vec![2, 3]);
/// ```
pub fn broadcast_shapes(lhs: &[usize], rhs: &[usize]) -> Result<Vec<usize>> {
    let rank = lhs.len().max(rhs.len());
    let mut out = vec![0; rank];
    for i in 0..rank {
        let l = if i + lhs.len() >= rank {
            lhs[i + lhs.len() - rank]
        } else {
            1
        };
        let r = if i + rhs.len() >= rank {
            rhs[i + rhs.len() - rank]
        } else {
            1
        };
        out[i] = match (l, r) {
            (l, r) if l == r => l,
            (1, r) => r,
            (l, 1) => l,
            (l, r) => {
                return Err(Error::BroadcastSize {
                    lhs: l,
                    rhs: r,
                    dim: i,
                });
            }
        };
    }
    Ok(out)
}

/// Iterates the storage indices of a layout in row-major order, one
/// increment per element (an odometer, no division per element).
///
/// Dims of size 1 are dropped and dims that step through storage as one
/// (a contiguous run, or a transposed block's rows) are merged, so the
/// innermost dim is as long as the layout allows; `next` steps it with two
/// additions and touches the outer odometer only when it wraps. Profiled
/// on makemore_wavenet (public corpus), the per-element odometer over every
/// dim was 29% of the run.
#[derive(Debug)]
pub struct StridedIndex {
    /// The outer dims (all but the innermost), merged.
    shape: Vec<usize>,
    strides: Vec<isize>,
    counter: Vec<usize>,
    inner_len: usize,
    inner_stride: isize,
    inner_pos: usize,
    /// The storage index `next` returns.
    position: isize,
    remaining: usize,
}

impl StridedIndex {
    fn new(layout: &Layout) -> Self {
        let remaining = layout.numel();
        // Innermost first; merge a dim into the one inside it when stepping
        // it once moves as far as a full sweep of the inner one.
        let mut dims: Vec<(usize, isize)> = Vec::with_capacity(layout.rank());
        for (&size, &stride) in layout.shape.iter().zip(&layout.strides).rev() {
            if size == 1 {
                continue;
            }
            match dims.last_mut() {
                Some((inner_size, inner_stride))
                    if stride == *inner_stride * *inner_size as isize =>
                {
                    *inner_size *= size;
                }
                _ => dims.push((size, stride)),
            }
        }
        let (inner_len, inner_stride) = if dims.is_empty() {
            (1, 0)
        } else {
            dims.remove(0)
        };
        dims.reverse();
        Self {
            shape: dims.iter().map(|&(size, _)| size).collect(),
            strides: dims.iter().map(|&(_, stride)| stride).collect(),
            counter: vec![0; dims.len()],
            inner_len,
            inner_stride,
            inner_pos: 0,
            position: layout.offset as isize,
            remaining,
        }
    }
}

impl Iterator for StridedIndex {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let current = self.position;
        self.inner_pos += 1;
        if self.inner_pos < self.inner_len {
            self.position += self.inner_stride;
        } else if self.remaining > 0 {
            self.inner_pos = 0;
            self.position -= self.inner_stride * (self.inner_len as isize - 1);
            for d in (0..self.shape.len()).rev() {
                self.counter[d] += 1;
                self.position += self.strides[d];
                if self.counter[d] < self.shape[d] {
                    break;
                }
                self.position -= self.strides[d] * self.shape[d] as isize;
                self.counter[d] = 0;
            }
        }
        Some(current as usize)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for StridedIndex {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_transposed() {
        let l = Layout::new(vec![3, 2], vec![1, 3], 0);
        assert_eq!(l.indices().collect::<Vec<_>>(), vec![0, 3, 1, 4, 2, 5]);
    }

    #[test]
    fn diagonal_steps_both_dims_and_goes_last() {
        // PyTorch: arange(12).reshape(3, 4).diagonal(1) has stride (5,), offset 1.
        let m = Layout::contiguous(&[3, 4]);
        let d = m.diagonal(1, 0, 1);
        assert_eq!(
            (d.shape(), d.strides(), d.offset()),
            (&[3][..], &[5][..], 1)
        );
        assert_eq!(d.indices().collect::<Vec<_>>(), vec![1, 6, 11]);
        assert_eq!(
            m.diagonal(-1, 0, 1).indices().collect::<Vec<_>>(),
            vec![4, 9]
        );
        // Past the matrix: empty, at the base's offset.
        let far = m.diagonal(5, 0, 1);
        assert_eq!((far.shape(), far.offset()), (&[0][..], 0));
        // Of dims 2 and 0 of [2, 3, 4]: the kept dim first, then the diagonal.
        let t = Layout::contiguous(&[2, 3, 4]).diagonal(0, 2, 0);
        assert_eq!((t.shape(), t.strides()), (&[3, 2][..], &[4, 13][..]));
    }

    #[test]
    fn indices_expanded_stride_zero() {
        let l = Layout::contiguous(&[2]).broadcast_to(&[3, 2]).unwrap();
        assert_eq!(l.indices().collect::<Vec<_>>(), vec![0, 1, 0, 1, 0, 1]);
    }

    #[test]
    fn indices_merge_dims_and_skip_ones() {
        // A slice whose rows are runs, a permuted block, ones inside: each
        // against the odometer over every dim, by position.
        let layouts = [
            Layout::contiguous(&[4, 6]).slice(1, 1, 3, 1),
            Layout::contiguous(&[2, 3, 4]).permute(&[1, 0, 2]),
            Layout::contiguous(&[2, 1, 3, 1]).transpose(0, 2),
            Layout::contiguous(&[3, 1])
                .broadcast_to(&[2, 3, 5])
                .unwrap(),
            Layout::contiguous(&[5, 4])
                .slice(0, 1, 2, 2)
                .transpose(0, 1),
        ];
        for l in &layouts {
            let mut want = Vec::new();
            for flat in 0..l.numel() {
                let (mut rest, mut at) = (flat, l.offset() as isize);
                for d in (0..l.rank()).rev() {
                    at += (rest % l.shape()[d]) as isize * l.strides()[d];
                    rest /= l.shape()[d];
                }
                want.push(at as usize);
            }
            assert_eq!(l.indices().collect::<Vec<_>>(), want, "{l:?}");
            assert_eq!(l.indices().len(), l.numel());
        }
    }

    #[test]
    fn indices_size_zero_and_scalar() {
        assert_eq!(Layout::contiguous(&[0, 3]).indices().count(), 0);
        assert_eq!(
            Layout::contiguous(&[]).indices().collect::<Vec<_>>(),
            vec![0]
        );
    }

    #[test]
    fn broadcast_shapes_error_message() {
        let err = broadcast_shapes(&[2, 3], &[4]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
        );
    }
}
