//! Elementwise maths on one tensor: `exp log sqrt rsqrt abs sign sin cos
//! tanh sigmoid relu gelu leaky_relu softplus clamp round floor neg
//! reciprocal erf`, and `to(dtype)`.

use super::arith::{Scalar, elements};
use super::{Op, OpInfo, SavedSlot, apply, inputs, new_tensor};
use crate::cpu::unary::{self as k, map};
use crate::cpu::{CpuBuffer, Float};
use std::rc::Rc;

use crate::device::Device;
use crate::dtype::{DType, Priority};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// Which formula `gelu` uses, PyTorch's `approximate` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeluApproximate {
    /// `'none'`: the exact `x/2 (1 + erf(x / sqrt 2))`.
    None,
    /// `'tanh'`: `x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`.
    Tanh,
}

/// An elementwise op on one tensor, with its attributes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnaryOp {
    /// `neg`
    Neg,
    /// `exp`
    Exp,
    /// `log`, the natural logarithm.
    Log,
    /// `sqrt`
    Sqrt,
    /// `rsqrt`, `1 / sqrt(x)`.
    Rsqrt,
    /// `abs`
    Abs,
    /// `sign`: -1, 0 or 1 (0 for NaN).
    Sign,
    /// `sin`
    Sin,
    /// `cos`
    Cos,
    /// `tanh`
    Tanh,
    /// `sigmoid`
    Sigmoid,
    /// `relu`
    Relu,
    /// `gelu`
    Gelu(GeluApproximate),
    /// `leaky_relu(negative_slope)`
    LeakyRelu {
        /// The slope for negative inputs.
        negative_slope: f64,
    },
    /// `softplus(beta, threshold)`
    Softplus {
        /// `log1p(exp(beta x)) / beta`.
        beta: f64,
        /// Past `beta x > threshold` the result is `x`.
        threshold: f64,
    },
    /// `clamp(min, max)` with number bounds, at least one given.
    Clamp {
        /// The lower bound.
        min: Option<Scalar>,
        /// The upper bound.
        max: Option<Scalar>,
    },
    /// `clamp_min(min)` with a number.
    ClampMin(Scalar),
    /// `clamp_max(max)` with a number.
    ClampMax(Scalar),
    /// `round`, half to even.
    Round,
    /// `floor`
    Floor,
    /// `reciprocal`, `1 / x`.
    Reciprocal,
    /// `erf`, the error function.
    Erf,
    /// `log1p`, `log(1 + x)` keeping the digits of a tiny `x`.
    Log1p,
    /// `expm1`, `exp(x) - 1` keeping the digits of a tiny result.
    Expm1,
    /// `log10`
    Log10,
    /// `log2`
    Log2,
    /// `to(dtype)`: a copy in another dtype.
    ToDtype {
        /// The input's dtype, which the gradient goes back to.
        from: DType,
        /// The result's dtype.
        to: DType,
    },
    /// `to(device)`: a copy on another device. Not in [`UnaryOp::ALL`]: it
    /// needs a GPU registered.
    ToDevice {
        /// The input's device, which the gradient goes back to.
        from: Device,
        /// The result's device.
        to: Device,
    },
}

impl UnaryOp {
    /// Every unary op (with sample attributes), for tests that check each
    /// has a name, a kernel and a derivative.
    pub const ALL: &[UnaryOp] = &[
        UnaryOp::Neg,
        UnaryOp::Exp,
        UnaryOp::Log,
        UnaryOp::Sqrt,
        UnaryOp::Rsqrt,
        UnaryOp::Abs,
        UnaryOp::Sign,
        UnaryOp::Sin,
        UnaryOp::Cos,
        UnaryOp::Tanh,
        UnaryOp::Sigmoid,
        UnaryOp::Relu,
        UnaryOp::Gelu(GeluApproximate::None),
        UnaryOp::Gelu(GeluApproximate::Tanh),
        UnaryOp::LeakyRelu {
            negative_slope: 0.01,
        },
        UnaryOp::Softplus {
            beta: 1.0,
            threshold: 20.0,
        },
        UnaryOp::Clamp {
            min: Some(Scalar::Float(-1.0)),
            max: Some(Scalar::Float(1.0)),
        },
        UnaryOp::ClampMin(Scalar::Float(0.0)),
        UnaryOp::ClampMax(Scalar::Float(0.0)),
        UnaryOp::Round,
        UnaryOp::Floor,
        UnaryOp::Reciprocal,
        UnaryOp::Erf,
        UnaryOp::Log1p,
        UnaryOp::Expm1,
        UnaryOp::Log10,
        UnaryOp::Log2,
        UnaryOp::ToDtype {
            from: DType::Float32,
            to: DType::Float64,
        },
    ];

    /// Applies the op through its public [`Tensor`] method, as a program
    /// calls it: gradcheck's rows and the kernel tests' CPU side go through
    /// here, so a new variant fails to compile until it has a method.
    pub fn call(&self, x: &Tensor) -> Result<Tensor> {
        match *self {
            UnaryOp::Neg => x.neg(),
            UnaryOp::Exp => x.exp(),
            UnaryOp::Log => x.log(),
            UnaryOp::Sqrt => x.sqrt(),
            UnaryOp::Rsqrt => x.rsqrt(),
            UnaryOp::Abs => x.abs(),
            UnaryOp::Sign => x.sign(),
            UnaryOp::Sin => x.sin(),
            UnaryOp::Cos => x.cos(),
            UnaryOp::Tanh => x.tanh(),
            UnaryOp::Sigmoid => x.sigmoid(),
            UnaryOp::Relu => x.relu(),
            UnaryOp::Gelu(approximate) => x.gelu(approximate),
            UnaryOp::LeakyRelu { negative_slope } => x.leaky_relu(negative_slope),
            UnaryOp::Softplus { beta, threshold } => x.softplus(beta, threshold),
            UnaryOp::Clamp { min, max } => x.clamp(min, max),
            UnaryOp::ClampMin(min) => x.clamp_min(min),
            UnaryOp::ClampMax(max) => x.clamp_max(max),
            UnaryOp::Round => x.round(),
            UnaryOp::Floor => x.floor(),
            UnaryOp::Reciprocal => x.reciprocal(),
            UnaryOp::Erf => x.erf(),
            UnaryOp::Log1p => x.log1p(),
            UnaryOp::Expm1 => x.expm1(),
            UnaryOp::Log10 => x.log10(),
            UnaryOp::Log2 => x.log2(),
            // From `from` first, so the op's node converts `from` to `to`.
            UnaryOp::ToDtype { from, to } => x.to_dtype(from)?.to_dtype(to),
            UnaryOp::ToDevice { from, to } => x.to_device(from)?.to_device(to),
        }
    }

    /// The result dtype for an input of `dtype`, or PyTorch's error: maths
    /// on integers computes in the default float dtype; ops that keep
    /// integers keep them; float-only kernels refuse the others.
    fn dtype(&self, dtype: DType) -> Result<DType> {
        let kernel = |kernel| Error::KernelDtype { kernel, dtype };
        Ok(match (*self, dtype) {
            (UnaryOp::ToDtype { to, .. }, _) => to,
            (UnaryOp::ToDevice { .. }, d) => d,
            (_, d) if d.is_float() => d,
            (UnaryOp::Neg, DType::Bool) => return Err(Error::NegBool),
            (UnaryOp::Abs, DType::Bool) => return Err(kernel("abs_cpu")),
            (UnaryOp::Relu, DType::Bool) => return Err(Error::BoolUnsupported { op: "relu" }),
            (UnaryOp::Round, DType::Bool) => return Err(kernel("round_vml_cpu")),
            (UnaryOp::Floor, DType::Bool) => return Err(kernel("floor_vml_cpu")),
            (UnaryOp::Gelu(_), _) => return Err(kernel("GeluKernelImpl")),
            (UnaryOp::LeakyRelu { .. }, _) => return Err(kernel("leaky_relu_cpu")),
            (UnaryOp::Softplus { .. }, _) => return Err(kernel("softplus_cpu")),
            (UnaryOp::Clamp { min, max }, d) => {
                let bounds = [min, max].into_iter().flatten().map(Scalar::promotion);
                let operands: Vec<_> = std::iter::once((d, Priority::Dimensioned))
                    .chain(bounds)
                    .collect();
                DType::result_type(&operands)
            }
            (UnaryOp::ClampMin(bound) | UnaryOp::ClampMax(bound), d) => {
                DType::result_type(&[(d, Priority::Dimensioned), bound.promotion()])
            }
            (UnaryOp::Neg | UnaryOp::Abs | UnaryOp::Sign | UnaryOp::Relu, d) => d,
            (UnaryOp::Round | UnaryOp::Floor, d) => d,
            (
                UnaryOp::Exp
                | UnaryOp::Log
                | UnaryOp::Sqrt
                | UnaryOp::Rsqrt
                | UnaryOp::Sin
                | UnaryOp::Cos
                | UnaryOp::Tanh
                | UnaryOp::Sigmoid
                | UnaryOp::Reciprocal
                | UnaryOp::Erf
                | UnaryOp::Log1p
                | UnaryOp::Expm1
                | UnaryOp::Log10
                | UnaryOp::Log2,
                _,
            ) => DType::DEFAULT_FLOAT,
        })
    }

    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        let dtype = self.dtype(x.dtype())?;
        if let UnaryOp::ToDtype { to, .. } = self {
            // A float32 GPU tensor lives on the device, which has no f64;
            // integers and bools stay on the host and may widen there.
            if *to == DType::Float64 && x.device() == Device::WebGpu && x.dtype().is_float() {
                return Err(Error::GpuFloat64);
            }
            if *to == DType::Float32
                && x.dtype() == DType::Bool
                && let Some(out) = super::on_device::mask_to_float(x)?
            {
                return Ok(out);
            }
            let buffer = x.storage().data().gather_as(x.layout(), *to);
            return Ok(new_tensor(buffer, x.shape()));
        }
        if let UnaryOp::ToDevice { to, .. } = self {
            return to_device(x, *to);
        }
        if let Some(out) = super::on_device::unary(self, x, dtype)? {
            return Ok(out);
        }
        let (data, layout) = elements(x, dtype, x.shape())?;
        let out = match &*data {
            CpuBuffer::F32(d) => CpuBuffer::F32(self.float(d, &layout)),
            CpuBuffer::F64(d) => CpuBuffer::F64(self.float(d, &layout)),
            CpuBuffer::I64(d) => CpuBuffer::I64(self.int(d, &layout)?),
            CpuBuffer::Bool(d) => match self {
                // sign(True) is True: the only op that keeps bool.
                UnaryOp::Sign => CpuBuffer::Bool(map(d, &layout, |v| v)),
                _ => return Err(self.no_kernel(dtype)),
            },
        };
        Ok(new_tensor(out, x.shape()))
    }

    fn no_kernel(&self, dtype: DType) -> Error {
        Error::Backend(format!(
            "internal error: no {} kernel for {dtype}",
            self.name()
        ))
    }

    fn float<T: Float>(&self, d: &[T], l: &Layout) -> Vec<T> {
        let t = |v: f64| T::from_f64(v);
        let bound = |s: Option<Scalar>, default: f64| t(s.map_or(default, Scalar::to_f64));
        match *self {
            UnaryOp::Neg => map(d, l, |x| -x),
            UnaryOp::Exp => map(d, l, |x| x.exp()),
            UnaryOp::Log => map(d, l, |x| x.ln()),
            UnaryOp::Sqrt => map(d, l, |x| x.sqrt()),
            UnaryOp::Rsqrt => map(d, l, |x| T::one() / x.sqrt()),
            UnaryOp::Abs => map(d, l, |x| x.abs()),
            UnaryOp::Sign => map(d, l, k::sign),
            UnaryOp::Sin => map(d, l, |x| x.sin()),
            UnaryOp::Cos => map(d, l, |x| x.cos()),
            UnaryOp::Tanh => map(d, l, |x| x.tanh()),
            UnaryOp::Sigmoid => map(d, l, k::sigmoid),
            // `x < 0` keeps NaN and -0.0 as they are, as PyTorch's relu does.
            UnaryOp::Relu => map(d, l, |x| if x < T::zero() { T::zero() } else { x }),
            UnaryOp::Gelu(GeluApproximate::None) => map(d, l, k::gelu),
            UnaryOp::Gelu(GeluApproximate::Tanh) => map(d, l, k::gelu_tanh),
            UnaryOp::LeakyRelu { negative_slope } => {
                let slope = t(negative_slope);
                map(d, l, |x| if x > T::zero() { x } else { x * slope })
            }
            UnaryOp::Softplus { beta, threshold } => {
                let (beta, threshold) = (t(beta), t(threshold));
                map(d, l, |x| k::softplus(x, beta, threshold))
            }
            UnaryOp::Clamp { min, max } => {
                let (lo, hi) = (bound(min, f64::NEG_INFINITY), bound(max, f64::INFINITY));
                // min(max(x, lo), hi), NaN passing through.
                map(d, l, |x| if x.is_nan() { x } else { x.max(lo).min(hi) })
            }
            UnaryOp::ClampMin(lo) => {
                let lo = t(lo.to_f64());
                map(d, l, |x| if x.is_nan() { x } else { x.max(lo) })
            }
            UnaryOp::ClampMax(hi) => {
                let hi = t(hi.to_f64());
                map(d, l, |x| if x.is_nan() { x } else { x.min(hi) })
            }
            UnaryOp::Round => map(d, l, k::round_half_even),
            UnaryOp::Floor => map(d, l, |x| x.floor()),
            UnaryOp::Reciprocal => map(d, l, |x| T::one() / x),
            UnaryOp::Erf => map(d, l, k::erf),
            UnaryOp::Log1p => map(d, l, |x| x.ln_1p()),
            UnaryOp::Expm1 => map(d, l, |x| x.exp_m1()),
            UnaryOp::Log10 => map(d, l, |x| x.log10()),
            UnaryOp::Log2 => map(d, l, |x| x.log2()),
            UnaryOp::ToDtype { .. } | UnaryOp::ToDevice { .. } => map(d, l, |x| x),
        }
    }

    fn int(&self, d: &[i64], l: &Layout) -> Result<Vec<i64>> {
        Ok(match *self {
            UnaryOp::Neg => map(d, l, i64::wrapping_neg),
            UnaryOp::Abs => map(d, l, i64::wrapping_abs),
            UnaryOp::Sign => map(d, l, i64::signum),
            UnaryOp::Relu => map(d, l, |x| x.max(0)),
            UnaryOp::Round | UnaryOp::Floor => map(d, l, |x| x),
            UnaryOp::Clamp { min, max } => {
                let lo = min.map_or(i64::MIN, Scalar::to_i64);
                let hi = max.map_or(i64::MAX, Scalar::to_i64);
                map(d, l, |x| x.max(lo).min(hi))
            }
            UnaryOp::ClampMin(lo) => map(d, l, |x| x.max(lo.to_i64())),
            UnaryOp::ClampMax(hi) => map(d, l, |x| x.min(hi.to_i64())),
            _ => return Err(self.no_kernel(DType::Int64)),
        })
    }
}

/// `x`'s values in a new contiguous storage on `to`. A GPU copy is uploaded
/// at once, so the values live on the device as PyTorch's would, and its
/// host copy is dropped.
fn to_device(x: &Tensor, to: Device) -> Result<Tensor> {
    if to == Device::WebGpu {
        crate::device::gpu()?;
        if x.dtype() == DType::Float64 {
            return Err(Error::GpuFloat64);
        }
    }
    let buffer = x.storage().data().gather_as(x.layout(), x.dtype());
    let storage = Storage::new_on(buffer, to);
    if to == Device::WebGpu {
        storage.keep_on_device_only()?;
    }
    Ok(Tensor::from_parts(
        Rc::new(storage),
        Layout::contiguous(x.shape()),
    ))
}

impl OpInfo for UnaryOp {
    fn node_name(&self) -> &'static str {
        match self {
            UnaryOp::Neg => "NegBackward0",
            UnaryOp::Exp => "ExpBackward0",
            UnaryOp::Log => "LogBackward0",
            UnaryOp::Sqrt => "SqrtBackward0",
            UnaryOp::Rsqrt => "RsqrtBackward0",
            UnaryOp::Abs => "AbsBackward0",
            UnaryOp::Sign => "SignBackward0",
            UnaryOp::Sin => "SinBackward0",
            UnaryOp::Cos => "CosBackward0",
            UnaryOp::Tanh => "TanhBackward0",
            UnaryOp::Sigmoid => "SigmoidBackward0",
            UnaryOp::Relu => "ReluBackward0",
            UnaryOp::Gelu(_) => "GeluBackward0",
            UnaryOp::LeakyRelu { .. } => "LeakyReluBackward0",
            UnaryOp::Softplus { .. } => "SoftplusBackward0",
            UnaryOp::Clamp { .. } => "ClampBackward1",
            UnaryOp::ClampMin(_) => "ClampMinBackward0",
            UnaryOp::ClampMax(_) => "ClampMaxBackward0",
            UnaryOp::Round => "RoundBackward0",
            UnaryOp::Floor => "FloorBackward0",
            UnaryOp::Reciprocal => "ReciprocalBackward0",
            UnaryOp::Erf => "ErfBackward0",
            UnaryOp::Log1p => "Log1PBackward0",
            UnaryOp::Expm1 => "Expm1Backward0",
            UnaryOp::Log10 => "Log10Backward0",
            UnaryOp::Log2 => "Log2Backward0",
            UnaryOp::ToDtype { .. } | UnaryOp::ToDevice { .. } => "ToCopyBackward0",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Exp => "exp",
            UnaryOp::Log => "log",
            UnaryOp::Sqrt => "sqrt",
            UnaryOp::Rsqrt => "rsqrt",
            UnaryOp::Abs => "abs",
            UnaryOp::Sign => "sign",
            UnaryOp::Sin => "sin",
            UnaryOp::Cos => "cos",
            UnaryOp::Tanh => "tanh",
            UnaryOp::Sigmoid => "sigmoid",
            UnaryOp::Relu => "relu",
            UnaryOp::Gelu(_) => "gelu",
            UnaryOp::LeakyRelu { .. } => "leaky_relu",
            UnaryOp::Softplus { .. } => "softplus",
            UnaryOp::Clamp { .. } => "clamp",
            UnaryOp::ClampMin(_) => "clamp_min",
            UnaryOp::ClampMax(_) => "clamp_max",
            UnaryOp::Round => "round",
            UnaryOp::Floor => "floor",
            UnaryOp::Reciprocal => "reciprocal",
            UnaryOp::Erf => "erf",
            UnaryOp::Log1p => "log1p",
            UnaryOp::Expm1 => "expm1",
            UnaryOp::Log10 => "log10",
            UnaryOp::Log2 => "log2",
            UnaryOp::ToDtype { .. } | UnaryOp::ToDevice { .. } => "to",
        }
    }

    fn arity(&self) -> usize {
        1
    }

    fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
        match self {
            UnaryOp::Neg
            | UnaryOp::Sign
            | UnaryOp::Round
            | UnaryOp::Floor
            | UnaryOp::ToDtype { .. }
            | UnaryOp::ToDevice { .. } => vec![],
            // Formulas in the result: exp, expm1, sqrt, rsqrt, tanh,
            // sigmoid, reciprocal, and relu (whose mask is `result > 0`).
            UnaryOp::Exp
            | UnaryOp::Expm1
            | UnaryOp::Sqrt
            | UnaryOp::Rsqrt
            | UnaryOp::Tanh
            | UnaryOp::Sigmoid
            | UnaryOp::Relu
            | UnaryOp::Reciprocal => vec![SavedSlot::Output],
            UnaryOp::Log
            | UnaryOp::Abs
            | UnaryOp::Sin
            | UnaryOp::Cos
            | UnaryOp::Gelu(_)
            | UnaryOp::LeakyRelu { .. }
            | UnaryOp::Softplus { .. }
            | UnaryOp::Clamp { .. }
            | UnaryOp::ClampMin(_)
            | UnaryOp::ClampMax(_)
            | UnaryOp::Erf
            | UnaryOp::Log1p
            | UnaryOp::Log10
            | UnaryOp::Log2 => vec![SavedSlot::Input(0)],
        }
    }
}

impl Tensor {
    fn unary(&self, op: UnaryOp) -> Result<Tensor> {
        apply(Op::Unary(op), &[self])
    }

    /// `-self`, PyTorch's `neg`.
    pub fn neg(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Neg)
    }

    /// A copy in `dtype`, PyTorch's `to(dtype)`; the same tensor when it
    /// already has that dtype, as in PyTorch.
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        if self.dtype() == dtype {
            return Ok(self.clone());
        }
        let from = self.dtype();
        self.unary(UnaryOp::ToDtype { from, to: dtype })
    }

    /// A copy on `device`, PyTorch's `to(device)`; the same tensor when it
    /// is already there. float64 cannot go to the GPU (WGSL has no f64).
    pub fn to_device(&self, device: Device) -> Result<Tensor> {
        if self.device() == device {
            return Ok(self.clone());
        }
        let from = self.device();
        self.unary(UnaryOp::ToDevice { from, to: device })
    }

    /// `e ** self`, PyTorch's `exp`.
    pub fn exp(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Exp)
    }

    /// The natural logarithm, PyTorch's `log`.
    pub fn log(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Log)
    }

    /// PyTorch's `sqrt`.
    pub fn sqrt(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Sqrt)
    }

    /// `1 / sqrt(self)`, PyTorch's `rsqrt`.
    pub fn rsqrt(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Rsqrt)
    }

    /// PyTorch's `abs`; integers stay integers.
    pub fn abs(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Abs)
    }

    /// -1, 0 or 1 by sign (0 for NaN), PyTorch's `sign`; its gradient is zero.
    pub fn sign(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Sign)
    }

    /// PyTorch's `sin`.
    pub fn sin(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Sin)
    }

    /// PyTorch's `cos`.
    pub fn cos(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Cos)
    }

    /// PyTorch's `tanh`.
    pub fn tanh(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Tanh)
    }

    /// `1 / (1 + exp(-self))`, PyTorch's `sigmoid`.
    pub fn sigmoid(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Sigmoid)
    }

    /// `max(self, 0)`, PyTorch's `relu`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let x = Tensor::from_vec(vec![-1.0f32, 2.0], &[2])?.requires_grad_(true);
    /// let y = x.relu()?;
    /// assert_eq!(y.to_vec::<f32>(), vec![0.0, 2.0]);
    /// assert_eq!(y.grad_fn().map(|n| n.name().to_owned()).as_deref(), Some("ReluBackward0"));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn relu(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Relu)
    }

    /// PyTorch's `F.gelu(self, approximate=...)`.
    pub fn gelu(&self, approximate: GeluApproximate) -> Result<Tensor> {
        self.unary(UnaryOp::Gelu(approximate))
    }

    /// PyTorch's `F.leaky_relu(self, negative_slope)` (PyTorch's default slope is 0.01).
    pub fn leaky_relu(&self, negative_slope: f64) -> Result<Tensor> {
        self.unary(UnaryOp::LeakyRelu { negative_slope })
    }

    /// PyTorch's `F.softplus(self, beta, threshold)` (defaults 1 and 20).
    pub fn softplus(&self, beta: f64, threshold: f64) -> Result<Tensor> {
        self.unary(UnaryOp::Softplus { beta, threshold })
    }

    /// PyTorch's `clamp(min, max)` with number bounds (`ClampBackward1`); at
    /// least one must be given. Tensor bounds: [`Tensor::clamp_tensor`].
    pub fn clamp(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor> {
        if min.is_none() && max.is_none() {
            return Err(Error::ClampNoBounds);
        }
        self.unary(UnaryOp::Clamp { min, max })
    }

    /// PyTorch's `clamp_min(min)` with a number (`ClampMinBackward0`).
    pub fn clamp_min(&self, min: Scalar) -> Result<Tensor> {
        self.unary(UnaryOp::ClampMin(min))
    }

    /// PyTorch's `clamp_max(max)` with a number (`ClampMaxBackward0`).
    pub fn clamp_max(&self, max: Scalar) -> Result<Tensor> {
        self.unary(UnaryOp::ClampMax(max))
    }

    /// Rounds half to even, PyTorch's `round`; its gradient is zero.
    pub fn round(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Round)
    }

    /// PyTorch's `floor`; its gradient is zero.
    pub fn floor(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Floor)
    }

    /// `1 / self`, PyTorch's `reciprocal`.
    pub fn reciprocal(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Reciprocal)
    }

    /// The error function, PyTorch's `erf`.
    pub fn erf(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Erf)
    }

    /// `log(1 + self)`, exact for tiny values where `(1 + x).log()` rounds
    /// them away: PyTorch's `log1p`.
    pub fn log1p(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Log1p)
    }

    /// `exp(self) - 1`, exact for tiny values where `x.exp() - 1` rounds
    /// them away: PyTorch's `expm1`.
    pub fn expm1(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Expm1)
    }

    /// The base-10 logarithm, PyTorch's `log10`.
    pub fn log10(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Log10)
    }

    /// The base-2 logarithm, PyTorch's `log2`.
    pub fn log2(&self) -> Result<Tensor> {
        self.unary(UnaryOp::Log2)
    }
}
