//! Elementwise maths on one tensor: `exp log sqrt rsqrt abs sign sin cos
//! tanh sigmoid relu gelu leaky_relu softplus clamp round floor neg
//! reciprocal erf log1p expm1 log10 log2 angle`, and `to(dtype)`.
//!
//! Every op is one row of `unary_ops!`'s table below: its variant, its
//! PyTorch names, its dtype rule, what its backward saves, where gradcheck
//! samples it, its GPU op code and, for ops without attributes, its
//! `Tensor` method (which the Python bindings and the fixture tests find
//! through [`UnaryOp::METHODS`]). Adding an op without attributes takes its
//! row, its derivative (`autograd/derivatives/unary.rs`), its CPU kernel
//! (`float` in `cpu/unary.rs`), its WGSL case (`shaders/unary.wgsl`) and its
//! fixture line (`tests/fixtures/record_elementwise.py`).
//!
//! ```
//! use gradscope_core::Tensor;
//! let x = Tensor::from_vec(vec![-1.0f32, 2.0], &[2])?.requires_grad_(true);
//! let y = x.relu()?;
//! assert_eq!(y.to_vec::<f32>(), vec![0.0, 2.0]);
//! assert_eq!(y.grad_fn().map(|n| n.name().to_owned()).as_deref(), Some("ReluBackward0"));
//! # Ok::<(), gradscope_core::Error>(())
//! ```

use super::arith::Scalar;
use super::{Op, OpInfo, SavedSlot, apply, inputs};
use crate::kernels;
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

/// A unary op's result dtype for each input dtype: a row's `dtype`.
#[derive(Clone, Copy, Debug)]
pub enum Dtypes {
    /// Maths: floats keep their dtype, integers and bools compute in the
    /// default float dtype (`exp`, `sin`).
    Float,
    /// Every dtype kept, bool included (`sign(True)` is `True`).
    Same,
    /// Floats and integers kept; bool refused with this error (`neg`).
    NoBool(fn() -> Error),
    /// Floats only; integers and bools refused naming PyTorch's CPU kernel
    /// (`gelu`'s `GeluKernelImpl`).
    FloatOnly(&'static str),
    /// Decided by the op's attributes: `clamp`'s bounds promote, `to`
    /// gives its target (`UnaryOp::attribute_dtype`).
    Attributes,
}

/// What a unary op's backward reads: a row's `saves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saves {
    /// Nothing: the gradient is a constant or the input's own (`neg`).
    Nothing,
    /// The result (`exp`: `grad * result`).
    Result,
    /// The input (`log`: `grad / self`).
    Input,
}

/// Where gradcheck samples a unary op, clear of its kinks and jumps and in
/// its domain: a row's `domain`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Domain {
    /// Any real number.
    Real,
    /// Positive numbers (`log`, `sqrt`).
    Positive,
    /// Real numbers at a distance from these points (`round`'s halves).
    Avoiding(&'static [f64]),
    /// Decided by the op's attributes (`clamp`'s bounds).
    Attributes,
}

/// The signature of a unary op's `Tensor` method.
pub type UnaryMethod = fn(&Tensor) -> Result<Tensor>;

/// Builds [`UnaryOp`] and everything read off its rows. A row is
///
/// ```text
/// /// docs (of the variant and of its Tensor method)
/// Variant [=> method] [name "...", node "...", dtype ..., saves ...,
///                      domain ... (, wgsl CODE) (, samples [...])]
/// ```
///
/// `method` (ops without attributes) generates the `Tensor` method, the
/// [`UnaryOp::METHODS`] row and the sample in [`UnaryOp::ALL`]; ops with
/// attributes write their method by hand and list their samples. `wgsl` is
/// the op code of `shaders/unary.wgsl` for ops without attributes.
macro_rules! unary_ops {
    (@method_fn $method:ident) => { Some(Tensor::$method as UnaryMethod) };
    (@method_fn) => { None };
    (@code $code:literal) => { Some($code) };
    (@code) => { None };
    (@tensor_method $variant:ident [$($doc:literal)*] $method:ident) => {
        impl Tensor {
            $(#[doc = $doc])*
            pub fn $method(&self) -> Result<Tensor> {
                self.unary(UnaryOp::$variant)
            }
        }
    };
    (@tensor_method $variant:ident [$($doc:literal)*]) => {};
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident
        $(( $($tuple:ty),+ ))?
        $({ $( $(#[doc = $field_doc:literal])* $field:ident : $field_ty:ty ),+ $(,)? })?
        $(=> $method:ident)?
        [
            name $name:literal,
            node $node:literal,
            dtype $dtype:expr,
            saves $saves:ident,
            domain $domain:expr
            $(, wgsl $code:literal)?
            $(, samples [$($sample:expr),* $(,)?])?
            $(,)?
        ]
    ),* $(,)?) => {
        /// An elementwise op on one tensor, with its attributes.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum UnaryOp {
            $(
                $(#[doc = $doc])*
                $variant
                $(( $($tuple),+ ))?
                $({ $( $(#[doc = $field_doc])* $field: $field_ty ),+ })?,
            )*
        }

        impl UnaryOp {
            /// Every unary op (with sample attributes), for tests that
            /// check each has a name, a kernel, a derivative and a fixture.
            pub const ALL: &[UnaryOp] = &[
                $(
                    $({
                        let _method = stringify!($method);
                        UnaryOp::$variant
                    },)?
                    $($($sample,)*)?
                )*
            ];

            /// The name and `Tensor` method of every op without
            /// attributes: the Python bindings' rows (`x.exp()`,
            /// `torch.exp(x)`) and the fixture tests' dispatch.
            pub const METHODS: &[(&str, UnaryMethod)] = &[
                $($((stringify!($method), Tensor::$method as UnaryMethod),)?)*
            ];

            /// Every variant's name (`"UnaryOp::Exp"`), as gradcheck's
            /// coverage lists them.
            pub const VARIANTS: &[&str] = &[
                $(concat!("UnaryOp::", stringify!($variant))),*
            ];

            /// This op's variant name, one of [`UnaryOp::VARIANTS`].
            pub fn variant(&self) -> &'static str {
                match self {
                    $(UnaryOp::$variant { .. } => concat!("UnaryOp::", stringify!($variant)),)*
                }
            }

            /// The op's `Tensor` method when it takes no attributes.
            pub fn method(&self) -> Option<UnaryMethod> {
                match self {
                    $(UnaryOp::$variant { .. } => unary_ops!(@method_fn $($method)?),)*
                }
            }

            /// The op's dtype rule.
            pub fn dtypes(&self) -> Dtypes {
                #[allow(unused_imports)]
                use Dtypes::*;
                match self {
                    $(UnaryOp::$variant { .. } => $dtype,)*
                }
            }

            /// What the op's backward reads.
            pub fn saves(&self) -> Saves {
                match self {
                    $(UnaryOp::$variant { .. } => Saves::$saves,)*
                }
            }

            /// Where gradcheck samples the op.
            pub fn domain(&self) -> Domain {
                #[allow(unused_imports)]
                use Domain::*;
                match self {
                    $(UnaryOp::$variant { .. } => $domain,)*
                }
            }

            /// The op code `shaders/unary.wgsl` switches on, for ops
            /// without attributes; the GPU backend codes the others.
            pub fn wgsl_code(&self) -> Option<u32> {
                match self {
                    $(UnaryOp::$variant { .. } => unary_ops!(@code $($code)?),)*
                }
            }
        }

        impl OpInfo for UnaryOp {
            fn node_name(&self) -> &'static str {
                match self {
                    $(UnaryOp::$variant { .. } => $node,)*
                }
            }

            fn name(&self) -> &'static str {
                match self {
                    $(UnaryOp::$variant { .. } => $name,)*
                }
            }

            fn arity(&self) -> usize {
                1
            }

            fn saved(&self, _needs: &[bool]) -> Vec<SavedSlot> {
                match self.saves() {
                    Saves::Nothing => vec![],
                    Saves::Result => vec![SavedSlot::Output],
                    Saves::Input => vec![SavedSlot::Input(0)],
                }
            }
        }

        $(unary_ops!(@tensor_method $variant [$($doc)*] $($method)?);)*
    };
}

/// `round`'s and `floor`'s jumps near gradcheck's samples.
const HALVES: &[f64] = &[-1.5, -0.5, 0.5, 1.5];
const INTEGERS: &[f64] = &[-1.0, 0.0, 1.0];

unary_ops! {
    /// `-self`, PyTorch's `neg`.
    Neg => neg [name "neg", node "NegBackward0", dtype NoBool(|| Error::NegBool),
        saves Nothing, domain Real, wgsl 0],
    /// `e ** self`, PyTorch's `exp`.
    Exp => exp [name "exp", node "ExpBackward0", dtype Float, saves Result, domain Real,
        wgsl 1],
    /// The natural logarithm, PyTorch's `log`.
    Log => log [name "log", node "LogBackward0", dtype Float, saves Input, domain Positive,
        wgsl 2],
    /// PyTorch's `sqrt`.
    Sqrt => sqrt [name "sqrt", node "SqrtBackward0", dtype Float, saves Result,
        domain Positive, wgsl 3],
    /// `1 / sqrt(self)`, PyTorch's `rsqrt`.
    Rsqrt => rsqrt [name "rsqrt", node "RsqrtBackward0", dtype Float, saves Result,
        domain Positive, wgsl 4],
    /// PyTorch's `abs`; integers stay integers.
    Abs => abs [name "abs", node "AbsBackward0",
        dtype NoBool(|| Error::KernelDtype { kernel: "abs_cpu", dtype: DType::Bool }),
        saves Input, domain Real, wgsl 5],
    /// -1, 0 or 1 by sign (0 for NaN), PyTorch's `sign`; its gradient is zero.
    Sign => sign [name "sign", node "SignBackward0", dtype Same, saves Nothing, domain Real,
        wgsl 6],
    /// PyTorch's `sin`.
    Sin => sin [name "sin", node "SinBackward0", dtype Float, saves Input, domain Real,
        wgsl 7],
    /// PyTorch's `cos`.
    Cos => cos [name "cos", node "CosBackward0", dtype Float, saves Input, domain Real,
        wgsl 8],
    /// PyTorch's `tanh`.
    Tanh => tanh [name "tanh", node "TanhBackward0", dtype Float, saves Result, domain Real,
        wgsl 9],
    /// `1 / (1 + exp(-self))`, PyTorch's `sigmoid`.
    Sigmoid => sigmoid [name "sigmoid", node "SigmoidBackward0", dtype Float, saves Result,
        domain Real, wgsl 10],
    /// `max(self, 0)`, PyTorch's `relu` (it saves its result, whose mask
    /// is `result > 0`).
    Relu => relu [name "relu", node "ReluBackward0",
        dtype NoBool(|| Error::BoolUnsupported { op: "relu" }), saves Result, domain Real,
        wgsl 11],
    /// `gelu`
    Gelu(GeluApproximate) [name "gelu", node "GeluBackward0",
        dtype FloatOnly("GeluKernelImpl"), saves Input, domain Real,
        samples [UnaryOp::Gelu(GeluApproximate::None), UnaryOp::Gelu(GeluApproximate::Tanh)]],
    /// `leaky_relu(negative_slope)`
    LeakyRelu {
        /// The slope for negative inputs.
        negative_slope: f64,
    } [name "leaky_relu", node "LeakyReluBackward0", dtype FloatOnly("leaky_relu_cpu"),
        saves Input, domain Real,
        samples [UnaryOp::LeakyRelu { negative_slope: 0.01 }]],
    /// `softplus(beta, threshold)`
    Softplus {
        /// `log1p(exp(beta x)) / beta`.
        beta: f64,
        /// Past `beta x > threshold` the result is `x`.
        threshold: f64,
    } [name "softplus", node "SoftplusBackward0", dtype FloatOnly("softplus_cpu"),
        saves Input, domain Attributes,
        samples [UnaryOp::Softplus { beta: 1.0, threshold: 20.0 }]],
    /// `clamp(min, max)` with number bounds, at least one given.
    Clamp {
        /// The lower bound.
        min: Option<Scalar>,
        /// The upper bound.
        max: Option<Scalar>,
    } [name "clamp", node "ClampBackward1", dtype Attributes, saves Input,
        domain Attributes,
        samples [UnaryOp::Clamp {
            min: Some(Scalar::Float(-1.0)),
            max: Some(Scalar::Float(1.0)),
        }]],
    /// `clamp_min(min)` with a number.
    ClampMin(Scalar) [name "clamp_min", node "ClampMinBackward0", dtype Attributes,
        saves Input, domain Attributes, samples [UnaryOp::ClampMin(Scalar::Float(0.0))]],
    /// `clamp_max(max)` with a number.
    ClampMax(Scalar) [name "clamp_max", node "ClampMaxBackward0", dtype Attributes,
        saves Input, domain Attributes, samples [UnaryOp::ClampMax(Scalar::Float(0.0))]],
    /// Rounds half to even, PyTorch's `round`; its gradient is zero.
    Round => round [name "round", node "RoundBackward0",
        dtype NoBool(|| Error::KernelDtype { kernel: "round_vml_cpu", dtype: DType::Bool }),
        saves Nothing, domain Avoiding(HALVES), wgsl 17],
    /// PyTorch's `floor`; its gradient is zero.
    Floor => floor [name "floor", node "FloorBackward0",
        dtype NoBool(|| Error::KernelDtype { kernel: "floor_vml_cpu", dtype: DType::Bool }),
        saves Nothing, domain Avoiding(INTEGERS), wgsl 18],
    /// `1 / self`, PyTorch's `reciprocal`.
    Reciprocal => reciprocal [name "reciprocal", node "ReciprocalBackward0", dtype Float,
        saves Result, domain Real, wgsl 19],
    /// The error function, PyTorch's `erf`.
    Erf => erf [name "erf", node "ErfBackward0", dtype Float, saves Input, domain Real,
        wgsl 20],
    /// `log(1 + self)`, exact for tiny values where `(1 + x).log()` rounds
    /// them away: PyTorch's `log1p`.
    Log1p => log1p [name "log1p", node "Log1PBackward0", dtype Float, saves Input,
        domain Positive, wgsl 21],
    /// `exp(self) - 1`, exact for tiny values where `x.exp() - 1` rounds
    /// them away: PyTorch's `expm1`.
    Expm1 => expm1 [name "expm1", node "Expm1Backward0", dtype Float, saves Result,
        domain Real, wgsl 22],
    /// The base-10 logarithm, PyTorch's `log10`.
    Log10 => log10 [name "log10", node "Log10Backward0", dtype Float, saves Input,
        domain Positive, wgsl 23],
    /// The base-2 logarithm, PyTorch's `log2`.
    Log2 => log2 [name "log2", node "Log2Backward0", dtype Float, saves Input,
        domain Positive, wgsl 24],
    /// The angle of a real number, PyTorch's `angle`: pi below zero (`-inf`
    /// too), zero otherwise (`-0.0` too), NaN for NaN. Its gradient is zero;
    /// PyTorch saves `self` for the complex formula.
    Angle => angle [name "angle", node "AngleBackward0", dtype Float, saves Input,
        domain Real, wgsl 25],
    /// `to(dtype)`: a copy in another dtype.
    ToDtype {
        /// The input's dtype, which the gradient goes back to.
        from: DType,
        /// The result's dtype.
        to: DType,
    } [name "to", node "ToCopyBackward0", dtype Attributes, saves Nothing,
        domain Attributes,
        samples [UnaryOp::ToDtype { from: DType::Float32, to: DType::Float64 }]],
    /// `to(device)`: a copy on another device. Not in [`UnaryOp::ALL`]: it
    /// needs a GPU registered.
    ToDevice {
        /// The input's device, which the gradient goes back to.
        from: Device,
        /// The result's device.
        to: Device,
    } [name "to", node "ToCopyBackward0", dtype Attributes, saves Nothing, domain Real,
        samples []],
}

impl UnaryOp {
    /// Applies the op through its public [`Tensor`] method, as a program
    /// calls it: gradcheck's rows and the kernel tests' CPU side go through
    /// here.
    pub fn call(&self, x: &Tensor) -> Result<Tensor> {
        if let Some(method) = self.method() {
            return method(x);
        }
        match *self {
            UnaryOp::Gelu(approximate) => x.gelu(approximate),
            UnaryOp::LeakyRelu { negative_slope } => x.leaky_relu(negative_slope),
            UnaryOp::Softplus { beta, threshold } => x.softplus(beta, threshold),
            UnaryOp::Clamp { min, max } => x.clamp(min, max),
            UnaryOp::ClampMin(min) => x.clamp_min(min),
            UnaryOp::ClampMax(max) => x.clamp_max(max),
            // From `from` first, so the op's node converts `from` to `to`.
            UnaryOp::ToDtype { from, to } => x.to_dtype(from)?.to_dtype(to),
            UnaryOp::ToDevice { from, to } => x.to_device(from)?.to_device(to),
            // Every op without attributes has a method, taken above.
            _ => x.unary(*self),
        }
    }

    /// The result dtype for an input of `dtype`, or PyTorch's error, by the
    /// row's [`Dtypes`] rule.
    fn dtype(&self, dtype: DType) -> Result<DType> {
        let float = dtype.is_float();
        Ok(match self.dtypes() {
            Dtypes::Attributes => return self.attribute_dtype(dtype),
            Dtypes::Float if float => dtype,
            Dtypes::Float => DType::default_float(),
            Dtypes::Same => dtype,
            Dtypes::NoBool(refusal) if dtype == DType::Bool => return Err(refusal()),
            Dtypes::NoBool(_) => dtype,
            Dtypes::FloatOnly(_) if float => dtype,
            Dtypes::FloatOnly(kernel) => return Err(Error::KernelDtype { kernel, dtype }),
        })
    }

    /// [`Dtypes::Attributes`]: `to` gives its target; `clamp`'s number
    /// bounds promote an integer input as PyTorch's `result_type` does.
    fn attribute_dtype(&self, dtype: DType) -> Result<DType> {
        Ok(match (*self, dtype) {
            (UnaryOp::ToDtype { to, .. }, _) => to,
            (UnaryOp::ToDevice { .. }, d) => d,
            (_, d) if d.is_float() => d,
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
            _ => {
                let name = self.name();
                return Err(Error::Backend(format!(
                    "internal error: no {name} dtype rule for {dtype}"
                )));
            }
        })
    }

    pub(crate) fn forward(&self, ins: &[&Tensor]) -> Result<Tensor> {
        let [x] = inputs::<1>(self, ins)?;
        let dtype = self.dtype(x.dtype())?;
        let (storage, layout) = (x.storage(), x.layout());
        let out = match *self {
            UnaryOp::ToDevice { to, .. } => return to_device(x, to),
            UnaryOp::ToDtype { to, .. } => {
                // A float32 GPU tensor lives on the device, which has no
                // f64; integers and bools stay on the host and may widen there.
                if to == DType::Float64 && x.device() == Device::WebGpu && x.dtype().is_float() {
                    return Err(Error::GpuFloat64);
                }
                kernels::run(|k| k.cast(storage, layout, to))?
            }
            _ => kernels::run(|k| k.unary(self, storage, layout, dtype))?,
        };
        Ok(Tensor::from_parts(
            Rc::new(out),
            Layout::contiguous(x.shape()),
        ))
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

impl Tensor {
    fn unary(&self, op: UnaryOp) -> Result<Tensor> {
        apply(Op::Unary(op), &[self])
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
}
