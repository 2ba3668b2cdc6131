//! Reductions over all elements or over dimensions, with `keepdim`: `sum
//! mean max min amax amin var std linalg.vector_norm prod logsumexp`, and
//! `sum_to_size` for the engine. Their `Tensor` methods are in
//! `reduce_api.rs`.

use std::cell::OnceCell;
use std::rc::Rc;

use super::{OpInfo, SavedSlot, inputs, new_tensor};
use crate::cpu::reduce::{self, Fold};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped, tensor_kernels};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// Normalizes a possibly negative `dim` of a tensor of `rank` dimensions;
/// a 0-dim tensor accepts 0 and -1, as in PyTorch.
pub(crate) fn normalize_dim(dim: i64, rank: usize) -> Result<usize> {
    let bound = rank.max(1) as i64;
    let d = if dim < 0 { dim + bound } else { dim };
    if (0..bound).contains(&d) {
        Ok(d as usize)
    } else {
        Err(Error::DimOutOfRange { dim, rank })
    }
}

/// The dimensions a reduction folds (ascending, each once) and whether
/// they stay as size 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dims {
    /// The reduced dimensions, ascending.
    pub dims: Vec<usize>,
    /// PyTorch's `keepdim`.
    pub keepdim: bool,
}

impl Dims {
    /// Normalizes `dims` for a tensor of `shape`; an empty list reduces
    /// every dimension, as PyTorch's `sum(dim=[])` does.
    pub fn new(dims: &[i64], shape: &[usize], keepdim: bool) -> Result<Self> {
        if dims.is_empty() {
            return Ok(Self::all(shape, keepdim));
        }
        let mut seen = vec![false; shape.len().max(1)];
        for &d in dims {
            let d = normalize_dim(d, shape.len())?;
            if std::mem::replace(&mut seen[d], true) {
                return Err(Error::DimRepeated { dim: d });
            }
        }
        // A 0-dim tensor has nothing to fold.
        let dims = (0..shape.len()).filter(|&d| seen[d]).collect();
        Ok(Self { dims, keepdim })
    }

    /// Every dimension of `shape`.
    pub fn all(shape: &[usize], keepdim: bool) -> Self {
        Self {
            dims: (0..shape.len()).collect(),
            keepdim,
        }
    }

    /// `dims` or, when `None`, every dimension.
    fn new_or_all(dims: Option<&[i64]>, shape: &[usize], keepdim: bool) -> Result<Self> {
        dims.map_or_else(
            || Ok(Self::all(shape, keepdim)),
            |d| Self::new(d, shape, keepdim),
        )
    }

    /// One flag per dimension of a tensor of `rank`: whether it is folded.
    pub fn mask(&self, rank: usize) -> Vec<bool> {
        (0..rank).map(|d| self.dims.contains(&d)).collect()
    }

    /// The result's shape for an input of `shape`.
    pub fn out_shape(&self, shape: &[usize]) -> Vec<usize> {
        let folded = |d: &usize| self.dims.contains(d);
        (0..shape.len())
            .filter(|d| self.keepdim || !folded(d))
            .map(|d| if folded(&d) { 1 } else { shape[d] })
            .collect()
    }

    /// How many input elements fold into each output element.
    pub fn count(&self, shape: &[usize]) -> usize {
        self.dims.iter().map(|&d| shape[d]).product()
    }
}

/// `max` or `min`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extreme {
    /// The largest element.
    Max,
    /// The smallest element.
    Min,
}

/// The indices `max(dim)` found, kept by its node for backward: set by the
/// forward, shared by every copy of the op.
#[derive(Clone, Debug, Default)]
pub struct Indices(Rc<OnceCell<Tensor>>);

impl Indices {
    /// The int64 indices, once the forward ran.
    pub fn get(&self) -> Option<&Tensor> {
        self.0.get()
    }
}

impl PartialEq for Indices {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A reduction.
#[derive(Clone, Debug, PartialEq)]
pub enum ReduceOp {
    /// `sum()` over all elements.
    Sum,
    /// `sum(dim, keepdim)`.
    SumDim(Dims),
    /// `mean()` over all elements.
    Mean,
    /// `mean(dim, keepdim)`.
    MeanDim(Dims),
    /// `sum_to_size(shape)`: the reverse of broadcasting.
    SumToSize(Vec<usize>),
    /// `max()`/`min()` over all elements.
    Extreme(Extreme),
    /// The values of `max(dim)`/`min(dim)`; the indices ride along.
    ExtremeDim {
        /// Which extreme.
        which: Extreme,
        /// The reduced dimension.
        dim: usize,
        /// PyTorch's `keepdim`.
        keepdim: bool,
        /// Where each value was found.
        indices: Indices,
    },
    /// `amax(dim)`/`amin(dim)`.
    Amax(Extreme, Dims),
    /// `var(dim, correction, keepdim)`.
    Var(Dims, f64),
    /// `std(dim, correction, keepdim)`.
    Std(Dims, f64),
    /// `linalg.vector_norm(ord, dim, keepdim)`.
    Norm(f64, Dims),
    /// `prod()` over all elements.
    Prod,
    /// `prod(dim, keepdim)`.
    ProdDim(Dims),
    /// `logsumexp(dim, keepdim)`.
    Logsumexp(Dims),
}

impl OpInfo for ReduceOp {
    fn node_name(&self) -> &'static str {
        use Extreme::{Max, Min};
        match self {
            ReduceOp::Sum => "SumBackward0",
            ReduceOp::SumDim(_) | ReduceOp::SumToSize(_) => "SumBackward1",
            ReduceOp::Mean => "MeanBackward0",
            ReduceOp::MeanDim(_) => "MeanBackward1",
            ReduceOp::Extreme(Max) => "MaxBackward1",
            ReduceOp::Extreme(Min) => "MinBackward1",
            ReduceOp::ExtremeDim { which: Max, .. } => "MaxBackward0",
            ReduceOp::ExtremeDim { which: Min, .. } => "MinBackward0",
            ReduceOp::Amax(Max, _) => "AmaxBackward0",
            ReduceOp::Amax(Min, _) => "AminBackward0",
            ReduceOp::Var(..) => "VarBackward0",
            ReduceOp::Std(..) => "StdBackward0",
            ReduceOp::Norm(..) => "LinalgVectorNormBackward0",
            ReduceOp::Prod => "ProdBackward0",
            ReduceOp::ProdDim(_) => "ProdBackward1",
            ReduceOp::Logsumexp(_) => "LogsumexpBackward0",
        }
    }

    fn name(&self) -> &'static str {
        use Extreme::{Max, Min};
        match self {
            ReduceOp::Sum | ReduceOp::SumDim(_) => "sum",
            ReduceOp::Mean | ReduceOp::MeanDim(_) => "mean",
            ReduceOp::SumToSize(_) => "sum_to_size",
            ReduceOp::Extreme(Max) | ReduceOp::ExtremeDim { which: Max, .. } => "max",
            ReduceOp::Extreme(Min) | ReduceOp::ExtremeDim { which: Min, .. } => "min",
            ReduceOp::Amax(Max, _) => "amax",
            ReduceOp::Amax(Min, _) => "amin",
            ReduceOp::Var(..) => "var",
            ReduceOp::Std(..) => "std",
            ReduceOp::Norm(..) => "linalg_vector_norm",
            ReduceOp::Prod | ReduceOp::ProdDim(_) => "prod",
            ReduceOp::Logsumexp(_) => "logsumexp",
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        use SavedSlot::{Input, Output};
        match self {
            // These need only the input's shape, which every node keeps;
            // max(dim) keeps its indices in the op.
            ReduceOp::Sum
            | ReduceOp::SumDim(_)
            | ReduceOp::Mean
            | ReduceOp::MeanDim(_)
            | ReduceOp::SumToSize(_)
            | ReduceOp::ExtremeDim { .. } => vec![],
            // self: grad * 2 / (N - correction) * (self - self.mean(dim))
            ReduceOp::Var(..) => vec![Input(0)],
            // p=0 has no gradient; p=1: grad * self.sgn()
            ReduceOp::Norm(p, _) if *p == 0.0 => vec![],
            ReduceOp::Norm(p, _) if *p == 1.0 => vec![Input(0)],
            // Ties are found by comparing self with result; std divides by
            // result; prod and logsumexp reuse result.
            ReduceOp::Extreme(_)
            | ReduceOp::Amax(..)
            | ReduceOp::Std(..)
            | ReduceOp::Norm(..)
            | ReduceOp::Prod
            | ReduceOp::ProdDim(_)
            | ReduceOp::Logsumexp(_) => vec![Input(0), Output],
        }
    }
}

/// `var` (or, with `sqrt`, `std`) over `dims` on the GPU, two passes as
/// the host's: the mean by the reduction kernel, then the sum of squared
/// deviations over `n - correction` (never below 0, as the host's).
fn variance_on_device(
    k: &dyn Kernels,
    x: &Tensor,
    dims: &[usize],
    correction: f64,
    sqrt: bool,
) -> Result<Option<Tensor>> {
    use crate::BinaryOp as B;
    use crate::backend::ReduceKernel as K;
    let (shape, f32) = (x.shape(), DType::Float32);
    let (binary, binary_number, reduce, unary) = tensor_kernels(k);
    let n: usize = dims.iter().map(|&d| shape[d]).product();
    let Some(sum) = reduce(K::Sum, x, dims)? else {
        return Ok(None);
    };
    let Some(mean) = binary_number(B::Div, &sum, n as f64, false)? else {
        return Ok(None);
    };
    let kept: Vec<usize> = (0..shape.len())
        .map(|d| if dims.contains(&d) { 1 } else { shape[d] })
        .collect();
    let mean = Tensor::from_parts(mean.storage().clone(), Layout::contiguous(&kept));
    let Some(centred) = binary(B::Sub, x, &mean, shape, f32)? else {
        return Ok(None);
    };
    let Some(squares) = binary(B::Mul, &centred, &centred, shape, f32)? else {
        return Ok(None);
    };
    let Some(total) = reduce(K::Sum, &squares, dims)? else {
        return Ok(None);
    };
    let divisor = (n as f64 - correction).max(0.0);
    let Some(var) = binary_number(B::Div, &total, divisor, false)? else {
        return Ok(None);
    };
    match sqrt {
        true => unary(&super::unary::UnaryOp::Sqrt, &var, f32),
        false => Ok(Some(var)),
    }
}

/// `linalg.vector_norm` over `dims` on the GPU for the orders 1, 2 and
/// ±inf (of `|x|`: a sum, the root of a sum of squares, a max or min), by
/// the unary, binary and reduction kernels; other orders use the host.
fn norm_on_device(k: &dyn Kernels, x: &Tensor, p: f64, dims: &[usize]) -> Result<Option<Tensor>> {
    use super::unary::UnaryOp;
    let (binary, _, reduce, unary) = tensor_kernels(k);
    use crate::backend::ReduceKernel as K;
    let f32 = DType::Float32;
    let extreme = match p {
        f64::INFINITY => K::Max,
        f64::NEG_INFINITY => K::Min,
        _ => K::Sum,
    };
    if (extreme != K::Sum && x.numel() == 0) || ![1.0, 2.0].contains(&p) && extreme == K::Sum {
        return Ok(None);
    }
    let terms = match p {
        2.0 => binary(crate::BinaryOp::Mul, x, x, x.shape(), f32)?,
        _ => unary(&UnaryOp::Abs, x, f32)?,
    };
    let Some(terms) = terms else {
        return Ok(None);
    };
    let Some(folded) = reduce(extreme, &terms, dims)? else {
        return Ok(None);
    };
    match p {
        2.0 => unary(&UnaryOp::Sqrt, &folded, f32),
        _ => Ok(Some(folded)),
    }
}

impl ReduceOp {
    /// The reduction by a device kernel, where one computes it: sums and
    /// means over any dims, the reverse of broadcasting, max and min.
    fn on_device(&self, k: &dyn Kernels, x: &Tensor) -> Result<Option<Tensor>> {
        use crate::backend::ReduceKernel as K;
        let shape = x.shape();
        let extreme = |which: &Extreme| match which {
            Extreme::Max => K::Max,
            Extreme::Min => K::Min,
        };
        let all = Dims::all(shape, false);
        if let ReduceOp::Var(dims, correction) | ReduceOp::Std(dims, correction) = self {
            let sqrt = matches!(self, ReduceOp::Std(..));
            return Ok(
                variance_on_device(k, x, &dims.dims, *correction, sqrt)?.map(|out| {
                    Tensor::from_parts(
                        out.storage().clone(),
                        Layout::contiguous(&dims.out_shape(shape)),
                    )
                }),
            );
        }
        if let ReduceOp::Norm(p, dims) = self {
            return Ok(norm_on_device(k, x, *p, &dims.dims)?.map(|out| {
                Tensor::from_parts(
                    out.storage().clone(),
                    Layout::contiguous(&dims.out_shape(shape)),
                )
            }));
        }
        let (kernel, dims, mean) = match self {
            ReduceOp::Sum => (K::Sum, all, false),
            ReduceOp::SumDim(dims) => (K::Sum, dims.clone(), false),
            ReduceOp::Mean => (K::Sum, all, true),
            ReduceOp::MeanDim(dims) => (K::Sum, dims.clone(), true),
            ReduceOp::Prod => (K::Prod, all, false),
            ReduceOp::ProdDim(dims) => (K::Prod, dims.clone(), false),
            ReduceOp::Extreme(which) if x.numel() > 0 => (extreme(which), all, false),
            ReduceOp::Amax(which, dims) if x.numel() > 0 => (extreme(which), dims.clone(), false),
            ReduceOp::SumToSize(target) if target.len() <= shape.len() => {
                // The dims broadcasting added: the leading ones, and those
                // of size 1 in the target.
                let lead = shape.len() - target.len();
                let dims = (0..shape.len())
                    .filter(|&i| i < lead || (target[i - lead] == 1 && shape[i] != 1))
                    .collect();
                let dims = Dims {
                    dims,
                    keepdim: false,
                };
                let out = k.reduce(K::Sum, operand(x), &dims.dims)?;
                return Ok(shaped(out, target));
            }
            _ => return Ok(None),
        };
        let (_, _, reduce, _) = tensor_kernels(k);
        let Some(mut out) = reduce(kernel, x, &dims.dims)? else {
            return Ok(None);
        };
        if mean {
            let count = Tensor::scalar(dims.count(shape) as f64);
            let scaled = k.binary(
                crate::BinaryOp::Div,
                operand(&out),
                operand(&count),
                out.shape(),
                DType::Float32,
            )?;
            let Some(scaled) = shaped(scaled, out.shape()) else {
                return Ok(None);
            };
            out = scaled;
        }
        let out_shape = dims.out_shape(shape);
        Ok(Some(Tensor::from_parts(
            out.storage().clone(),
            Layout::contiguous(&out_shape),
        )))
    }

    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        kernels::run_or(|k| self.on_device(k, x), || self.host(x))
    }

    /// The reduction on the host: the CPU, or a GPU storage's host copy.
    fn host(&self, x: &Tensor) -> Result<Tensor> {
        let (shape, rank) = (x.shape(), x.shape().len());
        let data = x.storage().data();
        let layout = x.layout();
        let all = Dims::all(shape, false);
        let (buffer, dims) = match self {
            ReduceOp::Sum => (
                reduce::reduce(&data, layout, &all.mask(rank), Fold::Sum)?,
                &all,
            ),
            ReduceOp::SumDim(dims) => (
                reduce::reduce(&data, layout, &dims.mask(rank), Fold::Sum)?,
                dims,
            ),
            ReduceOp::Mean => (
                reduce::reduce(&data, layout, &all.mask(rank), Fold::Mean)?,
                &all,
            ),
            ReduceOp::MeanDim(dims) => (
                reduce::reduce(&data, layout, &dims.mask(rank), Fold::Mean)?,
                dims,
            ),
            ReduceOp::SumToSize(target) => {
                let buffer = reduce::sum_to_shape(&data, layout, target)?;
                return Ok(new_tensor(buffer, target));
            }
            ReduceOp::Extreme(which) => {
                if x.numel() == 0 {
                    return Err(Error::ReduceEmpty { op: self.name() });
                }
                (
                    reduce::reduce(&data, layout, &all.mask(rank), fold(*which))?,
                    &all,
                )
            }
            ReduceOp::ExtremeDim {
                which,
                dim,
                keepdim,
                indices,
            } => {
                let dims = Dims {
                    dims: if rank == 0 { vec![] } else { vec![*dim] },
                    keepdim: *keepdim,
                };
                if dims.count(shape) == 0 {
                    return Err(Error::ReduceDimEmpty {
                        op: self.name(),
                        dim: *dim,
                    });
                }
                let mask = dims.mask(rank);
                let (values, found) =
                    reduce::arg_reduce(&data, layout, &mask, *which == Extreme::Max)?;
                let out_shape = dims.out_shape(shape);
                let found = new_tensor(crate::cpu::CpuBuffer::I64(found), &out_shape);
                let _ = indices.0.set(found);
                return Ok(new_tensor(values, &out_shape));
            }
            ReduceOp::Amax(which, dims) => {
                if x.numel() == 0 {
                    if dims.dims.len() == rank {
                        return Err(Error::ReduceEmpty { op: self.name() });
                    }
                    if let Some(&dim) = dims.dims.iter().find(|&&d| shape[d] == 0) {
                        return Err(Error::ReduceDimEmpty {
                            op: self.name(),
                            dim,
                        });
                    }
                }
                (
                    reduce::reduce(&data, layout, &dims.mask(rank), fold(*which))?,
                    dims,
                )
            }
            ReduceOp::Var(dims, correction) | ReduceOp::Std(dims, correction) => {
                let sqrt = matches!(self, ReduceOp::Std(..));
                let buffer = reduce::variance(&data, layout, &dims.mask(rank), *correction, sqrt)?;
                (buffer, dims)
            }
            ReduceOp::Norm(p, dims) => {
                if !x.dtype().is_float() {
                    return Err(Error::NormDtype { dtype: x.dtype() });
                }
                if p.is_infinite() && x.numel() == 0 {
                    return Err(Error::NormInfEmpty);
                }
                (
                    reduce::vector_norm(&data, layout, &dims.mask(rank), *p)?,
                    dims,
                )
            }
            ReduceOp::Prod => (
                reduce::reduce(&data, layout, &all.mask(rank), Fold::Prod)?,
                &all,
            ),
            ReduceOp::ProdDim(dims) => (
                reduce::reduce(&data, layout, &dims.mask(rank), Fold::Prod)?,
                dims,
            ),
            ReduceOp::Logsumexp(dims) => {
                let buffer = if x.dtype().is_float() {
                    reduce::logsumexp(&data, layout, &dims.mask(rank))?
                } else {
                    // Integers are summed as the default float dtype, as PyTorch does.
                    let float = data.gather_as(layout, DType::default_float());
                    let dense = crate::Layout::contiguous(shape);
                    reduce::logsumexp(&float, &dense, &dims.mask(rank))?
                };
                (buffer, dims)
            }
        };
        Ok(new_tensor(buffer, &dims.out_shape(shape)))
    }

    /// A new `max(dim)`/`min(dim)` op with room for its indices.
    pub(crate) fn extreme_dim(which: Extreme, dim: usize, keepdim: bool) -> (Self, Indices) {
        let indices = Indices::default();
        let op = ReduceOp::ExtremeDim {
            which,
            dim,
            keepdim,
            indices: indices.clone(),
        };
        (op, indices)
    }

    pub(crate) fn dims_or_all(dims: Option<&[i64]>, x: &Tensor, keepdim: bool) -> Result<Dims> {
        Dims::new_or_all(dims, x.shape(), keepdim)
    }
}

fn fold(which: Extreme) -> Fold {
    match which {
        Extreme::Max => Fold::Max,
        Extreme::Min => Fold::Min,
    }
}
