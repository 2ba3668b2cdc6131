//! Arithmetic: `add sub mul div pow` with broadcasting and PyTorch's type
//! promotion, and the forms with a Python number on the left (`2 - x`,
//! `2 ** x`) that PyTorch records as nodes of their own.

use std::cell::Ref;
use std::ops::Deref;

use super::{Op, OpInfo, SavedSlot, apply, inputs, new_tensor};
use crate::cpu::unary::{map, map2, pow_scalar, powi};
use crate::cpu::{CpuBuffer, Float};
use crate::dtype::{DType, Priority};
use crate::error::{Error, Result};
use crate::kernels::{self, Kernels, operand, shaped};
use crate::layout::{Layout, broadcast_shapes};
use crate::tensor::Tensor;

/// A Python number where PyTorch takes a `Scalar` (`x ** 2`, `clamp(0, 1)`,
/// `alpha=2`); whether it is an int or a float decides type promotion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A Python `int`.
    Int(i64),
    /// A Python `float`.
    Float(f64),
}

impl Scalar {
    /// The value as `f64`, as PyTorch's `Scalar::toDouble`.
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Int(v) => v as f64,
            Scalar::Float(v) => v,
        }
    }

    /// The value as `i64`, truncating a float, as `Scalar::toLong`.
    pub fn to_i64(self) -> i64 {
        match self {
            Scalar::Int(v) => v,
            Scalar::Float(v) => v as i64,
        }
    }

    /// Whether it equals 1, the default `alpha`.
    pub(crate) fn is_one(self) -> bool {
        self.to_f64() == 1.0
    }

    /// Whether it is a Python `float`.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Float(_))
    }

    /// How the number takes part in type promotion: as a wrapped number.
    pub(crate) fn promotion(self) -> (DType, Priority) {
        let dtype = match self {
            Scalar::Int(_) => DType::Int64,
            Scalar::Float(_) => DType::Float64,
        };
        (dtype, Priority::Wrapped)
    }

    /// The number wrapped as a 0-dim tensor, as PyTorch wraps the `2` of `x * 2`.
    pub fn to_tensor(self) -> Tensor {
        match self {
            Scalar::Int(v) => Tensor::scalar_int(v),
            Scalar::Float(v) => Tensor::scalar(v),
        }
    }

    /// The number a wrapped Python number ([`Tensor::scalar`]) holds, if `t` is one.
    pub fn from_wrapped(t: &Tensor) -> Option<Scalar> {
        if !t.is_wrapped_number() {
            return None;
        }
        match t.dtype() {
            DType::Int64 => t.to_vec::<i64>().first().map(|&v| Scalar::Int(v)),
            DType::Float64 => t.to_vec::<f64>().first().map(|&v| Scalar::Float(v)),
            _ => None,
        }
    }
}

impl From<f64> for Scalar {
    fn from(v: f64) -> Self {
        Scalar::Float(v)
    }
}

impl From<i64> for Scalar {
    fn from(v: i64) -> Self {
        Scalar::Int(v)
    }
}

impl From<i32> for Scalar {
    fn from(v: i32) -> Self {
        Scalar::Int(v.into())
    }
}

/// A tensor's elements in some dtype: borrowed from its storage when it
/// already has that dtype, converted once otherwise.
#[derive(Debug)]
pub(crate) enum Elements<'a> {
    Stored(Ref<'a, CpuBuffer>),
    Converted(CpuBuffer),
}

impl Deref for Elements<'_> {
    type Target = CpuBuffer;

    fn deref(&self) -> &CpuBuffer {
        match self {
            Elements::Stored(b) => b,
            Elements::Converted(b) => b,
        }
    }
}

/// `t`'s elements as `dtype` and the layout that reads them broadcast to
/// `shape`. A conversion happens before broadcasting, so a wrapped number
/// converts one element, not one per output element.
pub(crate) fn elements<'a>(
    t: &'a Tensor,
    dtype: DType,
    shape: &[usize],
) -> Result<(Elements<'a>, Layout)> {
    let data = t.storage().data();
    if data.dtype() == dtype {
        return Ok((Elements::Stored(data), t.layout().broadcast_to(shape)?));
    }
    let converted = data.gather_as(t.layout(), dtype);
    let layout = Layout::contiguous(t.shape()).broadcast_to(shape)?;
    Ok((Elements::Converted(converted), layout))
}

/// A binary op's result dtype for its operands: a row's `dtype`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtypes {
    /// PyTorch's type promotion (`mul`); an `alpha` must be integral for
    /// an integer result (`add`).
    Promoted,
    /// Promotion, with bool operands refused (`sub`, `rsub`).
    NoBool,
    /// Promotion, integers and bools dividing into the default float (`div`).
    TrueDivision,
    /// Promotion, bools refused naming `pow`, and an integer to a negative
    /// integer power refused (`pow`).
    Power,
    /// Floats only; integers and bools refused naming PyTorch's CPU kernel.
    FloatOnly(&'static str),
}

/// The signature of a binary op's `Tensor` method.
pub type BinaryMethod = fn(&Tensor, &Tensor) -> Result<Tensor>;

/// Where gradcheck samples a binary op's inputs: a row's `samples`.
pub use super::unary::Domain;

/// Builds [`ArithOp`] and everything read off its rows. A row is
///
/// ```text
/// /// docs (of the variant and of a generated Tensor method)
/// Variant [{ fields }] [=> method] [name "...", node "...", arity N,
///     dtype ..., saves |needs| [(slot, when), ...],
///     kernel Option<(BinaryOp, swapped)>
///     (, alpha SCALAR) (, number (SCALAR, first))
///     (, python [("name", "param", Tensor::method), ...])
///     (, samples [[Domain, Domain], ...])]
/// ```
///
/// `saves` lists what backward reads given `needs(i)` (whether input `i`
/// needs a gradient), as `derivatives.yaml`'s formulas mention it; a row's
/// expressions may use its fields. `kernel` is the [`crate::BinaryOp`] that
/// computes the op (on the CPU and the GPU alike), `alpha` the factor of a
/// scaled operand, `number` a Python-number operand and whether it comes
/// first in promotion. `=> method` generates the `Tensor` method of an op
/// without attributes; `python` gives the Python bindings' rows
/// (`x.mul(y)`, `torch.mul(x, y)`) and `samples` gradcheck's rows (each
/// input's domain), which the bindings and tests find through
/// [`ArithOp::PYTHON`], [`ArithOp::PLAIN`] and [`ArithOp::samples`]. Adding a plain binary op
/// takes its row, its [`crate::BinaryOp`] row (the CPU kernel), its
/// derivative (`autograd/derivatives/arith.rs`), its WGSL case
/// (`shaders/binary.wgsl`) and its fixture line
/// (`tests/fixtures/record_elementwise.py`).
macro_rules! arith_ops {
    (@tensor_method $variant:ident [$($doc:literal)*] $method:ident) => {
        impl Tensor {
            $(#[doc = $doc])*
            pub fn $method(&self, other: &Tensor) -> Result<Tensor> {
                apply(Op::Arith(ArithOp::$variant), &[self, other])
            }
        }
    };
    (@tensor_method $variant:ident [$($doc:literal)*]) => {};
    (@or_none $e:expr) => { Some($e) };
    (@or_none) => { None };
    (@method_fn $method:ident) => { Some(Tensor::$method as BinaryMethod) };
    (@method_fn) => { None };
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident
        $({ $( $(#[doc = $field_doc:literal])* $field:ident : $field_ty:ty ),+ $(,)? })?
        $(=> $method:ident)?
        [
            name $name:literal,
            node $node:literal,
            arity $arity:literal,
            dtype $dtype:expr,
            saves |$needs:ident| [$($slot:expr),* $(,)?],
            kernel $kernel:expr
            $(, alpha $alpha:expr)?
            $(, number $number:expr)?
            $(, python [$(($py:literal, $param:literal, $py_fn:expr)),* $(,)?])?
            $(, samples [$([$($domain:ident),+]),* $(,)?])?
            $(,)?
        ]
    ),* $(,)?) => {
        /// An arithmetic op: two tensors, or a tensor and a Python number
        /// (PyTorch's `Scalar` overloads, arity 1).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum ArithOp {
            $(
                $(#[doc = $doc])*
                $variant $({ $( $(#[doc = $field_doc])* $field: $field_ty ),+ })?,
            )*
        }

        impl ArithOp {
            /// Every variant's name (`"ArithOp::Mul"`), as gradcheck's
            /// coverage lists them.
            pub const VARIANTS: &[&str] = &[$(concat!("ArithOp::", stringify!($variant))),*];

            /// The Python bindings' rows: method (and `torch.` function)
            /// name, the other operand's keyword, the `Tensor` method.
            pub const PYTHON: &[(&str, &str, BinaryMethod)] = &[
                $($($(($py, $param, $py_fn as BinaryMethod),)*)?)*
            ];

            /// Every op without attributes (those with a generated `Tensor`
            /// method), for gradcheck's rows and the tests' dispatch.
            pub const PLAIN: &[ArithOp] = &[
                $($({
                    let _method = stringify!($method);
                    ArithOp::$variant
                },)?)*
            ];

            /// The op's `Tensor` method when it takes no attributes.
            pub fn method(&self) -> Option<BinaryMethod> {
                match self {
                    $(ArithOp::$variant { .. } => arith_ops!(@method_fn $($method)?),)*
                }
            }

            /// Where gradcheck samples the op: each row one domain per input.
            pub fn samples(&self) -> &'static [[Domain; 2]] {
                match self {
                    $(ArithOp::$variant { .. } => &[$($([$(Domain::$domain),+]),*)?],)*
                }
            }

            /// This op's variant name, one of [`ArithOp::VARIANTS`].
            pub fn variant(&self) -> &'static str {
                match self {
                    $(ArithOp::$variant { .. } => concat!("ArithOp::", stringify!($variant)),)*
                }
            }

            /// The op's dtype rule.
            pub fn dtypes(&self) -> Dtypes {
                #[allow(unused_imports)]
                use Dtypes::*;
                match self {
                    $(ArithOp::$variant { .. } => $dtype,)*
                }
            }

            /// The kernel that computes it, and whether it takes its
            /// operands swapped (`rsub`).
            #[allow(unused_variables)]
            fn kernel(&self) -> Option<(crate::BinaryOp, bool)> {
                #[allow(unused_imports)]
                use crate::BinaryOp::*;
                match *self {
                    $(ArithOp::$variant { $($($field),+)? } => $kernel,)*
                }
            }

            /// The factor of its scaled operand (`add`'s `alpha`), if any.
            #[allow(unused_variables)]
            fn alpha(&self) -> Option<Scalar> {
                match *self {
                    $(ArithOp::$variant { $($($field),+)? } => arith_ops!(@or_none $($alpha)?),)*
                }
            }

            /// Its Python-number operand and whether it comes first (`2 ** x`).
            #[allow(unused_variables)]
            fn number(&self) -> Option<(Scalar, bool)> {
                match *self {
                    $(ArithOp::$variant { $($($field),+)? } => arith_ops!(@or_none $($number)?),)*
                }
            }
        }

        impl OpInfo for ArithOp {
            fn node_name(&self) -> &'static str {
                match self {
                    $(ArithOp::$variant { .. } => $node,)*
                }
            }

            fn name(&self) -> &'static str {
                match self {
                    $(ArithOp::$variant { .. } => $name,)*
                }
            }

            fn arity(&self) -> usize {
                match self {
                    $(ArithOp::$variant { .. } => $arity,)*
                }
            }

            #[allow(unused_variables)]
            fn saved(&self, needs: &[bool]) -> Vec<SavedSlot> {
                let needs_of = |i: usize| needs.get(i).copied().unwrap_or(false);
                #[allow(unused_imports)]
                use SavedSlot::*;
                let slots: Vec<(SavedSlot, bool)> = match *self {
                    $(ArithOp::$variant { $($($field),+)? } => {
                        let $needs = needs_of;
                        vec![$($slot),*]
                    })*
                };
                slots.into_iter().filter(|s| s.1).map(|s| s.0).collect()
            }
        }

        $(arith_ops!(@tensor_method $variant [$($doc)*] $($method)?);)*
    };
}

arith_ops! {
    /// `self + alpha * other`: `AddBackward0`.
    Add {
        /// The factor of `other`.
        alpha: Scalar,
    } [name "add", node "AddBackward0", arity 2, dtype Promoted, saves |needs| [],
        kernel alpha.is_one().then_some((Add, false)), alpha alpha,
        python [("add", "other", Tensor::add)]],
    /// `self - alpha * other`: `SubBackward0`.
    Sub {
        /// The factor of `other`.
        alpha: Scalar,
    } [name "sub", node "SubBackward0", arity 2, dtype NoBool, saves |needs| [],
        kernel alpha.is_one().then_some((Sub, false)), alpha alpha,
        python [("sub", "other", Tensor::sub), ("subtract", "other", Tensor::sub)]],
    /// `other - alpha * self`, `torch.rsub(self, other)`: `RsubBackward0`.
    Rsub {
        /// The factor of `self`.
        alpha: Scalar,
    } [name "rsub", node "RsubBackward0", arity 2, dtype NoBool, saves |needs| [],
        kernel alpha.is_one().then_some((Sub, true)), alpha alpha,
        python [("rsub", "other", Tensor::rsub)]],
    /// `self * other`, PyTorch's `mul`.
    Mul => mul [name "mul", node "MulBackward0", arity 2, dtype Promoted,
        // self: grad * other; other: grad * self
        saves |needs| [(Input(0), needs(1)), (Input(1), needs(0))],
        kernel Some((Mul, false)),
        python [("mul", "other", Tensor::mul), ("multiply", "other", Tensor::mul)],
        samples [[Real, Real]]],
    /// `self / other` (true division), PyTorch's `div`.
    Div => div [name "div", node "DivBackward0", arity 2, dtype TrueDivision,
        // self: grad / other; other: -grad * self / other^2
        saves |needs| [(Input(0), needs(1)), (Input(1), true)],
        kernel Some((Div, false)),
        python [("div", "other", Tensor::div), ("divide", "other", Tensor::div),
            ("true_divide", "other", Tensor::div)],
        samples [[Real, Real]]],
    /// `self ** exponent`, both tensors: `PowBackward1`.
    Pow [name "pow", node "PowBackward1", arity 2, dtype Power,
        // PyTorch keeps all three whichever side needs a gradient.
        saves |needs| [(Input(0), true), (Input(1), true), (Output, true)],
        kernel Some((Pow, false)),
        python [("pow", "exponent", Tensor::pow)]],
    /// `other - alpha * self` with a number `other` (`2 - x`): `RsubBackward1`.
    RsubScalar {
        /// The number.
        other: Scalar,
        /// The factor of `self`.
        alpha: Scalar,
    } [name "rsub", node "RsubBackward1", arity 1, dtype NoBool, saves |needs| [],
        kernel None, alpha alpha, number (other, false)],
    /// `self ** exponent` with a number exponent (`x ** 2`): `PowBackward0`.
    PowScalar {
        /// The exponent.
        exponent: Scalar,
    } [name "pow", node "PowBackward0", arity 1, dtype Power,
        // self: grad * exponent * self^(exponent - 1)
        saves |needs| [(Input(0), true)],
        kernel None, number (exponent, false)],
    /// `base ** self` with a number base (`2 ** x`): `PowBackward2`.
    ScalarPow {
        /// The base.
        base: Scalar,
    } [name "pow", node "PowBackward2", arity 1, dtype Power,
        // exponent: grad * result * ln(base), masked where base is 0
        saves |needs| [(Input(0), true), (Output, true)],
        kernel None, number (base, true)],
    /// `self * (1 - output ** 2)` with `1 - output ** 2` rounded once,
    /// PyTorch's `torch.ops.aten.tanh_backward(grad_output, output)`: what
    /// `tanh`'s backward computes from its gradient and its result
    /// (`TanhBackwardBackward0`).
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let grad = Tensor::from_vec(vec![2.0f32, 1.0], &[2])?;
    /// let y = Tensor::from_vec(vec![0.5f32, -1.0], &[2])?;
    /// assert_eq!(grad.tanh_backward(&y)?.to_vec::<f32>(), vec![1.5, 0.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    TanhBackward => tanh_backward [name "tanh_backward", node "TanhBackwardBackward0",
        arity 2, dtype FloatOnly("tanh_backward_cpu"),
        // grad_output: tanh_backward(grad, output);
        // output: grad * -2 * output * grad_output. PyTorch keeps both.
        saves |needs| [(Input(0), true), (Input(1), true)],
        kernel Some((TanhBackward, false)),
        // PyTorch has it only as an operator: `torch/_ops.py` finds it here.
        python [("_tanh_backward", "output", Tensor::tanh_backward)],
        samples [[Real, Real]]],
    /// `sqrt(self ** 2 + other ** 2)` without overflow, PyTorch's `hypot`
    /// (`HypotBackward0`).
    Hypot => hypot [name "hypot", node "HypotBackward0", arity 2,
        dtype FloatOnly("hypot_cpu"),
        // self: grad * self / result; other: grad * other / result
        saves |needs| [(Input(0), needs(0)), (Input(1), needs(1)), (Output, true)],
        kernel Some((Hypot, false)),
        // PyTorch takes only a tensor `other`: `torch/_math.py` checks it.
        python [("_hypot", "other", Tensor::hypot)],
        samples [[Real, Real]]],
}

const ONE: Scalar = Scalar::Int(1);

impl ArithOp {
    /// The result dtype, or PyTorch's error for these operand dtypes, by
    /// the row's [`Dtypes`] rule.
    fn dtype(&self, ins: &[&Tensor]) -> Result<DType> {
        let mut operands: Vec<(DType, Priority)> = ins
            .iter()
            .map(|t| (t.dtype(), t.promotion_priority()))
            .collect();
        if let Some((number, first)) = self.number() {
            let at = if first { 0 } else { operands.len() };
            operands.insert(at, number.promotion());
        }
        let promoted = DType::result_type(&operands);
        let bools = ins.iter().filter(|t| t.dtype() == DType::Bool).count();
        let rule = self.dtypes();
        if rule == Dtypes::NoBool && bools > 0 {
            return Err(Error::SubBool { both: bools == 2 });
        }
        if self.alpha().is_some_and(Scalar::is_float) && !promoted.is_float() {
            return Err(Error::AlphaFloat);
        }
        let negative_int_power =
            matches!(self, ArithOp::PowScalar { exponent: Scalar::Int(e) } if *e < 0);
        Ok(match (rule, promoted) {
            (Dtypes::TrueDivision, d) if !d.is_float() => DType::default_float(),
            (Dtypes::Power, DType::Bool) if self.number().is_none() => {
                return Err(Error::KernelDtype {
                    kernel: "pow",
                    dtype: DType::Bool,
                });
            }
            (Dtypes::Power, d) if !d.is_float() && negative_int_power => {
                return Err(Error::IntegerNegativePower);
            }
            (Dtypes::FloatOnly(kernel), d) if !d.is_float() => {
                return Err(Error::KernelDtype { kernel, dtype: d });
            }
            (_, d) => d,
        })
    }

    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let dtype = self.dtype(ins)?;
        if self.arity() == 1 {
            let [x] = inputs::<1>(self, ins)?;
            let on_device = |k: &dyn Kernels| match dtype {
                DType::Float32 => self.number_on_device(k, x),
                _ => Ok(None),
            };
            return kernels::run_or(on_device, || {
                // Narrow integers compute in int64 and wrap when cast back.
                let (data, layout) = elements(x, dtype.widened(), x.shape())?;
                let out = match &*data {
                    CpuBuffer::F32(d) => CpuBuffer::F32(self.float_scalar(d, &layout)?),
                    CpuBuffer::F64(d) => CpuBuffer::F64(self.float_scalar(d, &layout)?),
                    CpuBuffer::I64(d) => CpuBuffer::I64(self.int_scalar(d, &layout)?),
                    _ => return Err(self.no_kernel(dtype)),
                };
                Ok(new_tensor(out.into_dtype(dtype), x.shape()))
            });
        }
        let [lhs, rhs] = inputs::<2>(self, ins)?;
        let shape = broadcast_shapes(lhs.shape(), rhs.shape())?;
        let on_device = |k: &dyn Kernels| match self.kernel() {
            Some((kernel, swap)) => {
                let (a, b) = if swap { (rhs, lhs) } else { (lhs, rhs) };
                let out = k.binary(kernel, operand(a), operand(b), &shape, dtype)?;
                Ok(shaped(out, &shape))
            }
            None => self.scaled_on_device(k, lhs, rhs, &shape, dtype),
        };
        kernels::run_or(on_device, || self.host(lhs, rhs, &shape, dtype))
    }

    /// The op on the host: the CPU, or a GPU storage's host copy.
    fn host(&self, lhs: &Tensor, rhs: &Tensor, shape: &[usize], dtype: DType) -> Result<Tensor> {
        let (l, ll) = elements(lhs, dtype.widened(), shape)?;
        let (r, rl) = elements(rhs, dtype.widened(), shape)?;
        let out = match (&*l, &*r) {
            (CpuBuffer::F32(a), CpuBuffer::F32(b)) => CpuBuffer::F32(self.float(a, &ll, b, &rl)?),
            (CpuBuffer::F64(a), CpuBuffer::F64(b)) => CpuBuffer::F64(self.float(a, &ll, b, &rl)?),
            (CpuBuffer::I64(a), CpuBuffer::I64(b)) => CpuBuffer::I64(self.int(a, &ll, b, &rl)?),
            (CpuBuffer::Bool(a), CpuBuffer::Bool(b)) => CpuBuffer::Bool(self.bool(a, &ll, b, &rl)?),
            _ => return Err(self.no_kernel(dtype)),
        };
        Ok(new_tensor(out.into_dtype(dtype), shape))
    }

    /// `a ± alpha * b` (and `rsub`'s `b - alpha * a`) on the GPU: `alpha *`
    /// by one kernel, then the sum by another, rounding as the CPU's
    /// float32 path does (an optimizer's `p.add_(g, alpha=-lr)`).
    fn scaled_on_device(
        &self,
        k: &dyn Kernels,
        lhs: &Tensor,
        rhs: &Tensor,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Tensor>> {
        use crate::BinaryOp as B;
        let (kernel, alpha, plain, scaled) = match *self {
            ArithOp::Add { alpha } => (B::Add, alpha, lhs, rhs),
            ArithOp::Sub { alpha } => (B::Sub, alpha, lhs, rhs),
            ArithOp::Rsub { alpha } => (B::Sub, alpha, rhs, lhs),
            _ => return Ok(None),
        };
        if dtype != DType::Float32 || scaled.dtype() != DType::Float32 {
            return Ok(None);
        }
        let product = k.binary_number(B::Mul, operand(scaled), alpha.to_f64(), true)?;
        let Some(product) = shaped(product, scaled.shape()) else {
            return Ok(None);
        };
        let out = k.binary(kernel, operand(plain), operand(&product), shape, dtype)?;
        Ok(shaped(out, shape))
    }

    /// The ops with a number (`2 - x`, `x ** 2`) on the GPU, by the kernels
    /// that compute what the CPU's float32 path computes: the powers it
    /// special-cases (`cpu::unary::pow_scalar`) and `other - alpha * x`.
    fn number_on_device(&self, k: &dyn Kernels, x: &Tensor) -> Result<Option<Tensor>> {
        use super::unary::UnaryOp;
        use crate::BinaryOp as B;
        // Every step keeps `x`'s shape.
        let shape = x.shape();
        let binary = |op, a: &Tensor, b: &Tensor, _: &[usize], dtype| -> Result<Option<Tensor>> {
            Ok(shaped(
                k.binary(op, operand(a), operand(b), shape, dtype)?,
                shape,
            ))
        };
        let binary_number = |op, a: &Tensor, value, first| -> Result<Option<Tensor>> {
            Ok(shaped(
                k.binary_number(op, operand(a), value, first)?,
                shape,
            ))
        };
        let unary = |op: &UnaryOp, a: &Tensor, dtype| -> Result<Option<Tensor>> {
            let (storage, layout) = operand(a);
            Ok(shaped(k.unary(op, storage, layout, dtype)?, shape))
        };
        let then = |first: Option<Tensor>, next: &dyn Fn(&Tensor) -> Result<Option<Tensor>>| {
            first.map_or(Ok(None), |t| next(&t))
        };
        match *self {
            ArithOp::RsubScalar { other, alpha } if alpha.is_one() => {
                binary_number(B::Sub, x, other.to_f64(), true)
            }
            ArithOp::RsubScalar { other, alpha } => {
                then(binary_number(B::Mul, x, alpha.to_f64(), true)?, &|kx| {
                    binary_number(B::Sub, kx, other.to_f64(), true)
                })
            }
            ArithOp::PowScalar { exponent } => match exponent.to_f64() {
                0.5 => unary(&UnaryOp::Sqrt, x, DType::Float32),
                2.0 => binary(B::Mul, x, x, x.shape(), DType::Float32),
                3.0 => then(binary(B::Mul, x, x, x.shape(), DType::Float32)?, &|xx| {
                    binary(B::Mul, xx, x, x.shape(), DType::Float32)
                }),
                -0.5 => then(unary(&UnaryOp::Sqrt, x, DType::Float32)?, &|root| {
                    binary_number(B::Div, root, 1.0, true)
                }),
                -1.0 => binary_number(B::Div, x, 1.0, true),
                -2.0 => then(binary(B::Mul, x, x, x.shape(), DType::Float32)?, &|xx| {
                    binary_number(B::Div, xx, 1.0, true)
                }),
                // What the CPU computes for the rest: `powf`.
                e => binary_number(B::Pow, x, e, false),
            },
            ArithOp::ScalarPow { base } => binary_number(B::Pow, x, base.to_f64(), true),
            _ => Ok(None),
        }
    }

    fn no_kernel(&self, dtype: DType) -> Error {
        Error::Backend(format!(
            "internal error: no {} kernel for {dtype}",
            self.name()
        ))
    }

    fn float<T: Float>(&self, a: &[T], al: &Layout, b: &[T], bl: &Layout) -> Result<Vec<T>> {
        use crate::BinaryOp as B;
        let t = |s: Scalar| T::from_f64(s.to_f64());
        Ok(match (self.kernel(), *self) {
            // The commonest kernels as their own loops, which vectorise.
            (Some((B::Add, false)), _) => map2(a, al, b, bl, |x, y| x + y),
            (Some((B::Sub, false)), _) => map2(a, al, b, bl, |x, y| x - y),
            (Some((B::Sub, true)), _) => map2(a, al, b, bl, |x, y| y - x),
            (Some((B::Mul, false)), _) => map2(a, al, b, bl, |x, y| x * y),
            (Some((B::Div, false)), _) => map2(a, al, b, bl, |x, y| x / y),
            // The rest: the kernel's row in `BinaryOp`, as on the GPU.
            (Some((kernel, false)), _) => map2(a, al, b, bl, |x, y| kernel.apply(x, y)),
            (Some((kernel, true)), _) => map2(a, al, b, bl, |x, y| kernel.apply(y, x)),
            (None, ArithOp::Add { alpha }) => {
                let k = t(alpha);
                map2(a, al, b, bl, |x, y| x + k * y)
            }
            (None, ArithOp::Sub { alpha }) => {
                let k = t(alpha);
                map2(a, al, b, bl, |x, y| x - k * y)
            }
            (None, ArithOp::Rsub { alpha }) => {
                let k = t(alpha);
                map2(a, al, b, bl, |x, y| y - k * x)
            }
            (None, _) => return Err(self.no_kernel(T::DTYPE)),
        })
    }

    fn int(&self, a: &[i64], al: &Layout, b: &[i64], bl: &Layout) -> Result<Vec<i64>> {
        Ok(match *self {
            ArithOp::Add { alpha } => {
                let k = alpha.to_i64();
                map2(a, al, b, bl, |x, y| x.wrapping_add(k.wrapping_mul(y)))
            }
            ArithOp::Sub { alpha } => {
                let k = alpha.to_i64();
                map2(a, al, b, bl, |x, y| x.wrapping_sub(k.wrapping_mul(y)))
            }
            ArithOp::Rsub { alpha } => {
                let k = alpha.to_i64();
                map2(a, al, b, bl, |x, y| y.wrapping_sub(k.wrapping_mul(x)))
            }
            ArithOp::Mul => map2(a, al, b, bl, i64::wrapping_mul),
            ArithOp::Pow => map2(a, al, b, bl, powi),
            // Division and the float-only ops promote first.
            _ => return Err(self.no_kernel(DType::Int64)),
        })
    }

    fn bool(&self, a: &[bool], al: &Layout, b: &[bool], bl: &Layout) -> Result<Vec<bool>> {
        Ok(match *self {
            // `True + True` is `True`: PyTorch computes in bool.
            ArithOp::Add { alpha } => {
                let k = alpha.to_f64() != 0.0;
                map2(a, al, b, bl, |x, y| x | (k & y))
            }
            ArithOp::Mul => map2(a, al, b, bl, |x, y| x & y),
            _ => return Err(self.no_kernel(DType::Bool)),
        })
    }

    fn float_scalar<T: Float>(&self, x: &[T], layout: &Layout) -> Result<Vec<T>> {
        let t = |s: Scalar| T::from_f64(s.to_f64());
        Ok(match *self {
            ArithOp::RsubScalar { other, alpha } if alpha.is_one() => {
                let o = t(other);
                map(x, layout, |v| o - v)
            }
            ArithOp::RsubScalar { other, alpha } => {
                let (o, k) = (t(other), t(alpha));
                map(x, layout, |v| o - k * v)
            }
            ArithOp::PowScalar { exponent } => pow_scalar(x, layout, exponent.to_f64()),
            ArithOp::ScalarPow { base } => {
                let b = t(base);
                map(x, layout, |v| b.powf(v))
            }
            _ => return Err(self.no_kernel(T::DTYPE)),
        })
    }

    fn int_scalar(&self, x: &[i64], layout: &Layout) -> Result<Vec<i64>> {
        Ok(match *self {
            ArithOp::RsubScalar { other, alpha } => {
                let (o, k) = (other.to_i64(), alpha.to_i64());
                map(x, layout, |v| o.wrapping_sub(k.wrapping_mul(v)))
            }
            ArithOp::PowScalar { exponent } => {
                let e = exponent.to_i64();
                map(x, layout, |v| powi(v, e))
            }
            ArithOp::ScalarPow { base } => {
                let b = base.to_i64();
                map(x, layout, |v| powi(b, v))
            }
            _ => return Err(self.no_kernel(DType::Int64)),
        })
    }
}

impl Tensor {
    /// `self + other` with broadcasting, PyTorch's `add`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// assert_eq!(x.add(&Tensor::scalar(0.5))?.to_vec::<f32>(), vec![1.5, 2.5]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn add(&self, other: &Tensor) -> Result<Tensor> {
        self.add_alpha(other, ONE)
    }

    /// `self + alpha * other`, PyTorch's `torch.add(self, other, alpha=alpha)`.
    pub fn add_alpha(&self, other: &Tensor, alpha: Scalar) -> Result<Tensor> {
        apply(Op::Arith(ArithOp::Add { alpha }), &[self, other])
    }

    /// `self - other`, PyTorch's `sub`.
    pub fn sub(&self, other: &Tensor) -> Result<Tensor> {
        self.sub_alpha(other, ONE)
    }

    /// `self - alpha * other`, PyTorch's `torch.sub(self, other, alpha=alpha)`.
    pub fn sub_alpha(&self, other: &Tensor, alpha: Scalar) -> Result<Tensor> {
        apply(Op::Arith(ArithOp::Sub { alpha }), &[self, other])
    }

    /// `other - self`, PyTorch's `torch.rsub(self, other)` and Python's
    /// `2 - x` (`x.__rsub__(2)`): a wrapped number `other` records
    /// `RsubBackward1`, a tensor `RsubBackward0`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2])?.requires_grad_(true);
    /// let y = x.rsub(&Tensor::scalar(2.0))?;
    /// assert_eq!(y.grad_fn().map(|n| n.name().to_owned()).as_deref(), Some("RsubBackward1"));
    /// assert_eq!(y.to_vec::<f32>(), vec![1.0, 0.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn rsub(&self, other: &Tensor) -> Result<Tensor> {
        self.rsub_alpha(other, ONE)
    }

    /// `other - alpha * self`, PyTorch's `torch.rsub(self, other, alpha=alpha)`.
    pub fn rsub_alpha(&self, other: &Tensor, alpha: Scalar) -> Result<Tensor> {
        match Scalar::from_wrapped(other) {
            Some(other) => apply(Op::Arith(ArithOp::RsubScalar { other, alpha }), &[self]),
            None => apply(Op::Arith(ArithOp::Rsub { alpha }), &[self, other]),
        }
    }

    /// `other / self` as Python's `2 / x` computes it (`Tensor.__rtruediv__`):
    /// `self.reciprocal() * other`, so the graph shows `MulBackward0` over
    /// `ReciprocalBackward0`, as in PyTorch.
    pub fn rdiv(&self, other: &Tensor) -> Result<Tensor> {
        self.reciprocal()?.mul(other)
    }

    /// `self ** exponent`, PyTorch's `pow`: a wrapped number exponent
    /// (`x ** 2`) records `PowBackward0`, a wrapped number base `PowBackward2`,
    /// two tensors `PowBackward1`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f32, 3.0], &[2])?.requires_grad_(true);
    /// let y = x.pow(&Tensor::scalar_int(2))?;
    /// assert_eq!(y.grad_fn().map(|n| n.name().to_owned()).as_deref(), Some("PowBackward0"));
    /// assert_eq!(y.to_vec::<f32>(), vec![1.0, 9.0]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn pow(&self, exponent: &Tensor) -> Result<Tensor> {
        if let Some(exponent) = Scalar::from_wrapped(exponent) {
            return self.pow_scalar(exponent);
        }
        if let Some(base) = Scalar::from_wrapped(self) {
            return Tensor::scalar_pow(base, exponent);
        }
        apply(Op::Arith(ArithOp::Pow), &[self, exponent])
    }

    /// `self ** exponent` for a number, PyTorch's `pow(Tensor, Scalar)`.
    pub fn pow_scalar(&self, exponent: Scalar) -> Result<Tensor> {
        apply(Op::Arith(ArithOp::PowScalar { exponent }), &[self])
    }

    /// `base ** exponent` for a number base, PyTorch's `torch.pow(2, x)`.
    pub fn scalar_pow(base: Scalar, exponent: &Tensor) -> Result<Tensor> {
        apply(Op::Arith(ArithOp::ScalarPow { base }), &[exponent])
    }

    /// `base ** self`, Python's `2 ** x` (`x.__rpow__(2)`).
    pub fn rpow(&self, base: &Tensor) -> Result<Tensor> {
        base.pow(self)
    }
}
