//! The primitive kernels every backend provides, named once here so the CPU
//! and GPU backends agree on what each op computes.

use crate::layout::Layout;

/// Builds [`BinaryOp`] from its rows: `Variant = CODE => |a, b| value`,
/// the op code `shaders/binary.wgsl` switches on and the op on one pair
/// of float elements (the CPU's kernel, and the reference the GPU kernel is
/// tested against). A new kernel is one row here and one WGSL case.
macro_rules! binary_kernels {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $code:literal => |$a:ident, $b:ident| $value:expr,
    )*) => {
        /// Elementwise binary kernels with broadcasting.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum BinaryOp {
            $($(#[doc = $doc])* $variant,)*
        }

        /// How many binary kernels there are.
        const BINARY_KERNELS: usize = [$(stringify!($variant)),*].len();

        impl BinaryOp {
            /// Every binary op, in the order of their rows.
            pub const ALL: [BinaryOp; BINARY_KERNELS] = [$(BinaryOp::$variant),*];

            /// The op on one pair of elements; the reference the GPU kernel is tested against.
            #[inline]
            pub fn apply<T: num_traits::Float>(self, a: T, b: T) -> T {
                match self {
                    $(BinaryOp::$variant => {
                        let ($a, $b) = (a, b);
                        $value
                    })*
                }
            }

            /// The op code the WGSL kernel switches on (`shaders/binary.wgsl`).
            pub fn code(self) -> u32 {
                match self {
                    $(BinaryOp::$variant => $code,)*
                }
            }
        }
    };
}

// The comparisons (codes 4 to 9, `CompareKernel::code`) came before `pow`.
binary_kernels! {
    /// `a + b`
    Add = 0 => |a, b| a + b,
    /// `a - b`
    Sub = 1 => |a, b| a - b,
    /// `a * b`
    Mul = 2 => |a, b| a * b,
    /// `a / b`
    Div = 3 => |a, b| a / b,
    /// `a ** b`, C's `powf` (a negative base needs an integer exponent).
    Pow = 10 => |a, b| a.powf(b),
    /// PyTorch's `maximum`: the larger, or the NaN if either is one.
    Maximum = 11 => |a, b| if a.is_nan() || (!b.is_nan() && a >= b) { a } else { b },
    /// PyTorch's `minimum`: the smaller, or the NaN if either is one.
    Minimum = 12 => |a, b| if a.is_nan() || (!b.is_nan() && a <= b) { a } else { b },
    /// PyTorch's `tanh_backward(grad, y)`: `a * (1 - b * b)`, with
    /// `1 - b * b` rounded once (a fused multiply-add), as PyTorch's CPU
    /// kernel computes it.
    TanhBackward = 13 => |a, b| a * (-b).mul_add(b, T::one()),
    /// `sqrt(a * a + b * b)` without overflow, C's `hypot` (infinity if
    /// either is, even beside a NaN).
    Hypot = 14 => |a, b| a.hypot(b),
}

/// Reductions a device backend runs over any set of axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceKernel {
    /// The sum (and, scaled, the mean).
    Sum,
    /// The largest element (NaN wins, as PyTorch's `max`).
    Max,
    /// The smallest element (NaN wins).
    Min,
    /// The product.
    Prod,
}

impl ReduceKernel {
    /// Every reduction, in the order of the GPU kernel's op codes.
    pub const ALL: [ReduceKernel; 4] = [
        ReduceKernel::Sum,
        ReduceKernel::Max,
        ReduceKernel::Min,
        ReduceKernel::Prod,
    ];

    /// The op code the WGSL kernel switches on (`shaders/reduce.wgsl`).
    pub fn code(self) -> u32 {
        self as u32
    }
}

/// Comparisons a device backend runs elementwise, each giving a mask of
/// `1.0` (true) and `0.0` (false): PyTorch's `eq ne lt le gt ge`. NaN
/// compares unequal to everything, as IEEE and PyTorch have it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareKernel {
    /// `a == b`
    Eq,
    /// `a != b`
    Ne,
    /// `a < b`
    Lt,
    /// `a <= b`
    Le,
    /// `a > b`
    Gt,
    /// `a >= b`
    Ge,
}

impl CompareKernel {
    /// Every comparison, in the order of the GPU kernel's op codes.
    pub const ALL: [CompareKernel; 6] = [
        CompareKernel::Eq,
        CompareKernel::Ne,
        CompareKernel::Lt,
        CompareKernel::Le,
        CompareKernel::Gt,
        CompareKernel::Ge,
    ];

    /// The comparison on one pair of elements; the reference the GPU kernel
    /// is tested against.
    #[inline]
    pub fn apply<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CompareKernel::Eq => a == b,
            CompareKernel::Ne => a != b,
            CompareKernel::Lt => a < b,
            CompareKernel::Le => a <= b,
            CompareKernel::Gt => a > b,
            CompareKernel::Ge => a >= b,
        }
    }

    /// The op code the WGSL kernel switches on (`shaders/binary.wgsl`,
    /// after the arithmetic ops' codes).
    pub fn code(self) -> u32 {
        4 + self as u32
    }
}

/// Where `nll_loss`'s operands sit: `x` read as `[batch, classes, spatial]`
/// and one target per `(batch, spatial)` position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NllGeometry {
    /// Samples (1 for a `[C]` input).
    pub batch: usize,
    /// Classes.
    pub classes: usize,
    /// Positions per sample (1 unless `[N, C, H, W]`).
    pub spatial: usize,
}

/// The target index the core uploads for an ignored target
/// (`ignore_index`): it selects nothing and adds 0 to the loss.
pub const IGNORED_TARGET: u32 = u32::MAX;

/// Adam's per-step constants for [`DeviceBackend::adam_step`], in `f64`;
/// the kernel rounds each to float32 once, as the CPU's fused update does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamStep {
    /// `1 - beta1`: the weight of `exp_avg.lerp_(grad, 1 - beta1)`.
    pub one_minus_beta1: f64,
    /// `beta2`.
    pub beta2: f64,
    /// `1 - beta2`.
    pub one_minus_beta2: f64,
    /// `sqrt(1 - beta2^step)`.
    pub bias_correction2_sqrt: f64,
    /// `eps`.
    pub eps: f64,
    /// `-lr / (1 - beta1^step)`.
    pub neg_step_size: f64,
    /// Adam's L2 penalty added to the gradient (0 for none or AdamW).
    pub weight_decay: f64,
    /// AdamW's factor on the parameter before the update (`1 - lr * wd`),
    /// or `None`.
    pub decay_factor: Option<f64>,
}

/// One source of [`DeviceBackend::scatter`].
#[derive(Clone, Copy, Debug)]
pub struct ScatterPart<'a> {
    /// The buffer read.
    pub src: &'a dyn DeviceBuffer,
    /// How it is read.
    pub layout: &'a Layout,
    /// Where its elements go in the result.
    pub target: &'a Layout,
}

/// A buffer of `float32` elements owned by a device backend. The core never
/// looks inside: it hands buffers back to the backend that made them.
pub trait DeviceBuffer: std::fmt::Debug + std::any::Any {
    /// Number of `f32` elements.
    fn len(&self) -> usize;
    /// Whether it holds no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The buffer as `Any`, for the backend to downcast to its own type.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A buffer a kernel made, or `None` where the backend has no kernel for
/// this case (the core then computes it on the host copy, as PyTorch's MPS
/// fallback does, and says so in the trace).
pub type Kernel = crate::Result<Option<Box<dyn DeviceBuffer>>>;

/// The primitives a GPU backend provides, over `float32` buffers it made.
///
/// Layouts describe how a kernel reads its operands (shape, strides in
/// elements, offset), exactly as on the CPU; every result is a new
/// contiguous buffer. Work is queued without waiting: only
/// [`DeviceBackend::download`] waits for the device.
pub trait DeviceBackend: std::fmt::Debug {
    /// The adapter's name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    fn adapter_name(&self) -> String;

    /// Why the device was lost, once it has been; every call on it then
    /// fails with [`crate::Error::DeviceLost`], and [`crate::device::gpu`]
    /// opens a new one.
    fn lost(&self) -> Option<String> {
        None
    }

    /// A new buffer holding `data`.
    fn upload(&self, data: &[f32]) -> crate::Result<Box<dyn DeviceBuffer>>;

    /// The buffer's elements, once all queued work has run (blocking natively).
    fn download(&self, buffer: &dyn DeviceBuffer) -> crate::Result<Vec<f32>>;

    /// The elements `layout` selects, copied into a contiguous buffer.
    fn copy(&self, _x: &dyn DeviceBuffer, _layout: &Layout) -> Kernel {
        Ok(None)
    }

    /// A new contiguous buffer of `numel` elements, zero except where each
    /// part writes: part `i`'s source read through its layout, in row-major
    /// order, to the positions its target (a layout of the same shape over
    /// the result, reaching no element twice) gives. What `slice_backward`,
    /// `select_backward`, `cat` and `stack` compute.
    fn scatter(&self, _numel: usize, _parts: &[ScatterPart<'_>]) -> Kernel {
        Ok(None)
    }

    /// Writes `src`'s elements (read through `layout`, row-major) into the
    /// existing buffer `dst` at the positions `target` reaches (a layout of
    /// the same shape reaching no element twice), in order with queued
    /// work: what an in-place op stores. False, having written nothing,
    /// where the backend has no kernel.
    fn write(
        &self,
        _dst: &dyn DeviceBuffer,
        _target: &Layout,
        _src: &dyn DeviceBuffer,
        _layout: &Layout,
    ) -> crate::Result<bool> {
        Ok(false)
    }

    /// `op` on each element `layout` selects (float32 in, float32 out).
    fn unary(&self, _op: &crate::ops::UnaryOp, _x: &dyn DeviceBuffer, _layout: &Layout) -> Kernel {
        Ok(None)
    }

    /// `op(a, b)` elementwise; both layouts already broadcast to one shape
    /// (stride 0 where an operand repeats).
    fn binary(
        &self,
        _op: BinaryOp,
        _a: &dyn DeviceBuffer,
        _a_layout: &Layout,
        _b: &dyn DeviceBuffer,
        _b_layout: &Layout,
    ) -> Kernel {
        Ok(None)
    }

    /// `op` over the axes `dims` (sorted, distinct) of the elements `layout`
    /// selects; the result is contiguous in the shape of `layout` without
    /// those axes. No axes copies; all axes gives one element.
    fn reduce(
        &self,
        _op: ReduceKernel,
        _x: &dyn DeviceBuffer,
        _layout: &Layout,
        _dims: &[usize],
    ) -> Kernel {
        Ok(None)
    }

    /// Batched matrix product: `a` is `[batch, m, k]`, `b` is `[batch, k, n]`
    /// (either may have batch stride 0, or be transposed through its
    /// strides); the result is a contiguous `[batch, m, n]`.
    fn matmul(
        &self,
        _a: &dyn DeviceBuffer,
        _a_layout: &Layout,
        _b: &dyn DeviceBuffer,
        _b_layout: &Layout,
    ) -> Kernel {
        Ok(None)
    }

    /// `a @ b + bias` in one kernel, PyTorch's `addmm` (what `linear`
    /// runs): as [`DeviceBackend::matmul`], with `bias` read through
    /// `bias_layout` broadcast to the `[batch, m, n]` result. Without it the
    /// sum needs a second buffer the size of the product.
    fn matmul_bias(
        &self,
        _a: &dyn DeviceBuffer,
        _a_layout: &Layout,
        _b: &dyn DeviceBuffer,
        _b_layout: &Layout,
        _bias: &dyn DeviceBuffer,
        _bias_layout: &Layout,
    ) -> Kernel {
        Ok(None)
    }

    /// A new buffer of indices (class targets, gathered rows), which only
    /// index kernels read; `None` where the backend has none.
    fn upload_indices(&self, _data: &[u32]) -> Kernel {
        Ok(None)
    }

    /// PyTorch's `index_select(dim, indices)` of the elements `layout`
    /// selects (and `embedding`, rows of its weight): axis `dim` walked in
    /// the order of `indices` (from [`DeviceBackend::upload_indices`], each
    /// already checked against the axis), into a contiguous result.
    fn index_select(
        &self,
        _x: &dyn DeviceBuffer,
        _layout: &Layout,
        _dim: usize,
        _indices: &dyn DeviceBuffer,
    ) -> Kernel {
        Ok(None)
    }

    /// The elements of `x` at storage `positions` (each checked against
    /// it), into a contiguous buffer as long as `positions`: indexing,
    /// `gather`, `take`.
    fn take(&self, _x: &dyn DeviceBuffer, _positions: &[usize]) -> Kernel {
        Ok(None)
    }

    /// A contiguous copy of `base` (read through `base_layout`) with the
    /// elements of `src` at storage positions `reads` added (or, without
    /// `add`, written) at the copy's `positions`, pairwise and in order, so
    /// repeated positions fold left to right as the CPU's loop does:
    /// `scatter_add`, `index_add`, `index_put`, `embedding`'s backward.
    fn put(
        &self,
        _base: &dyn DeviceBuffer,
        _base_layout: &Layout,
        _src: &dyn DeviceBuffer,
        _positions: &[usize],
        _reads: &[usize],
        _add: bool,
    ) -> Kernel {
        Ok(None)
    }

    /// `x`, a dense `[planes, h, w]` read from `layout`'s offset, as
    /// columns `[planes, kh * kw, oh * ow]` (`windows` is `[oh, ow]`), zero
    /// where a window reaches into the padding: PyTorch's `im2col`.
    fn im2col(
        &self,
        _x: &dyn DeviceBuffer,
        _layout: &Layout,
        _image: [usize; 3],
        _window: &crate::cpu::conv::Window2d,
        _windows: [usize; 2],
    ) -> Kernel {
        Ok(None)
    }

    /// The adjoint of [`DeviceBackend::im2col`]: dense columns summed back
    /// into a new `[planes, h, w]`, each element's terms in the CPU's order.
    fn col2im(
        &self,
        _cols: &dyn DeviceBuffer,
        _layout: &Layout,
        _image: [usize; 3],
        _window: &crate::cpu::conv::Window2d,
        _windows: [usize; 2],
    ) -> Kernel {
        Ok(None)
    }

    /// `op(a, b)` elementwise as a mask of `1.0`/`0.0`; layouts as
    /// [`DeviceBackend::binary`]. The core keeps the mask as a bool
    /// storage's device copy, so `x > 0` feeding `where` stays on the device.
    fn compare(
        &self,
        _op: CompareKernel,
        _a: &dyn DeviceBuffer,
        _a_layout: &Layout,
        _b: &dyn DeviceBuffer,
        _b_layout: &Layout,
    ) -> Kernel {
        Ok(None)
    }

    /// PyTorch's `where(condition, a, b)`: `a` where the mask `condition`
    /// (nonzero is true) holds, else `b`; the three layouts already
    /// broadcast to one shape.
    fn where_cond(
        &self,
        _condition: &dyn DeviceBuffer,
        _condition_layout: &Layout,
        _a: &dyn DeviceBuffer,
        _a_layout: &Layout,
        _b: &dyn DeviceBuffer,
        _b_layout: &Layout,
    ) -> Kernel {
        Ok(None)
    }

    /// `softmax` (or, with `log`, `log_softmax`) along axis `dim` of the
    /// elements `layout` selects, each slice shifted by its maximum; the
    /// result is contiguous in the layout's shape. A 0-dim layout is one
    /// slice of one element.
    fn softmax(&self, _x: &dyn DeviceBuffer, _layout: &Layout, _dim: usize, _log: bool) -> Kernel {
        Ok(None)
    }

    /// `nll_loss`'s forward: `-weight[t] * x[n, t, s]` for each target `t`
    /// (from [`DeviceBackend::upload_indices`], already checked against the
    /// classes, [`IGNORED_TARGET`] for ignored ones), with `x` read through
    /// `x_layout`, a `[batch, classes, spatial]` view. With `divisor` the
    /// result is one element, the losses' sum over `divisor` (`1` for
    /// `sum`, the total weight for `mean`); without, one loss per target.
    fn nll_loss(
        &self,
        _x: &dyn DeviceBuffer,
        _x_layout: &Layout,
        _targets: &dyn DeviceBuffer,
        _weight: Option<&dyn DeviceBuffer>,
        _geometry: NllGeometry,
        _divisor: Option<f64>,
    ) -> Kernel {
        Ok(None)
    }

    /// `nll_loss`'s backward coefficients, contiguous `[batch, classes,
    /// spatial]`: `-weight[t]` at each target's class, 0 elsewhere and for
    /// ignored targets.
    fn nll_coefficients(
        &self,
        _targets: &dyn DeviceBuffer,
        _weight: Option<&dyn DeviceBuffer>,
        _geometry: NllGeometry,
    ) -> Kernel {
        Ok(None)
    }

    /// One Adam (or AdamW) update of whole, equally long buffers, in place:
    /// `param`, `exp_avg` and `exp_avg_sq` are written, `grad` read.
    /// Returns false, having changed nothing, where the backend has no kernel.
    fn adam_step(
        &self,
        _param: &dyn DeviceBuffer,
        _grad: &dyn DeviceBuffer,
        _exp_avg: &dyn DeviceBuffer,
        _exp_avg_sq: &dyn DeviceBuffer,
        _step: &AdamStep,
    ) -> crate::Result<bool> {
        Ok(false)
    }

    /// Bytes the backend holds from the device (its caching allocator's
    /// reserve), at least the bytes of live buffers.
    fn reserved_bytes(&self) -> u64 {
        0
    }

    /// Returns cached, unused blocks to the device (`empty_cache`).
    fn empty_cache(&self) {}
}
