//! One set of kernels for both devices.
//!
//! An op states its semantics once in `ops/` (result dtype and shape, what
//! its backward saves); the computation is a call to [`run`], which hands
//! the op's kernel to the running op's device and, where that device has
//! none for the case (an integer input on the GPU, an op without a WGSL
//! case), to the host: the one fallback. [`crate::ops::apply`] sees that
//! no device kernel ran and counts the fallback for `--kernel-stats`.
//!
//! Each kernel reads storages through layouts and makes a new contiguous
//! storage, or answers `Ok(None)` where its device has no kernel for the
//! case; the host always has one. The unary family, dtype conversions,
//! comparisons, `where`, softmax and the matrix products' own op run
//! through here; the other families still ask
//! the GPU first through `ops::on_device` and move here one by one.

use std::cell::Ref;
use std::ops::Deref;
use std::rc::Rc;

use crate::backend::{CompareKernel, DeviceBackend, DeviceBuffer};
use crate::cpu::unary::{map2, map3};
use crate::cpu::{CpuBuffer, Element};
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::UnaryOp;
use crate::ops::arith::Elements;
use crate::storage::Storage;

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
}

/// Runs `kernel` on the running op's device, or on the host where that
/// device has no kernel for the case.
pub(crate) fn run(kernel: impl Fn(&dyn Kernels) -> Result<Option<Storage>>) -> Result<Storage> {
    if device::current() == Device::WebGpu
        && let Some(out) = kernel(&Gpu(device::gpu()?))?
    {
        return Ok(out);
    }
    kernel(&Host)?.ok_or_else(|| Error::Internal("the host has no kernel for an op".into()))
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

/// The GPU: float32 kernels over its buffers.
struct Gpu(Rc<dyn DeviceBackend>);

impl Gpu {
    /// A GPU storage over a kernel's result, counted as a kernel run.
    fn finish(result: crate::backend::Kernel) -> Result<Option<Storage>> {
        Ok(result?.map(|buffer| {
            device::count(|s| s.kernels += 1);
            Storage::from_device(buffer)
        }))
    }
}

impl Kernels for Gpu {
    fn unary(
        &self,
        op: &UnaryOp,
        x: &Storage,
        layout: &Layout,
        dtype: DType,
    ) -> Result<Option<Storage>> {
        if dtype != DType::Float32 {
            return Ok(None);
        }
        let Some(buffer) = x.device_buffer()? else {
            return Ok(None);
        };
        Gpu::finish(self.0.unary(op, &*buffer, layout))
    }

    fn cast(&self, x: &Storage, layout: &Layout, dtype: DType) -> Result<Option<Storage>> {
        // A bool mask's device copy already holds 1.0 and 0.0: `mask.float()`
        // is a copy. Other conversions involve a dtype the device lacks.
        if dtype != DType::Float32 {
            return Ok(None);
        }
        let Some(mask) = x.mask_buffer()? else {
            return Ok(None);
        };
        Gpu::finish(self.0.copy(&*mask, layout))
    }

    fn compare(
        &self,
        op: CompareKernel,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>> {
        // The mask stays on the device, for `where` to read.
        let Some([(a, al), (b, bl)]) = self.float_pair(a, b, shape, dtype)? else {
            return Ok(None);
        };
        Ok(self.0.compare(op, &*a, &al, &*b, &bl)?.map(|buffer| {
            device::count(|s| s.kernels += 1);
            Storage::from_device_mask(buffer)
        }))
    }

    fn where_cond(
        &self,
        condition: Operand<'_>,
        a: Operand<'_>,
        b: Operand<'_>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<Storage>> {
        let Some([(a, al), (b, bl)]) = self.float_pair(a, b, shape, dtype)? else {
            return Ok(None);
        };
        let Some((c, cl)) = self.mask(condition)? else {
            return Ok(None);
        };
        let cl = cl.broadcast_to(shape)?;
        Gpu::finish(self.0.where_cond(&*c, &cl, &*a, &al, &*b, &bl))
    }

    fn softmax(&self, (x, layout): Operand<'_>, dim: usize, log: bool) -> Result<Option<Storage>> {
        let Some(buffer) = x.device_buffer()? else {
            return Ok(None);
        };
        Gpu::finish(self.0.softmax(&*buffer, layout, dim, log))
    }

    fn matmul(&self, (a, al): Operand<'_>, (b, bl): Operand<'_>) -> Result<Option<Storage>> {
        let (Some(ab), Some(bb)) = (a.device_buffer()?, b.device_buffer()?) else {
            return Ok(None);
        };
        Gpu::finish(self.0.matmul(&*ab, al, &*bb, bl))
    }
}

/// A GPU kernel's operand: a storage's device copy, or a host value
/// uploaded for this kernel.
enum Buffer<'a> {
    Stored(Ref<'a, dyn DeviceBuffer>),
    Uploaded(Box<dyn DeviceBuffer>),
}

impl Deref for Buffer<'_> {
    type Target = dyn DeviceBuffer;

    fn deref(&self) -> &(dyn DeviceBuffer + 'static) {
        match self {
            Buffer::Stored(b) => &**b,
            Buffer::Uploaded(b) => b.as_ref(),
        }
    }
}

impl Gpu {
    /// Float32 `x` as a kernel operand: its device copy, or a CPU number
    /// (the `2` of `x * 2`) uploaded as one float32 element.
    fn float<'a>(&self, (storage, layout): Operand<'a>) -> Result<Option<(Buffer<'a>, Layout)>> {
        if storage.device() == Device::Cpu {
            if !layout.shape().is_empty() || storage.dtype() == DType::Bool {
                return Ok(None);
            }
            let CpuBuffer::F32(value) = storage.data().gather_as(layout, DType::Float32) else {
                return Ok(None);
            };
            device::count(|s| s.uploads += 1);
            let number = Buffer::Uploaded(self.0.upload(&value)?);
            return Ok(Some((number, Layout::contiguous(&[]))));
        }
        Ok(storage
            .device_buffer()?
            .map(|b| (Buffer::Stored(b), layout.clone())))
    }

    /// `a` and `b` as float32 operands broadcast to `shape`, for a float32
    /// result.
    fn float_pair<'a>(
        &self,
        a: Operand<'a>,
        b: Operand<'a>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Option<[(Buffer<'a>, Layout); 2]>> {
        let float_operand =
            |(s, _): Operand<'_>| s.dtype() == DType::Float32 || s.device() == Device::Cpu;
        if dtype != DType::Float32 || !float_operand(a) || !float_operand(b) {
            return Ok(None);
        }
        let (Some((ab, al)), Some((bb, bl))) = (self.float(a)?, self.float(b)?) else {
            return Ok(None);
        };
        Ok(Some([
            (ab, al.broadcast_to(shape)?),
            (bb, bl.broadcast_to(shape)?),
        ]))
    }

    /// A `where` condition as a float32 mask (`1.0` true): a GPU bool
    /// storage's device copy, or a CPU bool tensor (PyTorch lets masks stay
    /// on the CPU) gathered and uploaded.
    fn mask<'a>(&self, (storage, layout): Operand<'a>) -> Result<Option<(Buffer<'a>, Layout)>> {
        if storage.dtype() != DType::Bool {
            return Ok(None);
        }
        if storage.device() == Device::Cpu {
            let CpuBuffer::F32(values) = storage.data().gather_as(layout, DType::Float32) else {
                return Ok(None);
            };
            device::count(|s| s.uploads += 1);
            let mask = Buffer::Uploaded(self.0.upload(&values)?);
            return Ok(Some((mask, Layout::contiguous(layout.shape()))));
        }
        Ok(storage
            .mask_buffer()?
            .map(|b| (Buffer::Stored(b), layout.clone())))
    }
}
