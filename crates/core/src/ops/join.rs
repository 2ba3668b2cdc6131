//! Joining and splitting: `cat`, `stack`, and the views `split`, `chunk`
//! and `unbind` return.
//!
//! PyTorch records one multi-output node (`SplitBackward0`) for all pieces
//! of a split; gradscope's nodes have one output, so each piece gets its own
//! node of that name, whose backward places the piece's gradient into zeros.

use super::view_shape::wrap_dim;
use super::{Op, OpInfo, SavedSlot, inputs, new_tensor};
use crate::cpu::{CpuBuffer, Element};
use crate::dtype::{DType, Priority};
use crate::error::{Error, Result};
use crate::kernels::{self, operand, shaped};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// A joining op, or one piece of a split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinOp {
    /// `cat(tensors, dim)` of `count` tensors.
    Cat {
        /// The joined dimension.
        dim: usize,
        /// How many tensors.
        count: usize,
    },
    /// `stack(tensors, dim)` of `count` tensors.
    Stack {
        /// The new dimension.
        dim: usize,
        /// How many tensors.
        count: usize,
    },
    /// One piece of `split` (`with_sizes` for a list of sizes, as
    /// `split_with_sizes`): `len` indices of `dim` from `start`, a view.
    Split {
        /// The split dimension.
        dim: usize,
        /// The piece's first index.
        start: usize,
        /// The piece's length.
        len: usize,
        /// Whether the sizes were given as a list.
        with_sizes: bool,
    },
    /// One piece of `unbind(dim)`: index `index` of `dim`, a view.
    Unbind {
        /// The removed dimension.
        dim: usize,
        /// The piece's index.
        index: usize,
    },
}

impl OpInfo for JoinOp {
    fn node_name(&self) -> &'static str {
        match self {
            JoinOp::Cat { .. } => "CatBackward0",
            JoinOp::Stack { .. } => "StackBackward0",
            JoinOp::Split {
                with_sizes: false, ..
            } => "SplitBackward0",
            JoinOp::Split {
                with_sizes: true, ..
            } => "SplitWithSizesBackward0",
            JoinOp::Unbind { .. } => "UnbindBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            JoinOp::Cat { .. } => "cat",
            JoinOp::Stack { .. } => "stack",
            JoinOp::Split {
                with_sizes: false, ..
            } => "split",
            JoinOp::Split {
                with_sizes: true, ..
            } => "split_with_sizes",
            JoinOp::Unbind { .. } => "unbind",
        }
    }

    fn arity(&self) -> usize {
        match self {
            JoinOp::Cat { count, .. } | JoinOp::Stack { count, .. } => *count,
            JoinOp::Split { .. } | JoinOp::Unbind { .. } => 1,
        }
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        // Backward slices the gradient by the inputs' shapes alone.
        vec![]
    }
}

impl JoinOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        match self {
            JoinOp::Cat { dim, .. } => cat_forward(ins, *dim),
            JoinOp::Stack { dim, .. } => {
                let first = ins.first().ok_or(Error::StackEmpty)?;
                let mut shape = first.shape().to_vec();
                shape.insert(*dim, ins.len());
                let dense = Layout::contiguous(&shape);
                let targets: Vec<Layout> = (0..ins.len()).map(|i| dense.select(*dim, i)).collect();
                write_all(ins, &shape, targets)
            }
            JoinOp::Split {
                dim, start, len, ..
            } => {
                let [x] = inputs::<1>(self, ins)?;
                let layout = x.layout().slice(*dim, *start, *len, 1);
                Ok(Tensor::from_parts(x.storage().clone(), layout))
            }
            JoinOp::Unbind { dim, index } => {
                let [x] = inputs::<1>(self, ins)?;
                let layout = x.layout().select(*dim, *index);
                Ok(Tensor::from_parts(x.storage().clone(), layout))
            }
        }
    }
}

/// PyTorch's legacy rule: a 1-D tensor with no elements joins anything.
pub(crate) fn skipped_in_cat(t: &Tensor) -> bool {
    t.shape() == [0]
}

fn cat_forward(ins: &[&Tensor], dim: usize) -> Result<Tensor> {
    let joined: Vec<&Tensor> = ins.iter().copied().filter(|t| !skipped_in_cat(t)).collect();
    let Some(first) = joined.first() else {
        return write_all(ins, &[0], vec![]);
    };
    let mut shape = first.shape().to_vec();
    shape[dim] = joined.iter().map(|t| t.shape()[dim]).sum();
    let dense = Layout::contiguous(&shape);
    let mut offset = 0;
    let targets = joined.iter().map(|t| {
        let size = t.shape()[dim];
        offset += size;
        dense.slice(dim, offset - size, size, 1)
    });
    let targets: Vec<Layout> = targets.collect();
    write_all(&joined, &shape, targets)
}

/// A new tensor of `shape` in the inputs' promoted dtype, input `i`
/// written at the positions `targets` yields for it.
fn write_all(ins: &[&Tensor], shape: &[usize], targets: Vec<Layout>) -> Result<Tensor> {
    let parts: Vec<_> = ins.iter().map(|t| operand(t)).zip(&targets).collect();
    let numel = shape.iter().product();
    kernels::run_or(
        |k| Ok(shaped(k.scatter(&parts, numel)?, shape)),
        || write_all_on_host(ins, shape, &targets),
    )
}

/// [`write_all`] on the host.
fn write_all_on_host(ins: &[&Tensor], shape: &[usize], targets: &[Layout]) -> Result<Tensor> {
    fn go<T: Element>(out: &mut [T], target: &Layout, src: &[T]) {
        for (o, &v) in target.indices().zip(src) {
            out[o] = v;
        }
    }
    let dtype = DType::result_type(
        &ins.iter()
            .map(|t| (t.dtype(), Priority::Dimensioned))
            .collect::<Vec<_>>(),
    );
    let mut out = CpuBuffer::full(dtype, shape.iter().product(), 0.0);
    for (t, target) in ins.iter().zip(targets) {
        let src = t.storage().data().gather_as(t.layout(), dtype);
        crate::cpu_dispatch_pair!((&mut out, &src), (o, s) => go(o, target, s),
            _ => return Err(Error::Backend("internal error: cat dtypes differ".into())));
    }
    Ok(new_tensor(out, shape))
}

impl Tensor {
    /// `tensors` joined along `dim`, PyTorch's `torch.cat` (dtypes promote;
    /// 1-D empty tensors are skipped, as PyTorch's legacy rule has it).
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let a = Tensor::ones(&[2, 1]);
    /// let b = Tensor::zeros(&[2, 2]);
    /// assert_eq!(Tensor::cat(&[&a, &b], 1)?.shape(), &[2, 3]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn cat(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        if tensors.is_empty() {
            return Err(Error::CatEmpty);
        }
        if let Some(index) = tensors.iter().position(|t| t.layout().rank() == 0) {
            return Err(Error::CatZeroDim { index });
        }
        let joined = tensors
            .iter()
            .enumerate()
            .filter(|(_, t)| !skipped_in_cat(t));
        let mut joined = joined.peekable();
        let dim = match joined.peek() {
            Some((_, first)) => {
                let first = first.shape().to_vec();
                let dim = wrap_dim(dim, first.len())?;
                for (index, t) in joined {
                    if t.layout().rank() != first.len() {
                        return Err(Error::CatRank {
                            lhs: first.len(),
                            rhs: t.layout().rank(),
                        });
                    }
                    let mismatch = (0..first.len()).find(|&d| d != dim && t.shape()[d] != first[d]);
                    if let Some(d) = mismatch {
                        return Err(Error::CatSizes {
                            dim,
                            expected: first[d],
                            got: t.shape()[d],
                            index,
                        });
                    }
                }
                dim
            }
            None => wrap_dim(dim, 1)?,
        };
        let op = JoinOp::Cat {
            dim,
            count: tensors.len(),
        };
        super::apply(Op::Join(op), tensors)
    }

    /// `tensors` (all one shape) joined along a new dimension `dim`,
    /// PyTorch's `torch.stack`.
    pub fn stack(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        let first = tensors.first().ok_or(Error::StackEmpty)?;
        let dim = wrap_dim(dim, first.layout().rank() + 1)?;
        if let Some(index) = tensors.iter().position(|t| t.shape() != first.shape()) {
            return Err(Error::StackSizes {
                first: first.shape().to_vec(),
                other: tensors[index].shape().to_vec(),
                index,
            });
        }
        let op = JoinOp::Stack {
            dim,
            count: tensors.len(),
        };
        super::apply(Op::Join(op), tensors)
    }

    /// Views of `split_size` indices of `dim` each (the last may be
    /// shorter), PyTorch's `split(split_size, dim)`.
    pub fn split(&self, split_size: i64, dim: i64) -> Result<Vec<Tensor>> {
        let rank = self.layout().rank();
        if rank == 0 {
            return Err(Error::SplitZeroDim { op: "split" });
        }
        let dim = wrap_dim(dim, rank)?;
        if split_size < 0 {
            return Err(Error::SplitNegative { size: split_size });
        }
        let size = self.shape()[dim];
        if split_size == 0 && size != 0 {
            return Err(Error::SplitZero { size });
        }
        // A split size past usize (on wasm32) is one piece, as any size
        // past the dimension's is.
        let split_size = usize::try_from(split_size).unwrap_or(usize::MAX);
        let pieces = match split_size {
            0 => 1,
            s => size.div_ceil(s).max(1),
        };
        let last = size - split_size * (pieces - 1);
        let lens = (0..pieces).map(|i| if i + 1 < pieces { split_size } else { last });
        self.split_pieces(dim, lens.collect(), false)
    }

    /// Views of the given lengths along `dim`, PyTorch's `split_with_sizes`
    /// (`split` with a list).
    pub fn split_with_sizes(&self, sizes: &[i64], dim: i64) -> Result<Vec<Tensor>> {
        let rank = self.layout().rank();
        if rank == 0 {
            return Err(Error::SplitZeroDim { op: "split" });
        }
        let dim = wrap_dim(dim, rank)?;
        let size = self.shape()[dim];
        if sizes.iter().any(|&s| s < 0) {
            return Err(Error::SplitSizesNegative {
                sizes: sizes.to_vec(),
            });
        }
        // Summed without wrapping: sizes whose int64 sum wraps around to the
        // dimension's size are refused (PyTorch's wrapping sum accepts them).
        let total = sizes.iter().try_fold(0i64, |sum, &s| sum.checked_add(s));
        if total != i64::try_from(size).ok() {
            return Err(Error::SplitSizesSum {
                size,
                dim,
                sizes: sizes.to_vec(),
            });
        }
        self.split_pieces(dim, sizes.iter().map(|&s| s as usize).collect(), true)
    }

    /// `chunks` views of near-equal length along `dim` (fewer when the
    /// dimension is short), PyTorch's `chunk`.
    pub fn chunk(&self, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
        let rank = self.layout().rank();
        if rank == 0 {
            return Err(Error::SplitZeroDim { op: "chunk" });
        }
        if chunks <= 0 {
            return Err(Error::ChunkCount { chunks });
        }
        let d = wrap_dim(dim, rank)?;
        let size = self.shape()[d] as i64;
        // Wrapping as PyTorch's int64 does: a huge `chunks` gives split_size
        // -1, which `split` rejects with PyTorch's message.
        let split_size = size.wrapping_add(chunks).wrapping_sub(1) / chunks;
        if split_size == 0 && size == 0 {
            // Keep the requested number of (empty) chunks, as PyTorch does;
            // their list counts against the memory budget like a buffer.
            let count = usize::try_from(chunks).unwrap_or(usize::MAX);
            crate::ledger::check_new_buffer(&[count], crate::DType::Int64)?;
            let sizes = vec![0; count];
            return self.split_with_sizes(&sizes, dim);
        }
        self.split(split_size, dim)
    }

    /// One view per index of `dim`, which disappears, PyTorch's `unbind`.
    pub fn unbind(&self, dim: i64) -> Result<Vec<Tensor>> {
        let rank = self.layout().rank();
        if rank == 0 {
            return Err(Error::DimZeroDim { dim });
        }
        let dim = wrap_dim(dim, rank)?;
        (0..self.shape()[dim])
            .map(|index| super::apply(Op::Join(JoinOp::Unbind { dim, index }), &[self]))
            .collect()
    }

    fn split_pieces(&self, dim: usize, lens: Vec<usize>, with_sizes: bool) -> Result<Vec<Tensor>> {
        let mut start = 0;
        lens.into_iter()
            .map(|len| {
                let op = JoinOp::Split {
                    dim,
                    start,
                    len,
                    with_sizes,
                };
                start += len;
                super::apply(Op::Join(op), &[self])
            })
            .collect()
    }
}
