//! The primitive kernels every backend provides, named once here so the CPU
//! and GPU backends agree on what each op computes.

use crate::layout::Layout;

/// Elementwise binary kernels with broadcasting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// `a / b`
    Div,
}

impl BinaryOp {
    /// Every binary op, in the order of the GPU kernel's op codes.
    pub const ALL: [BinaryOp; 4] = [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div];

    /// The op on one pair of elements; the reference the GPU kernel is tested against.
    #[inline]
    pub fn apply<T: num_traits::Float>(self, a: T, b: T) -> T {
        match self {
            BinaryOp::Add => a + b,
            BinaryOp::Sub => a - b,
            BinaryOp::Mul => a * b,
            BinaryOp::Div => a / b,
        }
    }

    /// The op code the WGSL kernel switches on (`shaders/binary.wgsl`).
    pub fn code(self) -> u32 {
        match self {
            BinaryOp::Add => 0,
            BinaryOp::Sub => 1,
            BinaryOp::Mul => 2,
            BinaryOp::Div => 3,
        }
    }
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

    /// A new buffer holding `data`.
    fn upload(&self, data: &[f32]) -> crate::Result<Box<dyn DeviceBuffer>>;

    /// The buffer's elements, once all queued work has run (blocking natively).
    fn download(&self, buffer: &dyn DeviceBuffer) -> crate::Result<Vec<f32>>;

    /// The elements `layout` selects, copied into a contiguous buffer.
    fn copy(&self, _x: &dyn DeviceBuffer, _layout: &Layout) -> Kernel {
        Ok(None)
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

    /// Bytes the backend holds from the device (its caching allocator's
    /// reserve), at least the bytes of live buffers.
    fn reserved_bytes(&self) -> u64 {
        0
    }

    /// Returns cached, unused blocks to the device (`empty_cache`).
    fn empty_cache(&self) {}
}
