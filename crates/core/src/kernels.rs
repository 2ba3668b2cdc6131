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
//! case; the host always has one. The unary family and dtype conversions
//! run through here; the other families still ask the GPU first through
//! `ops::on_device` and move here one by one.

use std::rc::Rc;

use crate::backend::DeviceBackend;
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::UnaryOp;
use crate::storage::Storage;

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
}

/// Runs `kernel` on the running op's device, or on the host where that
/// device has no kernel for the case.
pub(crate) fn run(kernel: impl Fn(&dyn Kernels) -> Result<Option<Storage>>) -> Result<Storage> {
    if device::current() == Device::WebGpu
        && let Some(out) = kernel(&Gpu(device::gpu()?))?
    {
        return Ok(out);
    }
    kernel(&Host)?.ok_or_else(|| Error::Backend("internal error: no host kernel".into()))
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
}
