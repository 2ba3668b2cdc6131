//! Indexing: advanced indexing (`t[idx]`, masks) and `index_put`, `gather`
//! and `scatter_add`, `index_select` and `index_add`, `embedding`. Each op's
//! backward is another op of this family, so double backward works. Index
//! tensors are inputs (so the graph saves them and checks their version)
//! that never receive a gradient.

use super::view_index::index_plan;
use super::{OpInfo, SavedSlot, inputs, new_tensor};
use crate::cpu::{CpuBuffer, Element};
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// An indexing op. Inputs are `self` first, then as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexOp {
    /// `self[indices]`: inputs `self, indices...`; `dims[j]` is the
    /// dimension where `indices[j]` starts (a mask spans several).
    Index {
        /// Where each index tensor starts.
        dims: Vec<usize>,
    },
    /// `index_put(indices, values, accumulate)`: inputs `self, values, indices...`.
    IndexPut {
        /// Where each index tensor starts.
        dims: Vec<usize>,
        /// Add into `self` instead of overwriting.
        accumulate: bool,
    },
    /// `gather(dim, index)`: inputs `self, index`.
    Gather {
        /// The gathered dimension.
        dim: usize,
    },
    /// `scatter_add(dim, index, src)`: inputs `self, index, src`.
    ScatterAdd {
        /// The scattered dimension.
        dim: usize,
    },
    /// `scatter(dim, index, src)` (`value`: `scatter(dim, index, value)`,
    /// the number as a 0-dim third input): inputs `self, index, src`.
    Scatter {
        /// The scattered dimension.
        dim: usize,
        /// Whether `src` is a number, spread over the index.
        value: bool,
    },
    /// `index_select(dim, index)`: inputs `self, index`.
    IndexSelect {
        /// The selected dimension.
        dim: usize,
    },
    /// `index_add(dim, index, source)`: inputs `self, index, source`.
    IndexAdd {
        /// The dimension added along.
        dim: usize,
    },
    /// `embedding(indices, weight)`: inputs `weight, indices`.
    Embedding {
        /// The row whose gradient stays zero.
        padding_idx: Option<usize>,
    },
}

impl OpInfo for IndexOp {
    fn node_name(&self) -> &'static str {
        match self {
            IndexOp::Index { .. } => "IndexBackward0",
            IndexOp::IndexPut { .. } => "IndexPutBackward0",
            IndexOp::Gather { .. } => "GatherBackward0",
            IndexOp::ScatterAdd { .. } => "ScatterAddBackward0",
            IndexOp::Scatter { value: false, .. } => "ScatterBackward0",
            IndexOp::Scatter { value: true, .. } => "ScatterBackward1",
            IndexOp::IndexSelect { .. } => "IndexSelectBackward0",
            IndexOp::IndexAdd { .. } => "IndexAddBackward0",
            IndexOp::Embedding { .. } => "EmbeddingBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            IndexOp::Index { .. } => "index",
            IndexOp::IndexPut { .. } => "index_put",
            IndexOp::Gather { .. } => "gather",
            IndexOp::ScatterAdd { .. } => "scatter_add",
            IndexOp::Scatter { .. } => "scatter",
            IndexOp::IndexSelect { .. } => "index_select",
            IndexOp::IndexAdd { .. } => "index_add",
            IndexOp::Embedding { .. } => "embedding",
        }
    }

    fn is_differentiable_input(&self, i: usize) -> bool {
        match self {
            IndexOp::Index { .. } => i == 0,
            IndexOp::IndexPut { .. } => i <= 1,
            IndexOp::Gather { .. } | IndexOp::IndexSelect { .. } | IndexOp::Embedding { .. } => {
                i == 0
            }
            IndexOp::ScatterAdd { .. }
            | IndexOp::IndexAdd { .. }
            | IndexOp::Scatter { value: false, .. } => i != 1,
            IndexOp::Scatter { value: true, .. } => i == 0,
        }
    }

    fn arity(&self) -> usize {
        match self {
            IndexOp::Index { dims } => 1 + dims.len(),
            IndexOp::IndexPut { dims, .. } => 2 + dims.len(),
            IndexOp::Gather { .. } | IndexOp::IndexSelect { .. } | IndexOp::Embedding { .. } => 2,
            IndexOp::ScatterAdd { .. } | IndexOp::IndexAdd { .. } | IndexOp::Scatter { .. } => 3,
        }
    }

    fn saved(&self, needs: &[bool]) -> Vec<SavedSlot> {
        let needs = |i: usize| needs.get(i).copied().unwrap_or(false);
        match self {
            // self: index_put(zeros, indices, grad, accumulate=true)
            IndexOp::Index { dims } if needs(0) => (1..=dims.len()).map(SavedSlot::Input).collect(),
            // self: grad.index_put(indices, 0) unless accumulating; values: grad[indices]
            IndexOp::IndexPut { dims, accumulate } if (needs(0) && !accumulate) || needs(1) => {
                (2..2 + dims.len()).map(SavedSlot::Input).collect()
            }
            // self: zeros.scatter_add(dim, index, grad) / zeros.index_add(dim, index, grad)
            IndexOp::Gather { .. } | IndexOp::IndexSelect { .. } | IndexOp::Embedding { .. }
                if needs(0) =>
            {
                vec![SavedSlot::Input(1)]
            }
            // src: grad.gather(dim, index) / source: grad.index_select(dim, index)
            IndexOp::ScatterAdd { .. } | IndexOp::IndexAdd { .. } if needs(2) => {
                vec![SavedSlot::Input(1)]
            }
            // self: grad.scatter(dim, index, 0); src: grad.gather(dim, index)
            IndexOp::Scatter { .. } if needs(0) || needs(2) => vec![SavedSlot::Input(1)],
            _ => vec![],
        }
    }
}

impl IndexOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        match self {
            IndexOp::Index { dims } => {
                let (x, indices) = ins.split_first().ok_or_else(|| arity_error(self))?;
                let indices: Vec<Tensor> = indices.iter().map(|t| (*t).clone()).collect();
                let plan = index_plan(x.layout(), dims, &indices)?;
                take(x, &plan.positions, &plan.shape)
            }
            IndexOp::IndexPut { dims, accumulate } => {
                let (Some(x), Some(values)) = (ins.first(), ins.get(1)) else {
                    return Err(arity_error(self));
                };
                let indices: Vec<Tensor> = ins.iter().skip(2).map(|t| (*t).clone()).collect();
                let dense = Layout::contiguous(x.shape());
                let plan = index_plan(&dense, dims, &indices)?;
                let reads = values.layout().broadcast_to(&plan.shape).map_err(|_| {
                    Error::IndexPutShape {
                        values: values.shape().to_vec(),
                        result: plan.shape.clone(),
                    }
                })?;
                put(x, &plan.positions, values, &reads, *accumulate)
            }
            IndexOp::Gather { dim } => {
                let [x, index] = inputs::<2>(self, ins)?;
                let l = x.layout();
                let size = l.shape().get(*dim).copied().unwrap_or(1);
                let stride = l.strides().get(*dim).copied().unwrap_or(0);
                let base = Layout::new(
                    index.shape().to_vec(),
                    without(l, *dim, index.layout().rank()),
                    l.offset(),
                );
                let values = index.to_vec::<i64>();
                let positions = base
                    .indices()
                    .zip(values)
                    .map(|(b, v)| {
                        in_range(v, *dim, size).map(|v| (b as isize + v * stride) as usize)
                    })
                    .collect::<Result<Vec<_>>>()?;
                take(x, &positions, index.shape())
            }
            IndexOp::ScatterAdd { dim } | IndexOp::Scatter { dim, .. } => {
                let [x, index, src] = inputs::<3>(self, ins)?;
                let dense = Layout::contiguous(x.shape());
                let size = x.shape().get(*dim).copied().unwrap_or(1);
                let stride = dense.strides().get(*dim).copied().unwrap_or(0);
                let base = Layout::new(
                    index.shape().to_vec(),
                    without(&dense, *dim, index.layout().rank()),
                    0,
                );
                let positions = base
                    .indices()
                    .zip(index.to_vec::<i64>())
                    .map(|(b, v)| {
                        in_range(v, *dim, size).map(|v| (b as isize + v * stride) as usize)
                    })
                    .collect::<Result<Vec<_>>>()?;
                let sl = src.layout();
                let reads = Layout::new(
                    index.shape().to_vec(),
                    strides(sl, index.layout().rank()),
                    sl.offset(),
                );
                // A number's 0-dim tensor reads with zero strides, everywhere.
                let add = matches!(self, IndexOp::ScatterAdd { .. });
                put(x, &positions, src, &reads, add)
            }
            IndexOp::IndexSelect { dim } => {
                let [x, index] = inputs::<2>(self, ins)?;
                let values = index.to_vec::<i64>();
                let size = x.shape().get(*dim).copied().unwrap_or(1);
                for &v in &values {
                    if v < 0 || v >= size as i64 {
                        return Err(match dim {
                            0 => Error::IndexSelectRange,
                            _ => Error::IndexSelectBounds { index: v, size },
                        });
                    }
                }
                let mut shape = x.shape().to_vec();
                if let Some(s) = shape.get_mut(*dim) {
                    *s = values.len();
                }
                let on_device = |k: &dyn Kernels| {
                    Ok(shaped(k.index_select(operand(x), *dim, &values)?, &shape))
                };
                kernels::run_or(on_device, || {
                    let positions = along(x.layout(), *dim, &values);
                    take(x, &positions, &shape)
                })
            }
            IndexOp::IndexAdd { dim } => {
                let [x, index, source] = inputs::<3>(self, ins)?;
                let values = index.to_vec::<i64>();
                let size = x.shape().get(*dim).copied().unwrap_or(1);
                if values.iter().any(|&v| v < 0 || v >= size as i64) {
                    return Err(Error::IndexSelectRange);
                }
                let positions = along(&Layout::contiguous(x.shape()), *dim, &values);
                let order: Vec<i64> = (0..values.len() as i64).collect();
                let read_positions = along(source.layout(), *dim, &order);
                put_positions(x, &positions, source, &read_positions, true)
            }
            IndexOp::Embedding { .. } => {
                let [weight, indices] = inputs::<2>(self, ins)?;
                let [rows, width] = weight.shape() else {
                    return Err(Error::EmbeddingWeight);
                };
                let (rows, width) = (*rows, *width);
                let values = indices.to_vec::<i64>();
                if values.iter().any(|&v| v < 0 || v >= rows as i64) {
                    return Err(Error::IndexSelectRange);
                }
                let mut shape = indices.shape().to_vec();
                shape.push(width);
                let on_device = |k: &dyn Kernels| {
                    Ok(shaped(k.index_select(operand(weight), 0, &values)?, &shape))
                };
                kernels::run_or(on_device, || {
                    let positions = along(weight.layout(), 0, &values);
                    take(weight, &positions, &shape)
                })
            }
        }
    }
}

fn arity_error(op: &IndexOp) -> Error {
    Error::Backend(format!(
        "internal error: {} takes {} inputs",
        op.name(),
        op.arity()
    ))
}

/// `layout`'s strides with dimension `dim`'s zeroed, for walking `rank`
/// dimensions: each element's position along every other dimension. A
/// 0-dim layout reads as one element of any rank.
fn without(layout: &Layout, dim: usize, rank: usize) -> Vec<isize> {
    let mut s = strides(layout, rank);
    if let Some(x) = s.get_mut(dim) {
        *x = 0;
    }
    s
}

/// `layout`'s strides, or zeros when it is 0-dim and read with `rank` dimensions.
fn strides(layout: &Layout, rank: usize) -> Vec<isize> {
    match layout.rank() == rank {
        true => layout.strides().to_vec(),
        false => vec![0; rank],
    }
}

/// A `gather`/`scatter_add` index checked against its dimension.
fn in_range(v: i64, dim: usize, size: usize) -> Result<isize> {
    if v < 0 || v >= size as i64 {
        return Err(Error::GatherRange {
            index: v,
            dim,
            size,
        });
    }
    Ok(v as isize)
}

/// Positions of `layout` with dimension `dim` walked in the order `values`
/// (checked to be in range), the other dimensions row-major around it.
fn along(layout: &Layout, dim: usize, values: &[i64]) -> Vec<usize> {
    let rank = layout.rank();
    let part = |range: std::ops::Range<usize>, offset| {
        let dims: Vec<usize> = range.collect();
        Layout::new(
            dims.iter().map(|&d| layout.shape()[d]).collect(),
            dims.iter().map(|&d| layout.strides()[d]).collect(),
            offset,
        )
    };
    let outer = part(0..dim.min(rank), layout.offset());
    let inner = part((dim + 1).min(rank)..rank, 0);
    let stride = layout.strides().get(dim).copied().unwrap_or(0);
    let mut out = Vec::with_capacity(outer.numel() * values.len() * inner.numel());
    for o in outer.indices() {
        for &v in values {
            for i in inner.indices() {
                out.push((o as isize + v as isize * stride + i as isize) as usize);
            }
        }
    }
    out
}

/// The elements of `t`'s storage at `positions`, as a new tensor of `shape`.
fn take(t: &Tensor, positions: &[usize], shape: &[usize]) -> Result<Tensor> {
    let on_device = |k: &dyn Kernels| Ok(shaped(k.take(operand(t), positions)?, shape));
    kernels::run_or(on_device, || {
        let data = t.storage().data();
        let buffer = crate::cpu_dispatch!(&*data, d => Element::into_buffer(positions.iter().map(|&p| d[p]).collect()));
        Ok(new_tensor(buffer, shape))
    })
}

/// A row-major copy of `x` with `src`'s elements (read through `reads`)
/// written or added at `positions`.
fn put(x: &Tensor, positions: &[usize], src: &Tensor, reads: &Layout, add: bool) -> Result<Tensor> {
    let read_positions: Vec<usize> = reads.indices().collect();
    put_positions(x, positions, src, &read_positions, add)
}

fn put_positions(
    x: &Tensor,
    positions: &[usize],
    src: &Tensor,
    reads: &[usize],
    add: bool,
) -> Result<Tensor> {
    let on_device = |k: &dyn Kernels| {
        Ok(shaped(
            k.put(operand(x), positions, operand(src), reads, add)?,
            x.shape(),
        ))
    };
    kernels::run_or(on_device, || put_on_host(x, positions, src, reads, add))
}

/// [`put_positions`] on the host.
fn put_on_host(
    x: &Tensor,
    positions: &[usize],
    src: &Tensor,
    reads: &[usize],
    add: bool,
) -> Result<Tensor> {
    fn go<T: Element>(
        out: &mut [T],
        at: &[usize],
        src: &[T],
        reads: &[usize],
        f: impl Fn(T, T) -> T,
    ) {
        for (&o, &i) in at.iter().zip(reads) {
            out[o] = f(out[o], src[i]);
        }
    }
    // Narrow integers accumulate in int64 and wrap when cast back.
    let compute = x.dtype().widened();
    let mut out = x.storage().data().gather_as(x.layout(), compute);
    let src_data = src.storage().data();
    let widened;
    let data = if src_data.dtype() == compute {
        &*src_data
    } else {
        widened = src_data.gather_as(&Layout::contiguous(&[src_data.len()]), compute);
        &widened
    };
    match (&mut out, data, add) {
        (CpuBuffer::F32(o), CpuBuffer::F32(s), true) => go(o, positions, s, reads, |a, b| a + b),
        (CpuBuffer::F64(o), CpuBuffer::F64(s), true) => go(o, positions, s, reads, |a, b| a + b),
        (CpuBuffer::I64(o), CpuBuffer::I64(s), true) => {
            go(o, positions, s, reads, i64::wrapping_add)
        }
        (CpuBuffer::Bool(o), CpuBuffer::Bool(s), true) => go(o, positions, s, reads, |a, b| a | b),
        (CpuBuffer::F32(o), CpuBuffer::F32(s), false) => go(o, positions, s, reads, |_, b| b),
        (CpuBuffer::F64(o), CpuBuffer::F64(s), false) => go(o, positions, s, reads, |_, b| b),
        (CpuBuffer::I64(o), CpuBuffer::I64(s), false) => go(o, positions, s, reads, |_, b| b),
        (CpuBuffer::Bool(o), CpuBuffer::Bool(s), false) => go(o, positions, s, reads, |_, b| b),
        _ => {
            return Err(Error::Backend(
                "internal error: scatter dtypes differ".into(),
            ));
        }
    }
    Ok(new_tensor(out.into_dtype(x.dtype()), x.shape()))
}
