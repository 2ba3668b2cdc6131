//! The `Tensor` methods of the reductions in `reduce.rs`.

use super::reduce::{Dims, Extreme, ReduceOp, normalize_dim};
use super::{Op, apply, new_tensor};
use crate::cpu::CpuBuffer;
use crate::cpu::reduce::arg_reduce;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

fn reduce(x: &Tensor, op: ReduceOp) -> Result<Tensor> {
    apply(Op::Reduce(op), &[x])
}

impl Tensor {
    /// Sum of all elements, PyTorch's `sum()`; int64 for integer and bool
    /// tensors.
    pub fn sum(&self) -> Result<Tensor> {
        reduce(self, ReduceOp::Sum)
    }

    /// Sum over `dims` (negative counts from the end; empty means all),
    /// PyTorch's `sum(dim, keepdim)`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// assert_eq!(x.sum_dim(&[-1], false)?.to_vec::<f32>(), vec![6.0, 15.0]);
    /// assert_eq!(x.sum_dim(&[0], true)?.shape(), &[1, 3]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn sum_dim(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        reduce(
            self,
            ReduceOp::SumDim(Dims::new(dims, self.shape(), keepdim)?),
        )
    }

    /// Mean of all elements, PyTorch's `mean()`; floating point only.
    pub fn mean(&self) -> Result<Tensor> {
        reduce(self, ReduceOp::Mean)
    }

    /// Mean over `dims`, PyTorch's `mean(dim, keepdim)`.
    pub fn mean_dim(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        reduce(
            self,
            ReduceOp::MeanDim(Dims::new(dims, self.shape(), keepdim)?),
        )
    }

    /// Sums broadcast dimensions away so the result has `shape`, PyTorch's
    /// `sum_to_size`: the reverse of [`Tensor::expand`].
    pub fn sum_to_size(&self, shape: &[usize]) -> Result<Tensor> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        reduce(self, ReduceOp::SumToSize(shape.to_vec()))
    }

    /// The largest element, PyTorch's `max()`: a NaN wins; backward splits
    /// the gradient evenly between tied maxima.
    pub fn max(&self) -> Result<Tensor> {
        reduce(self, ReduceOp::Extreme(Extreme::Max))
    }

    /// The smallest element, PyTorch's `min()`.
    pub fn min(&self) -> Result<Tensor> {
        reduce(self, ReduceOp::Extreme(Extreme::Min))
    }

    /// The largest element along `dim` and its int64 index (the first of
    /// ties), PyTorch's `max(dim, keepdim)` returning `(values, indices)`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f32, 3.0, 3.0, 0.0], &[2, 2])?;
    /// let (values, indices) = x.max_dim(1, false)?;
    /// assert_eq!((values.to_vec::<f32>(), indices.to_vec::<i64>()), (vec![3.0, 3.0], vec![1, 0]));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn max_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        self.extreme_dim(Extreme::Max, dim, keepdim)
    }

    /// The smallest element along `dim` and its index, PyTorch's `min(dim, keepdim)`.
    pub fn min_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        self.extreme_dim(Extreme::Min, dim, keepdim)
    }

    fn extreme_dim(&self, which: Extreme, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
        let dim = normalize_dim(dim, self.shape().len())?;
        let (op, indices) = ReduceOp::extreme_dim(which, dim, keepdim);
        let values = reduce(self, op)?;
        let indices = indices
            .get()
            .cloned()
            .ok_or_else(|| Error::Backend("internal error: max(dim) left no indices".into()))?;
        Ok((values, indices))
    }

    /// The largest elements over `dims` (empty means all), PyTorch's
    /// `amax(dim, keepdim)`: backward splits the gradient between ties.
    pub fn amax(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        let dims = Dims::new(dims, self.shape(), keepdim)?;
        reduce(self, ReduceOp::Amax(Extreme::Max, dims))
    }

    /// The smallest elements over `dims`, PyTorch's `amin(dim, keepdim)`.
    pub fn amin(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        let dims = Dims::new(dims, self.shape(), keepdim)?;
        reduce(self, ReduceOp::Amax(Extreme::Min, dims))
    }

    /// The int64 index of the largest element along `dim`, or in the
    /// flattened tensor when `None`, PyTorch's `argmax(dim, keepdim)`.
    pub fn argmax(&self, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        self.arg_extreme(Extreme::Max, dim, keepdim)
    }

    /// The index of the smallest element, PyTorch's `argmin(dim, keepdim)`.
    pub fn argmin(&self, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        self.arg_extreme(Extreme::Min, dim, keepdim)
    }

    fn arg_extreme(&self, which: Extreme, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        let _on = crate::device::Scope::new(self.device());
        let op = match which {
            Extreme::Max => "argmax",
            Extreme::Min => "argmin",
        };
        if self.dtype() == DType::Bool {
            return Err(Error::ArgReduceBool { op });
        }
        let shape = self.shape();
        let dims = match dim {
            None if self.numel() == 0 => return Err(Error::ArgReduceEmpty { op }),
            None => Dims::all(shape, keepdim),
            Some(d) => Dims::new(&[d], shape, keepdim)?,
        };
        if let Some(&dim) = dims.dims.iter().find(|&&d| shape[d] == 0) {
            return Err(Error::ReduceDimEmpty { op, dim });
        }
        let data = self.storage().data();
        let mask = dims.mask(shape.len());
        let (_, indices) = arg_reduce(&data, self.layout(), &mask, which == Extreme::Max)?;
        Ok(new_tensor(CpuBuffer::I64(indices), &dims.out_shape(shape)))
    }

    /// Variance over `dims` (`None`: all) with `correction` subtracted from
    /// the count, PyTorch's `var(dim, correction=, keepdim)`; `unbiased=True`
    /// is correction 1.
    pub fn var(&self, dims: Option<&[i64]>, correction: f64, keepdim: bool) -> Result<Tensor> {
        let dims = ReduceOp::dims_or_all(dims, self, keepdim)?;
        reduce(self, ReduceOp::Var(dims, correction))
    }

    /// Standard deviation, PyTorch's `std(dim, correction=, keepdim)`.
    pub fn std(&self, dims: Option<&[i64]>, correction: f64, keepdim: bool) -> Result<Tensor> {
        let dims = ReduceOp::dims_or_all(dims, self, keepdim)?;
        reduce(self, ReduceOp::Std(dims, correction))
    }

    /// The `ord`-norm over `dims` (`None`: all), PyTorch's
    /// `torch.linalg.vector_norm(x, ord, dim, keepdim)`, which `x.norm(p)`
    /// calls: ord 2 by default, inf and -inf for max and min of `|x|`, 0
    /// for the count of nonzeros.
    pub fn norm(&self, ord: f64, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
        let dims = ReduceOp::dims_or_all(dims, self, keepdim)?;
        reduce(self, ReduceOp::Norm(ord, dims))
    }

    /// Product of all elements, PyTorch's `prod()`.
    pub fn prod(&self) -> Result<Tensor> {
        reduce(self, ReduceOp::Prod)
    }

    /// Product along `dim`, PyTorch's `prod(dim, keepdim)`.
    pub fn prod_dim(&self, dim: i64, keepdim: bool) -> Result<Tensor> {
        let dims = Dims::new(&[dim], self.shape(), keepdim)?;
        reduce(self, ReduceOp::ProdDim(dims))
    }

    /// `log(sum(exp(x)))` over `dims`, computed without overflow, PyTorch's
    /// `logsumexp(dim, keepdim)`; integer inputs give the default float dtype.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1000.0f32, 1000.0], &[2])?;
    /// let y = x.logsumexp(&[0], false)?.item()?;
    /// assert!((y - (1000.0 + 2f64.ln())).abs() < 1e-3);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn logsumexp(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        reduce(
            self,
            ReduceOp::Logsumexp(Dims::new(dims, self.shape(), keepdim)?),
        )
    }
}
