//! Comparisons and logical ops: results are bool and never need a gradient,
//! so they are plain functions, not recorded ops. Operands broadcast, and
//! comparisons happen in the promoted dtype, as in PyTorch (`int_tensor ==
//! 1.5` compares as float32).

use std::rc::Rc;

use gradscope_trace::EventKind;

use super::arith::elements;
use super::new_tensor;
use crate::cpu::unary::{map, map2};
use crate::cpu::{CpuBuffer, Element};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::{Layout, broadcast_shapes};
use crate::tensor::Tensor;
use crate::trace;

/// A comparison, PyTorch's `eq ne lt le gt ge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CompareOp {
    /// PyTorch's op name.
    pub fn name(self) -> &'static str {
        match self {
            CompareOp::Eq => "eq",
            CompareOp::Ne => "ne",
            CompareOp::Lt => "lt",
            CompareOp::Le => "le",
            CompareOp::Gt => "gt",
            CompareOp::Ge => "ge",
        }
    }

    /// The device kernel computing it.
    fn kernel(self) -> crate::backend::CompareKernel {
        use crate::backend::CompareKernel as K;
        match self {
            CompareOp::Eq => K::Eq,
            CompareOp::Ne => K::Ne,
            CompareOp::Lt => K::Lt,
            CompareOp::Le => K::Le,
            CompareOp::Gt => K::Gt,
            CompareOp::Ge => K::Ge,
        }
    }
}

/// A logical op on truth values (nonzero is true), PyTorch's `logical_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogicalOp {
    /// `logical_and`
    And,
    /// `logical_or`
    Or,
    /// `logical_xor`
    Xor,
}

impl LogicalOp {
    /// PyTorch's op name.
    pub fn name(self) -> &'static str {
        match self {
            LogicalOp::And => "logical_and",
            LogicalOp::Or => "logical_or",
            LogicalOp::Xor => "logical_xor",
        }
    }

    fn apply(self, a: bool, b: bool) -> bool {
        match self {
            LogicalOp::And => a & b,
            LogicalOp::Or => a | b,
            LogicalOp::Xor => a ^ b,
        }
    }
}

fn truth<T: Element>(v: T) -> bool {
    // `NaN != 0`, so NaN is true, as in PyTorch.
    v != T::default()
}

fn emit(op: &'static str, out: &Tensor) {
    trace::emit(|| EventKind::OpCalled {
        op: op.into(),
        shape: out.shape().to_vec(),
    });
}

fn bool_tensor(values: Vec<bool>, shape: &[usize], op: &'static str) -> Tensor {
    let out = new_tensor(CpuBuffer::Bool(values), shape);
    emit(op, &out);
    out
}

impl Tensor {
    /// Elementwise comparison with broadcasting, in the dtype the operands
    /// promote to; the result is bool.
    pub fn compare(&self, op: CompareOp, other: &Tensor) -> Result<Tensor> {
        let _on = crate::device::Scope::new(crate::device::common([self, other])?);
        let shape = broadcast_shapes(self.shape(), other.shape())?;
        let dtype = DType::result_type(&[
            (self.dtype(), self.promotion_priority()),
            (other.dtype(), other.promotion_priority()),
        ]);
        let a = (&**self.storage(), self.layout());
        let b = (&**other.storage(), other.layout());
        let out = crate::kernels::run(|k| k.compare(op.kernel(), a, b, &shape, dtype))?;
        if out.device() == crate::Device::WebGpu {
            crate::device::check_device_error()?;
        }
        let out = Tensor::from_parts(Rc::new(out), Layout::contiguous(&shape));
        emit(op.name(), &out);
        Ok(out)
    }

    /// `self == other`, PyTorch's `eq`.
    pub fn eq(&self, other: &Tensor) -> Result<Tensor> {
        self.compare(CompareOp::Eq, other)
    }

    /// `self != other`, PyTorch's `ne`.
    pub fn ne(&self, other: &Tensor) -> Result<Tensor> {
        self.compare(CompareOp::Ne, other)
    }

    /// `self < other`, PyTorch's `lt`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![0i64, 1, 2], &[3])?;
    /// assert_eq!(x.lt(&Tensor::scalar(1.5))?.to_vec::<bool>(), vec![true, true, false]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn lt(&self, other: &Tensor) -> Result<Tensor> {
        self.compare(CompareOp::Lt, other)
    }

    /// `self <= other`, PyTorch's `le`.
    pub fn le(&self, other: &Tensor) -> Result<Tensor> {
        self.compare(CompareOp::Le, other)
    }

    /// `self > other`, PyTorch's `gt`.
    pub fn gt(&self, other: &Tensor) -> Result<Tensor> {
        self.compare(CompareOp::Gt, other)
    }

    /// `self >= other`, PyTorch's `ge`.
    pub fn ge(&self, other: &Tensor) -> Result<Tensor> {
        self.compare(CompareOp::Ge, other)
    }

    /// Elementwise logical op on truth values (nonzero is true) with
    /// broadcasting; the result is bool.
    pub fn logical(&self, op: LogicalOp, other: &Tensor) -> Result<Tensor> {
        let _on = crate::device::Scope::new(crate::device::common([self, other])?);
        let shape = broadcast_shapes(self.shape(), other.shape())?;
        let (a, al) = elements(self, self.dtype(), &shape)?;
        let (b, bl) = elements(other, other.dtype(), &shape)?;
        fn go<A: Element>(
            op: LogicalOp,
            a: &[A],
            al: &crate::Layout,
            b: &CpuBuffer,
            bl: &crate::Layout,
        ) -> Vec<bool> {
            crate::cpu_dispatch!(b, b => map2(a, al, b, bl, |x, y| op.apply(truth(x), truth(y))))
        }
        let out = crate::cpu_dispatch!(&*a, a => go(op, a, &al, &b, &bl));
        Ok(bool_tensor(out, &shape, op.name()))
    }

    /// PyTorch's `logical_and`.
    pub fn logical_and(&self, other: &Tensor) -> Result<Tensor> {
        self.logical(LogicalOp::And, other)
    }

    /// PyTorch's `logical_or`.
    pub fn logical_or(&self, other: &Tensor) -> Result<Tensor> {
        self.logical(LogicalOp::Or, other)
    }

    /// PyTorch's `logical_xor`.
    pub fn logical_xor(&self, other: &Tensor) -> Result<Tensor> {
        self.logical(LogicalOp::Xor, other)
    }

    /// Whether each element is zero, PyTorch's `logical_not` (`~` on bool).
    pub fn logical_not(&self) -> Result<Tensor> {
        self.elementwise_predicate("logical_not", |v| !truth(v), |v| !truth(v))
    }

    /// PyTorch's `isnan`.
    pub fn isnan(&self) -> Result<Tensor> {
        self.elementwise_predicate("isnan", f64::is_nan, |_| false)
    }

    /// PyTorch's `isinf`.
    pub fn isinf(&self) -> Result<Tensor> {
        self.elementwise_predicate("isinf", f64::is_infinite, |_| false)
    }

    /// PyTorch's `isfinite`.
    pub fn isfinite(&self) -> Result<Tensor> {
        self.elementwise_predicate("isfinite", f64::is_finite, |_| true)
    }

    /// An elementwise predicate: `float` on float elements (widened to
    /// `f64`, which keeps NaN, infinities and zeros as they are), `exact`
    /// on integers and bools.
    fn elementwise_predicate(
        &self,
        op: &'static str,
        float: impl Fn(f64) -> bool,
        exact: impl Fn(i64) -> bool,
    ) -> Result<Tensor> {
        let _on = crate::device::Scope::new(self.device());
        let data = self.storage().data();
        let layout = self.layout();
        let out = match &*data {
            CpuBuffer::F32(d) => map(d, layout, |v| float(f64::from(v))),
            CpuBuffer::F64(d) => map(d, layout, &float),
            CpuBuffer::BF16(d) => map(d, layout, |v| float(f64::from(v.to_f32()))),
            CpuBuffer::I64(d) => map(d, layout, &exact),
            CpuBuffer::U8(d) => map(d, layout, |v| exact(i64::from(v))),
            CpuBuffer::I8(d) => map(d, layout, |v| exact(i64::from(v))),
            CpuBuffer::I16(d) => map(d, layout, |v| exact(i64::from(v))),
            CpuBuffer::I32(d) => map(d, layout, |v| exact(i64::from(v))),
            CpuBuffer::Bool(d) => map(d, layout, |v| exact(i64::from(v))),
        };
        Ok(bool_tensor(out, self.shape(), op))
    }
}
