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
            acc *= dim.max(1) as isize;
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

    /// Whether the elements are dense and row-major from the offset.
    pub fn is_contiguous(&self) -> bool {
        *self
            == Self::new(
                self.shape.clone(),
                Self::contiguous(&self.shape).strides,
                self.offset,
            )
    }

    /// This layout seen with `shape` (same rank or lower), reading repeated
    /// elements through stride 0 as PyTorch's `expand` does.
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Self> {
        let extra = shape
            .len()
            .checked_sub(self.rank())
            .ok_or_else(|| Error::ExpandRank {
                requested: shape.to_vec(),
                actual: self.shape.clone(),
            })?;
        let mut strides = vec![0isize; shape.len()];
        for (i, (&dim, &stride)) in self.shape.iter().zip(&self.strides).enumerate() {
            let target = shape[extra + i];
            strides[extra + i] = if dim == target {
                stride
            } else if dim == 1 {
                0
            } else {
                return Err(Error::ExpandSize {
                    requested: shape.to_vec(),
                    actual: self.shape.clone(),
                    dim: extra + i,
                    size: dim,
                    target,
                });
            };
        }
        Ok(Self {
            shape: shape.to_vec(),
            strides,
            offset: self.offset,
        })
    }

    /// Storage indices of every element in row-major order.
    pub fn indices(&self) -> StridedIndex<'_> {
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
#[derive(Debug)]
pub struct StridedIndex<'a> {
    layout: &'a Layout,
    counter: Vec<usize>,
    next: Option<isize>,
    remaining: usize,
}

impl<'a> StridedIndex<'a> {
    fn new(layout: &'a Layout) -> Self {
        let remaining = layout.numel();
        let next = (remaining > 0).then_some(layout.offset as isize);
        Self {
            layout,
            counter: vec![0; layout.rank()],
            next,
            remaining,
        }
    }
}

impl Iterator for StridedIndex<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let current = self.next?;
        self.remaining -= 1;
        if self.remaining == 0 {
            self.next = None;
        } else {
            let mut index = current;
            for d in (0..self.layout.rank()).rev() {
                self.counter[d] += 1;
                index += self.layout.strides[d];
                if self.counter[d] < self.layout.shape[d] {
                    break;
                }
                index -= self.layout.strides[d] * self.layout.shape[d] as isize;
                self.counter[d] = 0;
            }
            self.next = Some(index);
        }
        Some(current as usize)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for StridedIndex<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_transposed() {
        let l = Layout::new(vec![3, 2], vec![1, 3], 0);
        assert_eq!(l.indices().collect::<Vec<_>>(), vec![0, 3, 1, 4, 2, 5]);
    }

    #[test]
    fn indices_expanded_stride_zero() {
        let l = Layout::contiguous(&[2]).broadcast_to(&[3, 2]).unwrap();
        assert_eq!(l.indices().collect::<Vec<_>>(), vec![0, 1, 0, 1, 0, 1]);
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
