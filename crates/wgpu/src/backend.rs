//! [`GpuDevice`] as the core's [`DeviceBackend`]: the kernels behind the
//! trait the engine routes tensor ops through.

use gradscope_core::backend::Kernel;
use gradscope_core::ops::UnaryOp;
use gradscope_core::{BinaryOp, DeviceBackend, DeviceBuffer, Error, Layout, ReduceKernel, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;

impl DeviceBuffer for GpuBuffer {
    fn len(&self) -> usize {
        GpuBuffer::len(self)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The buffer as this backend's own, or an error naming `what` when another
/// backend made it (a programming error in the caller, never a panic).
fn own<'a>(buffer: &'a dyn DeviceBuffer, what: &str) -> Result<&'a GpuBuffer> {
    buffer.as_any().downcast_ref::<GpuBuffer>().ok_or_else(|| {
        Error::Backend(format!(
            "GPU {what}: the buffer was not made by the wgpu backend"
        ))
    })
}

/// A kernel's result as the trait's boxed buffer.
fn made(buffer: GpuBuffer) -> Kernel {
    Ok(Some(Box::new(buffer)))
}

impl DeviceBackend for GpuDevice {
    fn adapter_name(&self) -> String {
        GpuDevice::adapter_name(self).to_owned()
    }

    fn upload(&self, data: &[f32]) -> Result<Box<dyn DeviceBuffer>> {
        Ok(Box::new(GpuDevice::upload(self, data)?))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn download(&self, buffer: &dyn DeviceBuffer) -> Result<Vec<f32>> {
        let buffer = own(buffer, "download")?;
        pollster::block_on(self.read(buffer))
    }

    #[cfg(target_arch = "wasm32")]
    fn download(&self, buffer: &dyn DeviceBuffer) -> Result<Vec<f32>> {
        own(buffer, "download")?;
        Err(Error::Backend(
            "GPU download: synchronous readback is not available in the browser yet \
             (it needs the JSPI-suspended wait); use GpuDevice::read, which is async"
                .into(),
        ))
    }

    fn copy(&self, x: &dyn DeviceBuffer, layout: &Layout) -> Kernel {
        made(GpuDevice::copy(self, own(x, "copy")?, layout)?)
    }

    fn unary(&self, op: &UnaryOp, x: &dyn DeviceBuffer, layout: &Layout) -> Kernel {
        let x = own(x, "unary op")?;
        Ok(GpuDevice::unary(self, op, x, layout)?.map(|b| Box::new(b) as Box<dyn DeviceBuffer>))
    }

    fn binary(
        &self,
        op: BinaryOp,
        a: &dyn DeviceBuffer,
        a_layout: &Layout,
        b: &dyn DeviceBuffer,
        b_layout: &Layout,
    ) -> Kernel {
        let (a, b) = (own(a, "binary op")?, own(b, "binary op")?);
        made(GpuDevice::binary(self, op, a, a_layout, b, b_layout)?)
    }

    fn reduce(
        &self,
        op: ReduceKernel,
        x: &dyn DeviceBuffer,
        layout: &Layout,
        dims: &[usize],
    ) -> Kernel {
        made(GpuDevice::reduce(
            self,
            op,
            own(x, "reduce")?,
            layout,
            dims,
        )?)
    }

    fn matmul(
        &self,
        a: &dyn DeviceBuffer,
        a_layout: &Layout,
        b: &dyn DeviceBuffer,
        b_layout: &Layout,
    ) -> Kernel {
        let (a, b) = (own(a, "matmul")?, own(b, "matmul")?);
        made(GpuDevice::matmul(self, a, a_layout, b, b_layout)?)
    }

    fn matmul_bias(
        &self,
        a: &dyn DeviceBuffer,
        a_layout: &Layout,
        b: &dyn DeviceBuffer,
        b_layout: &Layout,
        bias: &dyn DeviceBuffer,
        bias_layout: &Layout,
    ) -> Kernel {
        let (a, b) = (own(a, "matmul")?, own(b, "matmul")?);
        let bias = own(bias, "matmul bias")?;
        made(GpuDevice::matmul_bias(
            self,
            a,
            a_layout,
            b,
            b_layout,
            bias,
            bias_layout,
        )?)
    }

    fn reserved_bytes(&self) -> u64 {
        self.memory_stats().reserved_bytes
    }

    fn empty_cache(&self) {
        GpuDevice::empty_cache(self);
    }
}
