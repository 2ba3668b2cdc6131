//! Device buffers of `f32`: upload, and readback through a mapped staging buffer.

use gradscope_core::{Error, Result};

use crate::device::{GpuDevice, backend_error};
use crate::oneshot;

/// Bytes in one element; every buffer holds `f32`.
const ELEMENT_BYTES: u64 = 4;

/// A storage buffer of `f32` on one [`GpuDevice`], read by kernels through a
/// layout and written by them contiguously.
#[derive(Debug)]
pub struct GpuBuffer {
    pub(crate) buffer: wgpu::Buffer,
    len: usize,
}

impl GpuBuffer {
    /// Number of `f32` elements the buffer holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl GpuDevice {
    /// An uninitialised buffer of `len` elements for kernels to read and write.
    ///
    /// Empty buffers still get 4 bytes, since WebGPU cannot bind zero bytes.
    pub(crate) fn alloc(&self, len: usize, label: &str) -> Result<GpuBuffer> {
        let bytes = u64::try_from(len)
            .ok()
            .and_then(|n| n.checked_mul(ELEMENT_BYTES))
            .filter(|&bytes| bytes <= self.max_binding_bytes())
            .ok_or_else(|| {
                Error::Backend(format!(
                    "GPU buffer of {len} elements exceeds the device's limit of {} bytes",
                    self.max_binding_bytes()
                ))
            })?;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(ELEMENT_BYTES),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Ok(GpuBuffer { buffer, len })
    }

    /// A new buffer holding `data`; the copy happens before the next submission.
    pub fn upload(&self, data: &[f32]) -> Result<GpuBuffer> {
        let buffer = self.alloc(data.len(), "gradscope::buffer::upload")?;
        if !data.is_empty() {
            self.queue
                .write_buffer(&buffer.buffer, 0, bytemuck::cast_slice(data));
        }
        self.check_errors("upload")?;
        Ok(buffer)
    }

    /// The buffer's elements, copied back once all work submitted before has run.
    ///
    /// Natively this blocks on the device; in the browser it yields to the
    /// event loop until the map completes.
    pub async fn read(&self, buffer: &GpuBuffer) -> Result<Vec<f32>> {
        if buffer.is_empty() {
            return self.check_errors("read").map(|()| Vec::new());
        }
        let size = buffer.buffer.size();
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gradscope::buffer::readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("gradscope::buffer::readback"),
            });
        encoder.copy_buffer_to_buffer(&buffer.buffer, 0, &staging, 0, size);
        self.queue.submit([encoder.finish()]);

        let (sender, receiver) = oneshot::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |mapped| sender.send(mapped));
        #[cfg(not(target_arch = "wasm32"))]
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| backend_error("poll failed", e))?;
        let mapped = receiver.await;
        self.check_errors("read")?;
        match mapped {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(backend_error("buffer map failed", e)),
            None => return Err(Error::Backend("GPU buffer map was abandoned".into())),
        }
        let data = {
            let view = staging
                .get_mapped_range(..)
                .map_err(|e| backend_error("mapped range", e))?;
            // Copies rather than casts in place: the mapping need not be 4-byte aligned.
            bytemuck::pod_collect_to_vec::<u8, f32>(&view)
        };
        staging.unmap();
        let mut data = data;
        data.truncate(buffer.len);
        Ok(data)
    }
}
