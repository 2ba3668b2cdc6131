//! Rounding division of integer tensors: `//` (`floor_divide`), `div` with
//! `rounding_mode='trunc'`, `%` (`remainder`) and `fmod`, computed in
//! integers as PyTorch's CPU kernels compute them. Integer results never
//! need a gradient, so these are plain functions, not recorded ops; the
//! floating point forms are composed in the Python layer with their nodes.

use std::cell::Cell;

use gradscope_trace::EventKind;

use super::arith::elements;
use super::new_tensor;
use crate::cpu::CpuBuffer;
use crate::cpu::unary::map2;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use crate::tensor::Tensor;
use crate::trace;

/// Which rounding division, PyTorch's `div_floor`, `div_trunc`,
/// `remainder` and `fmod` kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntDivision {
    /// `a // b`, `torch.floor_divide`, `div(rounding_mode='floor')`.
    Floor,
    /// `div(rounding_mode='trunc')`: the quotient rounded toward zero.
    Trunc,
    /// `a % b`, `torch.remainder`: the sign of the divisor.
    Remainder,
    /// `torch.fmod`: the sign of the dividend.
    Fmod,
}

impl IntDivision {
    /// PyTorch's op name, as the trace records it.
    pub fn name(self) -> &'static str {
        match self {
            IntDivision::Floor => "floor_divide",
            IntDivision::Trunc => "div",
            IntDivision::Remainder => "remainder",
            IntDivision::Fmod => "fmod",
        }
    }

    /// The CPU kernel's name, which PyTorch's error for bool names.
    fn kernel(self) -> &'static str {
        match self {
            IntDivision::Floor => "div_floor_cpu",
            IntDivision::Trunc => "div_trunc_cpu",
            IntDivision::Remainder => "remainder_cpu",
            IntDivision::Fmod => "fmod_cpu",
        }
    }

    /// One element, `b` nonzero. Wrapping: `i64::MIN // -1` is `i64::MIN`
    /// in PyTorch too (narrow dtypes wrap when cast back).
    fn apply(self, a: i64, b: i64) -> i64 {
        let (quot, rem) = (a.wrapping_div(b), a.wrapping_rem(b));
        let signs_differ = (rem < 0) != (b < 0);
        match self {
            IntDivision::Trunc => quot,
            IntDivision::Fmod => rem,
            // c10's div_floor_integer: one less when the signs differ and
            // the division is inexact.
            IntDivision::Floor if rem != 0 && signs_differ => quot.wrapping_sub(1),
            IntDivision::Floor => quot,
            IntDivision::Remainder if rem != 0 && signs_differ => rem.wrapping_add(b),
            IntDivision::Remainder => rem,
        }
    }
}

impl Tensor {
    /// `self // other`, `self % other`, `fmod` or truncating `div` of
    /// integer tensors (or an integer tensor and a wrapped Python int), with
    /// broadcasting and PyTorch's type promotion: the operands are cast to
    /// the result dtype first (`uint8 // -2` divides by 254, as PyTorch's),
    /// then divided exactly in integers. A zero divisor raises PyTorch's
    /// RuntimeError "ZeroDivisionError"; bool operands its
    /// NotImplementedError. Operands that promote to a floating point dtype
    /// are refused: those forms are composed with their gradients elsewhere.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// use gradscope_core::ops::int_division::IntDivision;
    /// let x = Tensor::from_vec(vec![4294967295i64, -7], &[2])?;
    /// let q = x.int_division(&Tensor::scalar_int(3), IntDivision::Floor)?;
    /// assert_eq!(q.to_vec::<i64>(), vec![1431655765, -3]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn int_division(&self, other: &Tensor, mode: IntDivision) -> Result<Tensor> {
        let _on = crate::device::Scope::new(crate::device::common([self, other])?);
        let shape = broadcast_shapes(self.shape(), other.shape())?;
        let dtype = DType::result_type(&[
            (self.dtype(), self.promotion_priority()),
            (other.dtype(), other.promotion_priority()),
        ]);
        if dtype == DType::Bool {
            return Err(Error::KernelDtype {
                kernel: mode.kernel(),
                dtype,
            });
        }
        if dtype.is_float() {
            return Err(Error::Internal(format!(
                "integer {} of {dtype} operands",
                mode.name()
            )));
        }
        let (l, ll) = elements(self, DType::Int64, &shape)?;
        let (r, rl) = elements(other, DType::Int64, &shape)?;
        let (CpuBuffer::I64(l), CpuBuffer::I64(r)) = (&*l, &*r) else {
            return Err(Error::Internal(format!(
                "{} operands not widened",
                mode.name()
            )));
        };
        let zero = Cell::new(false);
        let out = map2(l, &ll, r, &rl, |x, y| {
            // Each operand as the result dtype holds it, then divided.
            let (x, y) = (wrap(x, dtype), wrap(y, dtype));
            if y == 0 {
                zero.set(true);
                0
            } else {
                mode.apply(x, y)
            }
        });
        if zero.get() {
            return Err(Error::ZeroDivision);
        }
        let out = new_tensor(CpuBuffer::I64(out).into_dtype(dtype), &shape);
        trace::emit(|| EventKind::OpCalled {
            op: mode.name().into(),
            shape: out.shape().to_vec(),
        });
        Ok(out)
    }
}

/// `v` as an integer `dtype` holds it: PyTorch casts each operand to the
/// result dtype before dividing (`uint8 // -2` divides by 254).
fn wrap(v: i64, dtype: DType) -> i64 {
    match dtype {
        DType::UInt8 => i64::from(v as u8),
        DType::Int8 => i64::from(v as i8),
        DType::Int16 => i64::from(v as i16),
        DType::Int32 => i64::from(v as i32),
        _ => v,
    }
}
