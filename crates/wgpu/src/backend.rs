//! [`GpuDevice`] as the core's [`DeviceBackend`]: the kernels behind the
//! trait the engine routes tensor ops through.

use gradscope_core::backend::{AdamStep, CompareKernel, Kernel, NllGeometry, ScatterPart};
use gradscope_core::cpu::conv::Window2d;
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

/// Whether a window's sizes fit the kernels' 32-bit metadata; PyTorch
/// accepts strides up to 2**63, which the host path computes instead.
fn fits_in_words(window: &Window2d) -> bool {
    let limit = u32::MAX as usize;
    [
        window.kernel,
        window.stride,
        window.padding,
        window.dilation,
    ]
    .iter()
    .flatten()
    .all(|&v| v <= limit)
}

/// A kernel's result as the trait's boxed buffer.
fn made(buffer: GpuBuffer) -> Kernel {
    Ok(Some(Box::new(buffer)))
}

impl GpuDevice {
    /// The buffer as this device's own, or an error naming `what` when
    /// another backend made it (a programming error in the caller) or a
    /// device since lost made it (its tensors are gone); never a panic.
    fn own<'a>(&self, buffer: &'a dyn DeviceBuffer, what: &str) -> Result<&'a GpuBuffer> {
        let buffer = buffer.as_any().downcast_ref::<GpuBuffer>().ok_or_else(|| {
            Error::Backend(format!(
                "GPU {what}: the buffer was not made by the wgpu backend"
            ))
        })?;
        if !buffer.made_by(self) {
            return Err(Error::DeviceLost {
                reason: "this tensor was on a device lost earlier".into(),
            });
        }
        Ok(buffer)
    }
}

impl DeviceBackend for GpuDevice {
    fn lost(&self) -> Option<String> {
        GpuDevice::lost(self)
    }

    fn adapter_name(&self) -> String {
        GpuDevice::adapter_name(self).to_owned()
    }

    fn upload(&self, data: &[f32]) -> Result<Box<dyn DeviceBuffer>> {
        Ok(Box::new(GpuDevice::upload(self, data)?))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn download(&self, buffer: &dyn DeviceBuffer) -> Result<Vec<f32>> {
        let buffer = self.own(buffer, "download")?;
        pollster::block_on(self.read(buffer))
    }

    #[cfg(target_arch = "wasm32")]
    fn download(&self, buffer: &dyn DeviceBuffer) -> Result<Vec<f32>> {
        self.read_blocking(self.own(buffer, "download")?)
    }

    fn copy(&self, x: &dyn DeviceBuffer, layout: &Layout) -> Kernel {
        made(GpuDevice::copy(self, self.own(x, "copy")?, layout)?)
    }

    fn scatter(&self, numel: usize, parts: &[ScatterPart<'_>]) -> Kernel {
        let parts = parts
            .iter()
            .map(|p| {
                Ok(crate::ScatterPart {
                    src: self.own(p.src, "scatter")?,
                    layout: p.layout,
                    target: p.target,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        made(GpuDevice::scatter(self, numel, &parts)?)
    }

    fn write(
        &self,
        dst: &dyn DeviceBuffer,
        target: &Layout,
        src: &dyn DeviceBuffer,
        layout: &Layout,
    ) -> Result<bool> {
        let (dst, src) = (self.own(dst, "write")?, self.own(src, "write")?);
        // A target whose positions overlap is the host path's to handle
        // (PyTorch's own checks on it run there).
        if !crate::copy::writes_each_once(target) {
            return Ok(false);
        }
        GpuDevice::write(self, dst, target, src, layout)?;
        Ok(true)
    }

    fn unary(&self, op: &UnaryOp, x: &dyn DeviceBuffer, layout: &Layout) -> Kernel {
        let x = self.own(x, "unary op")?;
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
        let (a, b) = (self.own(a, "binary op")?, self.own(b, "binary op")?);
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
            self.own(x, "reduce")?,
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
        let (a, b) = (self.own(a, "matmul")?, self.own(b, "matmul")?);
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
        let (a, b) = (self.own(a, "matmul")?, self.own(b, "matmul")?);
        let bias = self.own(bias, "matmul bias")?;
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

    fn take(&self, x: &dyn DeviceBuffer, positions: &[usize]) -> Kernel {
        made(GpuDevice::take(self, self.own(x, "take")?, positions)?)
    }

    fn put(
        &self,
        base: &dyn DeviceBuffer,
        base_layout: &Layout,
        src: &dyn DeviceBuffer,
        positions: &[usize],
        reads: &[usize],
        add: bool,
    ) -> Kernel {
        let (base, src) = (self.own(base, "put")?, self.own(src, "put")?);
        made(GpuDevice::put(
            self,
            base,
            base_layout,
            src,
            positions,
            reads,
            add,
        )?)
    }

    fn im2col(
        &self,
        x: &dyn DeviceBuffer,
        layout: &Layout,
        image: [usize; 3],
        window: &Window2d,
        windows: [usize; 2],
    ) -> Kernel {
        if !fits_in_words(window) {
            return Ok(None);
        }
        made(GpuDevice::im2col(
            self,
            self.own(x, "im2col")?,
            layout,
            image,
            window,
            windows,
        )?)
    }

    fn col2im(
        &self,
        cols: &dyn DeviceBuffer,
        layout: &Layout,
        image: [usize; 3],
        window: &Window2d,
        windows: [usize; 2],
    ) -> Kernel {
        if !fits_in_words(window) {
            return Ok(None);
        }
        made(GpuDevice::col2im(
            self,
            self.own(cols, "col2im")?,
            layout,
            image,
            window,
            windows,
        )?)
    }

    fn upload_indices(&self, data: &[u32]) -> Kernel {
        made(GpuDevice::upload_indices(self, data)?)
    }

    fn index_select(
        &self,
        x: &dyn DeviceBuffer,
        layout: &Layout,
        dim: usize,
        indices: &dyn DeviceBuffer,
    ) -> Kernel {
        made(GpuDevice::index_select(
            self,
            self.own(x, "index_select")?,
            layout,
            dim,
            self.own(indices, "index_select indices")?,
        )?)
    }

    fn compare(
        &self,
        op: CompareKernel,
        a: &dyn DeviceBuffer,
        a_layout: &Layout,
        b: &dyn DeviceBuffer,
        b_layout: &Layout,
    ) -> Kernel {
        let (a, b) = (self.own(a, "compare")?, self.own(b, "compare")?);
        made(GpuDevice::compare(self, op, a, a_layout, b, b_layout)?)
    }

    fn where_cond(
        &self,
        condition: &dyn DeviceBuffer,
        condition_layout: &Layout,
        a: &dyn DeviceBuffer,
        a_layout: &Layout,
        b: &dyn DeviceBuffer,
        b_layout: &Layout,
    ) -> Kernel {
        made(GpuDevice::where_cond(
            self,
            (self.own(condition, "where")?, condition_layout),
            (self.own(a, "where")?, a_layout),
            (self.own(b, "where")?, b_layout),
        )?)
    }

    fn softmax(&self, x: &dyn DeviceBuffer, layout: &Layout, dim: usize, log: bool) -> Kernel {
        made(GpuDevice::softmax(
            self,
            self.own(x, "softmax")?,
            layout,
            dim,
            log,
        )?)
    }

    fn nll_loss(
        &self,
        x: &dyn DeviceBuffer,
        x_layout: &Layout,
        targets: &dyn DeviceBuffer,
        weight: Option<&dyn DeviceBuffer>,
        geometry: NllGeometry,
        divisor: Option<f64>,
    ) -> Kernel {
        let weight = weight.map(|w| self.own(w, "nll_loss weight")).transpose()?;
        made(GpuDevice::nll_loss(
            self,
            self.own(x, "nll_loss")?,
            x_layout,
            self.own(targets, "nll_loss targets")?,
            weight,
            geometry,
            // The mean divides in float32, as the CPU's float32 kernel does.
            divisor.map(|d| d as f32),
        )?)
    }

    fn nll_coefficients(
        &self,
        targets: &dyn DeviceBuffer,
        weight: Option<&dyn DeviceBuffer>,
        geometry: NllGeometry,
    ) -> Kernel {
        let weight = weight.map(|w| self.own(w, "nll_loss weight")).transpose()?;
        made(GpuDevice::nll_coefficients(
            self,
            self.own(targets, "nll_loss targets")?,
            weight,
            geometry,
        )?)
    }

    fn adam_step(
        &self,
        param: &dyn DeviceBuffer,
        grad: &dyn DeviceBuffer,
        exp_avg: &dyn DeviceBuffer,
        exp_avg_sq: &dyn DeviceBuffer,
        step: &AdamStep,
    ) -> Result<bool> {
        GpuDevice::adam_step(
            self,
            self.own(param, "Adam param")?,
            self.own(grad, "Adam grad")?,
            self.own(exp_avg, "Adam exp_avg")?,
            self.own(exp_avg_sq, "Adam exp_avg_sq")?,
            step,
        )?;
        Ok(true)
    }

    fn reserved_bytes(&self) -> u64 {
        self.memory_stats().reserved_bytes
    }

    fn empty_cache(&self) {
        GpuDevice::empty_cache(self);
    }
}
