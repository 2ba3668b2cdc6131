//! One set of kernels for both devices.
//!
//! An op states its semantics once in `ops/` (result dtype and shape, what
//! its backward saves); the computation is a call to [`run`], which hands
//! the op's kernel to the running op's device and, where that device has
//! none for the case (an integer input on the GPU, an op without a WGSL
//! case), to the host: the one fallback. Where the host's computation is
//! the op's own (a fused CPU loop whose rounding the GPU's kernels match
//! step by step), the op passes it to [`run_or`] instead. Either way
//! [`crate::ops::apply`] sees whether a device kernel ran and counts the
//! fallback for `--kernel-stats`.
//!
//! Each kernel reads storages through layouts and makes a new contiguous
//! storage, or answers `Ok(None)` where its device has no kernel for the
//! case. The host has the kernels [`run`] needs; the GPU's are in
//! [`gpu`], over the [`DeviceBackend`] a GPU crate registers.

mod gpu;

use std::rc::Rc;

use crate::backend::{AdamStep, BinaryOp, CompareKernel, NllGeometry, ReduceKernel};
use crate::cpu::conv::Window2d;
use crate::cpu::unary::{map2, map3};
use crate::cpu::{CpuBuffer, Element};
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::UnaryOp;
use crate::ops::arith::Elements;
use crate::storage::Storage;
use crate::tensor::Tensor;

#[cfg(doc)]
use crate::backend::DeviceBackend;

/// A kernel operand: a storage and the layout that reads it.
pub(crate) type Operand<'a> = (&'a Storage, &'a Layout);

/// The kernels a device provides, over storages read through layouts.
pub(crate) trait Kernels {
    /// `op` on each element `layout` selects from `x`, computed in
    /// `dtype` (the op's result dtype, which the input converts to first).
    fn unary(
        &self,
        op: &UnaryOp,
        x: &Storage,
        layout: &Layout,
        dtype: DType,
    ) -> Result<Option<Storage>>;

    /// The elements `layout` selects from `x`, converted to `dtype`.
    fn cast(&self, x: &Storage, layout: &Layout, dtype: DType) -> Result<Option<Storage>>;

    /// `op(a, b)` broadcast to `shape`, compared in `dtype` (which both
    /// convert to first), as a bool storage.
    fn compare(
        &self,
        op: CompareKernel,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>>;

    /// `where(condition, a, b)` broadcast to `shape`, `a` and `b` converted
    /// to `dtype` and `condition` bool.
    fn where_cond(
        &self,
        condition: Operand<'_>,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>>;

    /// `softmax` (or, with `log`, `log_softmax`) of `x` along `dim`.
    fn softmax(&self, x: Operand<'_>, dim: usize, log: bool) -> Result<Option<Storage>>;

    /// The batched product of `a` and `b`, their layouts read as
    /// `[batch, m, k]` and `[batch, k, n]`: a contiguous `[batch, m, n]`.
    fn matmul(&self, a: Operand<'_>, b: Operand<'_>) -> Result<Option<Storage>>;

    /// `op(a, b)` broadcast to `shape`, computed in `dtype` (the result's).
    fn binary(
        &self,
        _op: BinaryOp,
        _a: Operand<'_>,
        _b: Operand<'_>,
        _shape: &[usize],
        _dtype: DType,
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// `op(x, value)`, or `op(value, x)` with `number_first`: the number
    /// rounded to `x`'s dtype and spread over `x`'s shape (`1 - x`,
    /// `alpha * y`).
    fn binary_number(
        &self,
        _op: BinaryOp,
        _x: Operand<'_>,
        _value: f64,
        _number_first: bool,
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// `op` over the axes `dims` (sorted, distinct) of `x`: a result of
    /// `x`'s shape without those axes.
    fn reduce(
        &self,
        _op: ReduceKernel,
        _x: Operand<'_>,
        _dims: &[usize],
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// The elements `x`'s layout selects, in a contiguous storage.
    fn copy(&self, _x: Operand<'_>) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// `numel` zeros with each part's source written at the positions its
    /// target layout (over the contiguous result) reaches: `cat`, `stack`,
    /// the backward of slicing views.
    fn scatter(&self, _parts: &[(Operand<'_>, &Layout)], _numel: usize) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// The elements of `x`'s storage at `positions`: indexing, `gather`.
    fn take(&self, _x: Operand<'_>, _positions: &[usize]) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// A contiguous copy of `base` with the elements of `src`'s storage at
    /// `reads` added (or, without `add`, written) at `positions`, in order:
    /// `scatter_add`, `index_add`, `index_put`, `embedding`'s backward.
    fn put(
        &self,
        _base: Operand<'_>,
        _positions: &[usize],
        _src: Operand<'_>,
        _reads: &[usize],
        _add: bool,
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// Stores `src` in place at the elements `dst`'s layout reaches (an
    /// in-place op's write), a new version of `dst`; false, having changed
    /// nothing, where the device has no kernel.
    fn write(&self, _dst: Operand<'_>, _src: Operand<'_>) -> Result<bool> {
        Ok(false)
    }

    /// `index_select(dim, values)` of `x` (`embedding`: rows of its weight),
    /// the values already checked against the axis.
    fn index_select(
        &self,
        _x: Operand<'_>,
        _dim: usize,
        _values: &[i64],
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// PyTorch's `im2col` of `x` read as `[planes, h, w]` (`image`).
    fn im2col(
        &self,
        _x: Operand<'_>,
        _image: [usize; 3],
        _window: &Window2d,
        _windows: [usize; 2],
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// PyTorch's `col2im`: columns summed back into `[planes, h, w]`.
    fn col2im(
        &self,
        _cols: Operand<'_>,
        _image: [usize; 3],
        _window: &Window2d,
        _windows: [usize; 2],
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// `a @ b + bias` in one kernel (`linear`'s `addmm`), `a` and `b` read
    /// as `[batch, m, k]` and `[batch, k, n]`, `bias` broadcast to `shape`.
    fn matmul_bias(
        &self,
        _a: Operand<'_>,
        _b: Operand<'_>,
        _bias: Operand<'_>,
        _shape: &[usize],
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// `nll_loss`'s forward (see [`DeviceBackend::nll_loss`]).
    fn nll_loss(
        &self,
        _x: Operand<'_>,
        _target: Operand<'_>,
        _weight: Option<Operand<'_>>,
        _ignore_index: i64,
        _geometry: NllGeometry,
        _divisor: Option<f64>,
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// `nll_loss`'s backward coefficients (see
    /// [`DeviceBackend::nll_coefficients`]), for a result of `dtype`.
    fn nll_coefficients(
        &self,
        _target: Operand<'_>,
        _weight: Option<Operand<'_>>,
        _ignore_index: i64,
        _geometry: NllGeometry,
        _dtype: DType,
    ) -> Result<Option<Storage>> {
        Ok(None)
    }

    /// One Adam update of whole storages `[param, grad, exp_avg,
    /// exp_avg_sq]` in place, `writes` versions of the parameter (as many
    /// as the op-by-op path writes); false, having changed nothing, where
    /// the device has no kernel.
    fn adam_step(&self, _storages: [&Storage; 4], _step: &AdamStep, _writes: u64) -> Result<bool> {
        Ok(false)
    }
}

/// Runs `kernel` on the running op's device, or on the host where that
/// device has no kernel for the case.
pub(crate) fn run(kernel: impl Fn(&dyn Kernels) -> Result<Option<Storage>>) -> Result<Storage> {
    run_or(&kernel, || {
        kernel(&Host)?.ok_or_else(|| Error::Internal("the host has no kernel for an op".into()))
    })
}

/// Runs `kernel` on the running op's device; where the op runs on the CPU
/// or that device has no kernel for the case, `host`, the op's own host
/// computation.
pub(crate) fn run_or<T>(
    kernel: impl FnOnce(&dyn Kernels) -> Result<Option<T>>,
    host: impl FnOnce() -> Result<T>,
) -> Result<T> {
    run_or_on(device::current(), kernel, host)
}

/// [`run_or`] on the device of the tensors given, for work outside any op
/// (an in-place store, the optimizer's fused step, a gradient's copy).
pub(crate) fn run_or_on<T>(
    device: Device,
    kernel: impl FnOnce(&dyn Kernels) -> Result<Option<T>>,
    host: impl FnOnce() -> Result<T>,
) -> Result<T> {
    if device == Device::WebGpu
        && let Some(out) = kernel(&gpu::Gpu(device::gpu()?))?
    {
        return Ok(out);
    }
    host()
}

/// A tensor as a kernel operand: its storage and layout.
pub(crate) fn operand(t: &Tensor) -> Operand<'_> {
    (&**t.storage(), t.layout())
}

/// A kernel's storage as a contiguous tensor of `shape`.
pub(crate) fn shaped(out: Option<Storage>, shape: &[usize]) -> Option<Tensor> {
    out.map(|s| Tensor::from_parts(Rc::new(s), Layout::contiguous(shape)))
}

/// The CPU, and a GPU storage's host copy (which the storage keeps
/// current): every kernel, every dtype.
struct Host;

impl Kernels for Host {
    fn unary(
        &self,
        op: &UnaryOp,
        x: &Storage,
        layout: &Layout,
        dtype: DType,
    ) -> Result<Option<Storage>> {
        let data = x.data();
        let out = if data.dtype() == dtype {
            crate::cpu::unary::unary(op, &data, layout, dtype)?
        } else {
            let converted = data.gather_as(layout, dtype);
            let dense = Layout::contiguous(layout.shape());
            crate::cpu::unary::unary(op, &converted, &dense, dtype)?
        };
        Ok(Some(Storage::new(out)))
    }

    fn cast(&self, x: &Storage, layout: &Layout, dtype: DType) -> Result<Option<Storage>> {
        Ok(Some(Storage::new(x.data().gather_as(layout, dtype))))
    }

    fn compare(
        &self,
        op: CompareKernel,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>> {
        fn go<T: Element>(op: CompareKernel, a: (&[T], &Layout), b: (&[T], &Layout)) -> Vec<bool> {
            map2(a.0, a.1, b.0, b.1, |x, y| op.apply(x, y))
        }
        let (a, al) = host_elements(a, dtype, shape)?;
        let (b, bl) = host_elements(b, dtype, shape)?;
        let out = crate::cpu_dispatch_pair!((&*a, &*b), (x, y) => go(op, (x, &al), (y, &bl)),
        _ => {
            return Err(Error::Internal(format!(
                "{op:?} of {} and {}",
                a.dtype(),
                b.dtype()
            )));
        });
        Ok(Some(Storage::new(CpuBuffer::Bool(out))))
    }

    fn where_cond(
        &self,
        condition: Operand<'_>,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>> {
        fn go<T: Element>(c: (&[bool], &Layout), a: (&[T], &Layout), b: (&[T], &Layout)) -> Vec<T> {
            map3(c, a, b, |c, x, y| if c { x } else { y })
        }
        let internal = |what: &str| Error::Internal(format!("where of {what}"));
        let (c, cl) = host_elements(condition, DType::Bool, shape)?;
        let (a, al) = host_elements(a, dtype, shape)?;
        let (b, bl) = host_elements(b, dtype, shape)?;
        let CpuBuffer::Bool(c) = &*c else {
            return Err(internal("a condition that is not bool"));
        };
        let c = (c.as_slice(), &cl);
        let out = crate::cpu_dispatch_pair!((&*a, &*b),
            (x, y) => Element::into_buffer(go(c, (x, &al), (y, &bl))),
            _ => return Err(internal("operands of two dtypes")));
        Ok(Some(Storage::new(out)))
    }

    fn softmax(&self, (x, layout): Operand<'_>, dim: usize, log: bool) -> Result<Option<Storage>> {
        let out = crate::cpu::reduce::softmax(&x.data(), layout, dim, log)?;
        Ok(Some(Storage::new(out)))
    }

    fn matmul(&self, (a, al): Operand<'_>, (b, bl): Operand<'_>) -> Result<Option<Storage>> {
        let out = crate::cpu::matmul::bmm(&a.data(), al, &b.data(), bl)?;
        Ok(Some(Storage::new(out)))
    }
}

/// An operand's host elements as `dtype` and the layout that reads them
/// broadcast to `shape`; converted (once, before broadcasting) only where
/// the dtype differs.
fn host_elements<'a>(
    (storage, layout): Operand<'a>,
    dtype: DType,
    shape: &[usize],
) -> Result<(Elements<'a>, Layout)> {
    let data = storage.data();
    if data.dtype() == dtype {
        return Ok((Elements::Stored(data), layout.broadcast_to(shape)?));
    }
    let converted = data.gather_as(layout, dtype);
    let dense = Layout::contiguous(layout.shape()).broadcast_to(shape)?;
    Ok((Elements::Converted(converted), dense))
}

/// `k`'s binary, number, reduction and unary kernels over tensors, for
/// the device paths that compose several (`var`'s two passes, the norms'
/// steps): each result a new contiguous tensor.
#[allow(clippy::type_complexity)]
pub(crate) fn tensor_kernels<'a>(
    k: &'a dyn Kernels,
) -> (
    impl Fn(BinaryOp, &Tensor, &Tensor, &[usize], DType) -> Result<Option<Tensor>> + 'a,
    impl Fn(BinaryOp, &Tensor, f64, bool) -> Result<Option<Tensor>> + 'a,
    impl Fn(ReduceKernel, &Tensor, &[usize]) -> Result<Option<Tensor>> + 'a,
    impl Fn(&UnaryOp, &Tensor, DType) -> Result<Option<Tensor>> + 'a,
) {
    let binary = move |op, a: &Tensor, b: &Tensor, shape: &[usize], dtype| {
        Ok(shaped(
            k.binary(op, operand(a), operand(b), shape, dtype)?,
            shape,
        ))
    };
    let binary_number = move |op, x: &Tensor, value, number_first| {
        let out = k.binary_number(op, operand(x), value, number_first)?;
        Ok(shaped(out, x.shape()))
    };
    let reduce = move |op, x: &Tensor, dims: &[usize]| {
        let shape: Vec<usize> = (x.shape().iter().enumerate())
            .filter(|(i, _)| !dims.contains(i))
            .map(|(_, &n)| n)
            .collect();
        Ok(shaped(k.reduce(op, operand(x), dims)?, &shape))
    };
    let unary = move |op: &UnaryOp, x: &Tensor, dtype| {
        let (storage, layout) = operand(x);
        Ok(shaped(k.unary(op, storage, layout, dtype)?, x.shape()))
    };
    (binary, binary_number, reduce, unary)
}
