//! Backward of reductions, as PyTorch's `derivatives.yaml` and
//! `FunctionsManual.cpp` write them. The gradient of a reduction over
//! dimensions first gets those dimensions back as size 1 (`restore`, PyTorch's
//! `unsqueeze_multiple`) so it broadcasts against the input.
//!
//! Subgradient choices, as PyTorch's: `max()`/`amax` split the gradient
//! evenly between tied extremes; `max(dim)` sends it to the index it
//! returned; norms send 0 where the norm is 0.

use super::BackwardInputs;
use crate::cpu::CpuBuffer;
use crate::cpu::reduce::{one_hot, other_zeros, tie_shares};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::ReduceOp;
use crate::ops::reduce::{Dims, Indices};
use crate::tensor::Tensor;

pub(super) fn backward(op: &ReduceOp, b: &BackwardInputs<'_>) -> Result<Vec<Option<Tensor>>> {
    let grad = b.grad;
    let shape = b.shape(0);
    let all = Dims::all(shape, false);
    let x = || b.input(0);
    let result = || b.result();
    let grad_in = match op {
        // self: grad.expand(self.sizes())
        ReduceOp::Sum | ReduceOp::SumToSize(_) => b.when(0, || grad.expand(shape))?,
        ReduceOp::SumDim(dims) => b.when(0, || restore(grad, dims)?.expand(shape))?,
        // self: grad.expand(self.sizes()) / N
        ReduceOp::Mean => b.when(0, || mean_backward(grad, shape, &all))?,
        ReduceOp::MeanDim(dims) => b.when(0, || mean_backward(grad, shape, dims))?,
        // self: evenly_distribute_backward(grad, self, result)
        ReduceOp::Extreme(_) => b.when(0, || grad.mul(&ties(x()?, result()?, &all, false)?))?,
        // self: value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim)
        ReduceOp::ExtremeDim {
            dim,
            keepdim,
            indices,
            ..
        } => b.when(0, || {
            let dims = Dims {
                dims: if shape.is_empty() { vec![] } else { vec![*dim] },
                keepdim: *keepdim,
            };
            restore(grad, &dims)?.mul(&selected(indices, shape, &dims, grad.dtype())?)
        })?,
        // self: scale_grad_by_count(restore_reduced_dims(grad), result == self, dim)
        ReduceOp::Amax(_, dims) => b.when(0, || {
            restore(grad, dims)?.mul(&ties(x()?, result()?, dims, false)?)
        })?,
        // self: var_backward(grad, self, dim, correction, keepdim)
        ReduceOp::Var(dims, correction) => b.when(0, || {
            var_backward(&restore(grad, dims)?, x()?, dims, *correction)
        })?,
        // self: std_backward(result, grad, self, dim, correction, keepdim)
        ReduceOp::Std(dims, correction) => b.when(0, || {
            let result = result()?;
            let (zero, nonzero) = zero_masks(result)?;
            let grad_var = grad
                .div(&result.mul(&Tensor::scalar(2.0))?.add(&zero)?)?
                .mul(&nonzero)?;
            var_backward(&restore(&grad_var, dims)?, x()?, dims, *correction)
        })?,
        // self: linalg_vector_norm_backward(grad, self, ord, result, dim, keepdim)
        ReduceOp::Norm(p, dims) if *p == 0.0 => None,
        ReduceOp::Norm(p, dims) => b.when(0, || norm_backward(grad, x()?, b, *p, dims))?,
        // self: prod_backward(grad, self, result)
        ReduceOp::Prod => b.when(0, || prod_backward(grad, x()?, result()?, &all))?,
        ReduceOp::ProdDim(dims) => b.when(0, || prod_backward(grad, x()?, result()?, dims))?,
        // self: logsumexp_backward(grad, self, result, dim, keepdim)
        ReduceOp::Logsumexp(dims) => b.when(0, || {
            let shifted = x()?.sub(&restore(result()?, dims)?)?;
            restore(grad, dims)?.mul(&shifted.exp()?)
        })?,
    };
    Ok(vec![grad_in])
}

/// The reduced dimensions put back as size 1, PyTorch's `unsqueeze_multiple`.
fn restore(t: &Tensor, dims: &Dims) -> Result<Tensor> {
    if dims.keepdim {
        return Ok(t.clone());
    }
    dims.dims
        .iter()
        .try_fold(t.clone(), |t, &d| t.unsqueeze(d as i64))
}

fn mean_backward(grad: &Tensor, shape: &[usize], dims: &Dims) -> Result<Tensor> {
    let count = dims.count(shape) as f64;
    restore(grad, dims)?
        .expand(shape)?
        .div(&Tensor::scalar(count))
}

/// `(2 / (N - correction)) * grad * (self - self.mean(dim, keepdim=True))`
fn var_backward(grad: &Tensor, x: &Tensor, dims: &Dims, correction: f64) -> Result<Tensor> {
    let n = dims.count(x.shape()) as f64;
    let dims_i64: Vec<i64> = dims.dims.iter().map(|&d| d as i64).collect();
    let centered = if dims_i64.is_empty() {
        x.sub(x)?
    } else {
        x.sub(&x.mean_dim(&dims_i64, true)?)?
    };
    let scale = Tensor::scalar(2.0 / (n - correction).max(0.0));
    grad.mul(&scale)?.mul(&centered)
}

/// PyTorch's `norm_backward` for `ord != 0`.
fn norm_backward(
    grad: &Tensor,
    x: &Tensor,
    b: &BackwardInputs<'_>,
    p: f64,
    dims: &Dims,
) -> Result<Tensor> {
    let grad = restore(grad, dims)?;
    if p == 1.0 {
        return grad.mul(&x.sign()?);
    }
    let norm = restore(b.result()?, dims)?;
    if p.is_infinite() {
        return grad.mul(&ties(x, &norm, dims, true)?);
    }
    let (zero, nonzero) = zero_masks(&norm)?;
    if p == 2.0 {
        // grad * (self / norm).masked_fill_(norm == 0, 0); self is 0 there.
        return grad.mul(&x.div(&norm.add(&zero)?)?);
    }
    // sgn(self) * |self|^(p - 1), 0 where self is 0 (for p < 1 it is inf).
    let scaled = x.sign()?.mul(&x.abs()?.pow(&Tensor::scalar(p - 1.0))?)?;
    let scaled = if p < 1.0 {
        scaled.mul(&zero_masks(x)?.1)?
    } else {
        scaled
    };
    // grad / norm^(p - 1), 0 where the norm is 0.
    let scale = grad
        .div(&norm.add(&zero)?.pow(&Tensor::scalar(p - 1.0))?)?
        .mul(&nonzero)?;
    scaled.mul(&scale)
}

/// PyTorch's `prod_backward`: `grad * result / self` without zeros; with
/// zeros, each element's gradient is the product of the others, written so
/// that its own first derivative is right too (PyTorch's double backward).
fn prod_backward(grad: &Tensor, x: &Tensor, result: &Tensor, dims: &Dims) -> Result<Tensor> {
    let grad = restore(grad, dims)?;
    if !x.to_vec::<f64>().contains(&0.0) {
        return grad.mul(&restore(result, dims)?)?.div(x);
    }
    // The product of the others is prod(safe) / safe (zeros replaced by
    // ones) times the product of the other zeros, Z. Every zero is 0 here, so
    // Z is 1 with no other zero, the other zero itself with one, and 0 with
    // its first derivatives 0 with more: Z = [none] + [one] * (sum of the
    // other zeros' values).
    let (zero, _) = zero_masks(x)?;
    let safe = x.add(&zero)?;
    let product = dims
        .dims
        .iter()
        .rev()
        .try_fold(safe.clone(), |p, &d| p.prod_dim(d as i64, true))?;
    let mask = dims.mask(x.shape().len());
    let counts = constant(
        other_zeros(&x.storage().data(), x.layout(), &mask),
        x.shape(),
        x.dtype(),
    )?;
    let none = map(&counts, |c| f64::from(u8::from(c == 0.0)))?;
    let one = map(&counts, |c| f64::from(u8::from(c == 1.0)))?;
    let at_zeros = x.mul(&zero)?;
    let reduced: Vec<i64> = dims.dims.iter().map(|&d| d as i64).collect();
    let others = at_zeros.sum_dim(&reduced, true)?.sub(&at_zeros)?;
    let z = none.add(&one.mul(&others)?)?;
    grad.mul(&product.div(&safe)?)?.mul(&z)
}

/// A constant (no history) of `like`'s shape and dtype holding `f` of its
/// elements.
fn map(like: &Tensor, f: impl Fn(f64) -> f64) -> Result<Tensor> {
    let values = like.to_vec::<f64>().into_iter().map(f).collect();
    constant(values, like.shape(), like.dtype())
}

fn constant(values: Vec<f64>, shape: &[usize], dtype: DType) -> Result<Tensor> {
    let buffer = match dtype {
        DType::Float32 => CpuBuffer::F32(values.into_iter().map(|v| v as f32).collect()),
        // float64, and bfloat16 rounded from it.
        _ => CpuBuffer::F64(values).into_dtype(dtype),
    };
    Tensor::from_buffer(buffer, shape)
}

/// Where `t` is 0 and where it is not, as constant 1/0 tensors.
fn zero_masks(t: &Tensor) -> Result<(Tensor, Tensor)> {
    Ok((
        map(t, |v| f64::from(u8::from(v == 0.0)))?,
        map(t, |v| f64::from(u8::from(v != 0.0)))?,
    ))
}

/// Each element's share of its slice's gradient among tied extremes of
/// `x` (by magnitude, signed, with `abs`), constant.
fn ties(x: &Tensor, result: &Tensor, dims: &Dims, abs: bool) -> Result<Tensor> {
    let mask = dims.mask(x.shape().len());
    let shares = tie_shares(
        &x.storage().data(),
        x.layout(),
        &mask,
        &result.to_vec::<f64>(),
        abs,
    );
    constant(shares, x.shape(), x.dtype())
}

/// 1 where `max(dim)` found each slice's value, 0 elsewhere.
fn selected(indices: &Indices, shape: &[usize], dims: &Dims, dtype: DType) -> Result<Tensor> {
    let indices = indices
        .get()
        .ok_or_else(|| Error::Backend("internal error: max(dim) saved no indices".into()))?;
    let mask = dims.mask(shape.len());
    constant(
        one_hot(shape, &mask, &indices.to_vec::<i64>()),
        shape,
        dtype,
    )
}
