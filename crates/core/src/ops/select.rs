//! Elementwise selection: `maximum`, `minimum`, `where`, and `clamp` with
//! tensor bounds. Their gradients pick, per element, which input the result
//! came from; ties split the gradient between the tied inputs, as PyTorch.

use std::rc::Rc;

use super::arith::{Scalar, elements};
use super::{Op, OpInfo, SavedSlot, apply, new_tensor};
use crate::cpu::unary::{map2, map3};
use crate::cpu::{CpuBuffer, Element, Float};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped, tensor_kernels};
use crate::layout::{Layout, broadcast_shapes};
use crate::tensor::Tensor;

/// A selection op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectOp {
    /// `maximum(self, other)`, NaN-propagating: `MaximumBackward0`.
    Maximum,
    /// `minimum(self, other)`: `MinimumBackward0`.
    Minimum,
    /// `where(condition, self, other)` with inputs `[self, other, condition]`:
    /// `WhereBackward0`. PyTorch lists only `self` and `other` as next
    /// functions; here the condition's edge is a trailing `None`.
    Where,
    /// `clamp_min(self, min)` with a tensor bound: `ClampMinBackward1`.
    ClampMin,
    /// `clamp_max(self, max)` with a tensor bound: `ClampMaxBackward1`.
    ClampMax,
    /// `clamp(self, min, max)` with tensor bounds, inputs `[self, min, max]`;
    /// an absent bound is an undefined input (a `None` edge), as in PyTorch:
    /// `ClampBackward0`.
    Clamp {
        /// Whether `min` was given.
        min: bool,
        /// Whether `max` was given.
        max: bool,
    },
}

impl OpInfo for SelectOp {
    fn node_name(&self) -> &'static str {
        match self {
            SelectOp::Maximum => "MaximumBackward0",
            SelectOp::Minimum => "MinimumBackward0",
            SelectOp::Where => "WhereBackward0",
            SelectOp::ClampMin => "ClampMinBackward1",
            SelectOp::ClampMax => "ClampMaxBackward1",
            SelectOp::Clamp { .. } => "ClampBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            SelectOp::Maximum => "maximum",
            SelectOp::Minimum => "minimum",
            SelectOp::Where => "where",
            SelectOp::ClampMin => "clamp_min",
            SelectOp::ClampMax => "clamp_max",
            SelectOp::Clamp { .. } => "clamp",
        }
    }

    fn is_differentiable_input(&self, i: usize) -> bool {
        // where's condition (input 2) is a mask.
        !(matches!(self, SelectOp::Where) && i == 2)
    }

    fn arity(&self) -> usize {
        match self {
            SelectOp::Maximum | SelectOp::Minimum | SelectOp::ClampMin | SelectOp::ClampMax => 2,
            SelectOp::Where | SelectOp::Clamp { .. } => 3,
        }
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        let input = SavedSlot::Input;
        match *self {
            // Masks compare both operands, whichever needs a gradient.
            SelectOp::Maximum | SelectOp::Minimum | SelectOp::ClampMin | SelectOp::ClampMax => {
                vec![input(0), input(1)]
            }
            // self: where(condition, grad, 0); other: where(condition, 0, grad)
            SelectOp::Where => vec![input(2)],
            SelectOp::Clamp { min, max } => {
                let bounds = [(input(1), min), (input(2), max)];
                let present = bounds.into_iter().filter(|b| b.1).map(|b| b.0);
                std::iter::once(input(0)).chain(present).collect()
            }
        }
    }
}

/// Whether `v` is NaN: the one value unordered with itself (ints never are).
fn is_nan<T: Element>(v: T) -> bool {
    v.partial_cmp(&v).is_none()
}

/// The larger operand, or the NaN if either is one: `maximum`'s element.
fn larger<T: Element>(a: T, b: T) -> T {
    match (is_nan(a), is_nan(b)) {
        (true, _) => a,
        (_, true) => b,
        _ if a < b => b,
        _ => a,
    }
}

/// The smaller operand, or the NaN if either is one: `minimum`'s element.
fn smaller<T: Element>(a: T, b: T) -> T {
    match (is_nan(a), is_nan(b)) {
        (true, _) => a,
        (_, true) => b,
        _ if b < a => b,
        _ => a,
    }
}

fn clamp_both<T: Float>(x: T, lo: T, hi: T) -> T {
    if x.is_nan() || lo.is_nan() || hi.is_nan() {
        return T::nan();
    }
    // min(max(x, lo), hi): a lower bound above the upper one yields the upper.
    smaller(larger(x, lo), hi)
}

impl SelectOp {
    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [this, other] = match ins {
            [a, b] | [a, b, _] => [*a, *b],
            _ => return Err(self.internal("inputs")),
        };
        if let (SelectOp::Where, [_, _, condition]) = (self, ins) {
            return where_forward(condition, this, other);
        }
        if let (
            SelectOp::Clamp {
                min: true,
                max: true,
            },
            [_, _, max],
        ) = (self, ins)
        {
            return clamp_forward(this, other, max);
        }
        // One bound of `clamp` behaves as `clamp_min` or `clamp_max`.
        let (bound, pick_larger) = match (self, ins) {
            (SelectOp::Maximum | SelectOp::ClampMin, _)
            | (SelectOp::Clamp { min: true, .. }, _) => (other, true),
            (SelectOp::Minimum | SelectOp::ClampMax, _) => (other, false),
            (SelectOp::Clamp { max: true, .. }, [_, _, max]) => (*max, false),
            _ => return Err(self.internal("bounds")),
        };
        let shape = broadcast_shapes(this.shape(), bound.shape())?;
        let dtype = DType::result_type(&[
            (this.dtype(), this.promotion_priority()),
            (bound.dtype(), bound.promotion_priority()),
        ]);
        let kernel = match pick_larger {
            true => crate::BinaryOp::Maximum,
            false => crate::BinaryOp::Minimum,
        };
        let on_device = |k: &dyn Kernels| {
            let out = k.binary(kernel, operand(this), operand(bound), &shape, dtype)?;
            Ok(shaped(out, &shape))
        };
        kernels::run_or(on_device, || {
            self.bound_on_host(this, bound, &shape, dtype, pick_larger)
        })
    }

    /// `maximum` or `minimum` on the host.
    fn bound_on_host(
        &self,
        this: &Tensor,
        bound: &Tensor,
        shape: &[usize],
        dtype: DType,
        pick_larger: bool,
    ) -> Result<Tensor> {
        let (a, al) = elements(this, dtype, shape)?;
        let (b, bl) = elements(bound, dtype, shape)?;
        fn go<T: Element>(a: &[T], al: &Layout, b: &[T], bl: &Layout, pick_larger: bool) -> Vec<T> {
            if pick_larger {
                map2(a, al, b, bl, larger)
            } else {
                map2(a, al, b, bl, smaller)
            }
        }
        let out = crate::cpu_dispatch_pair!((&*a, &*b),
            (x, y) => Element::into_buffer(go(x, &al, y, &bl, pick_larger)),
            _ => return Err(self.internal("dtypes")));
        Ok(new_tensor(out, shape))
    }

    fn internal(&self, what: &str) -> Error {
        Error::Backend(format!(
            "internal error: {} got unexpected {what}",
            self.name()
        ))
    }
}

fn where_forward(condition: &Tensor, this: &Tensor, other: &Tensor) -> Result<Tensor> {
    if condition.dtype() != DType::Bool {
        return Err(Error::WhereCondition {
            dtype: condition.dtype(),
        });
    }
    let shape = broadcast_shapes(
        &broadcast_shapes(condition.shape(), this.shape())?,
        other.shape(),
    )?;
    let dtype = DType::result_type(&[
        (this.dtype(), this.promotion_priority()),
        (other.dtype(), other.promotion_priority()),
    ]);
    let (c, a, b) = (operand(condition), operand(this), operand(other));
    let out = crate::kernels::run(|k| k.where_cond(c, a, b, &shape, dtype))?;
    Ok(Tensor::from_parts(Rc::new(out), Layout::contiguous(&shape)))
}

fn clamp_forward(this: &Tensor, min: &Tensor, max: &Tensor) -> Result<Tensor> {
    let shape = broadcast_shapes(&broadcast_shapes(this.shape(), min.shape())?, max.shape())?;
    let dtype = DType::result_type(&[
        (this.dtype(), this.promotion_priority()),
        (min.dtype(), min.promotion_priority()),
        (max.dtype(), max.promotion_priority()),
    ]);
    // min(max(x, lo), hi) by two kernels; a NaN anywhere survives both.
    let on_device = |k: &dyn Kernels| {
        let (binary, ..) = tensor_kernels(k);
        let Some(low) = binary(crate::BinaryOp::Maximum, this, min, &shape, dtype)? else {
            return Ok(None);
        };
        binary(crate::BinaryOp::Minimum, &low, max, &shape, dtype)
    };
    kernels::run_or(on_device, || clamp_on_host(this, min, max, &shape, dtype))
}

/// [`clamp_forward`] on the host.
fn clamp_on_host(
    this: &Tensor,
    min: &Tensor,
    max: &Tensor,
    shape: &[usize],
    dtype: DType,
) -> Result<Tensor> {
    // Narrow integers clamp in int64; the result is cast back below.
    let compute = dtype.widened();
    let (x, xl) = elements(this, compute, shape)?;
    let (lo, ll) = elements(min, compute, shape)?;
    let (hi, hl) = elements(max, compute, shape)?;
    let out = match (&*x, &*lo, &*hi) {
        (CpuBuffer::F32(x), CpuBuffer::F32(l), CpuBuffer::F32(h)) => {
            CpuBuffer::F32(map3((x, &xl), (l, &ll), (h, &hl), clamp_both))
        }
        (CpuBuffer::F64(x), CpuBuffer::F64(l), CpuBuffer::F64(h)) => {
            CpuBuffer::F64(map3((x, &xl), (l, &ll), (h, &hl), clamp_both))
        }
        (CpuBuffer::I64(x), CpuBuffer::I64(l), CpuBuffer::I64(h)) => {
            CpuBuffer::I64(map3((x, &xl), (l, &ll), (h, &hl), |x, l, h| {
                x.max(l).min(h)
            }))
        }
        (CpuBuffer::Bool(x), CpuBuffer::Bool(l), CpuBuffer::Bool(h)) => {
            CpuBuffer::Bool(map3((x, &xl), (l, &ll), (h, &hl), |x, l, h| (x | l) & h))
        }
        _ => {
            return Err(SelectOp::Clamp {
                min: true,
                max: true,
            }
            .internal("dtypes"));
        }
    };
    Ok(new_tensor(out.into_dtype(dtype), shape))
}

impl Tensor {
    /// The elementwise larger of two tensors (NaN if either is), PyTorch's
    /// `torch.maximum`; tied elements share the gradient equally.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let a = Tensor::from_vec(vec![1.0f32, 5.0], &[2])?;
    /// let b = Tensor::from_vec(vec![3.0f32, 2.0], &[2])?;
    /// assert_eq!(a.maximum(&b)?.to_vec::<f32>(), vec![3.0, 5.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn maximum(&self, other: &Tensor) -> Result<Tensor> {
        apply(Op::Select(SelectOp::Maximum), &[self, other])
    }

    /// The elementwise smaller of two tensors, PyTorch's `torch.minimum`.
    pub fn minimum(&self, other: &Tensor) -> Result<Tensor> {
        apply(Op::Select(SelectOp::Minimum), &[self, other])
    }

    /// `self` where `condition` holds and `other` elsewhere, all three
    /// broadcast: PyTorch's `torch.where(condition, self, other)` and
    /// `self.where(condition, other)`. Python numbers come as wrapped scalars
    /// ([`Tensor::scalar`]).
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![-1.0f32, 2.0], &[2])?;
    /// let positive = x.gt(&Tensor::scalar(0.0))?;
    /// assert_eq!(x.where_cond(&positive, &Tensor::scalar(0.0))?.to_vec::<f32>(), vec![0.0, 2.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn where_cond(&self, condition: &Tensor, other: &Tensor) -> Result<Tensor> {
        apply(Op::Select(SelectOp::Where), &[self, other, condition])
    }

    /// PyTorch's `clamp(min, max)` with tensor bounds (`ClampBackward0`);
    /// bounds that are all wrapped numbers take the scalar overload
    /// ([`Tensor::clamp`], `ClampBackward1`), as PyTorch's argument parser does.
    pub fn clamp_tensor(&self, min: Option<&Tensor>, max: Option<&Tensor>) -> Result<Tensor> {
        let wrapped = |t: Option<&Tensor>| t.map(Scalar::from_wrapped);
        match (wrapped(min), wrapped(max)) {
            (None, None) => Err(Error::ClampNoBounds),
            (Some(Some(lo)), Some(Some(hi))) => self.clamp(Some(lo), Some(hi)),
            (Some(Some(lo)), None) => self.clamp(Some(lo), None),
            (None, Some(Some(hi))) => self.clamp(None, Some(hi)),
            _ => {
                // An absent bound is an input no gradient flows to.
                let undefined = self.detach();
                let op = SelectOp::Clamp {
                    min: min.is_some(),
                    max: max.is_some(),
                };
                let min = min.unwrap_or(&undefined);
                let max = max.unwrap_or(&undefined);
                apply(Op::Select(op), &[self, min, max])
            }
        }
    }

    /// PyTorch's `clamp_min(min)` with a tensor bound (`ClampMinBackward1`);
    /// a wrapped number takes the scalar overload.
    pub fn clamp_min_tensor(&self, min: &Tensor) -> Result<Tensor> {
        match Scalar::from_wrapped(min) {
            Some(min) => self.clamp_min(min),
            None => apply(Op::Select(SelectOp::ClampMin), &[self, min]),
        }
    }

    /// PyTorch's `clamp_max(max)` with a tensor bound (`ClampMaxBackward1`).
    pub fn clamp_max_tensor(&self, max: &Tensor) -> Result<Tensor> {
        match Scalar::from_wrapped(max) {
            Some(max) => self.clamp_max(max),
            None => apply(Op::Select(SelectOp::ClampMax), &[self, max]),
        }
    }
}
