//! Device buffers of `f32`: allocation through the caching allocator, upload,
//! and readback through a mapped staging buffer.

use std::sync::Arc;

use gradscope_core::{Error, Result};
use wgpu::util::DeviceExt;

use crate::alloc::{Pool, size_class};
use crate::device::{GpuDevice, backend_error};
use crate::oneshot;

/// Bytes in one element; every buffer holds `f32`.
const ELEMENT_BYTES: u64 = 4;

/// A storage buffer of `f32` on one [`GpuDevice`], read by kernels through a
/// layout and written by them contiguously.
///
/// Dropping it returns its block to the device's cache (see
/// [`GpuDevice::empty_cache`]), not to the device.
#[derive(Debug)]
pub struct GpuBuffer {
    pub(crate) buffer: wgpu::Buffer,
    len: usize,
    label: &'static str,
    pool: Arc<Pool>,
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

    /// What made it, `gradscope::<family>::<op>` (e.g. `gradscope::matmul::register_blocked`),
    /// for the memory view. A cached block reused for another purpose is
    /// relabelled here; the wgpu label stays the first use's.
    pub fn label(&self) -> &'static str {
        self.label
    }

    /// Bytes it holds from the device: its size class, at least `4 * len`.
    pub fn reserved_bytes(&self) -> u64 {
        self.buffer.size()
    }
}

impl Drop for GpuBuffer {
    fn drop(&mut self) {
        // The cache keeps a handle; queued work that still reads the block
        // runs before any later use, since the queue runs in order.
        self.pool.release(self.buffer.clone());
    }
}

impl GpuDevice {
    /// An uninitialised buffer of `len` elements for kernels to read and
    /// write, from the cache when a block of its size class is free.
    ///
    /// Empty buffers still get a block, since WebGPU cannot bind zero bytes.
    pub(crate) fn alloc(&self, len: usize, label: &'static str) -> Result<GpuBuffer> {
        let limit = self.max_binding_bytes();
        let bytes = u64::try_from(len)
            .ok()
            .and_then(|n| n.checked_mul(ELEMENT_BYTES))
            .filter(|&bytes| bytes <= limit)
            .ok_or_else(|| {
                Error::Backend(format!(
                    "GPU buffer of {len} elements ({label}) exceeds the device's limit of {limit} bytes"
                ))
            })?;
        // A class past the limit falls back to the exact size (a multiple of 4).
        let class = Some(size_class(bytes))
            .filter(|&class| class <= limit)
            .unwrap_or(bytes.max(ELEMENT_BYTES));
        let buffer = match self.pool.take(class) {
            Some(buffer) => buffer,
            None => {
                let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: class,
                    usage: wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::COPY_SRC
                        | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                self.pool.created(class);
                buffer
            }
        };
        Ok(GpuBuffer {
            buffer,
            len,
            label,
            pool: self.pool.clone(),
        })
    }

    /// A new buffer holding `data`.
    ///
    /// The data goes through a staging buffer filled at creation and a copy
    /// recorded in the current batch, so it lands in order with the kernels
    /// around it even when its block was cached from a buffer queued work
    /// still reads (a `queue.write_buffer` would run before the whole batch).
    pub fn upload(&self, data: &[f32]) -> Result<GpuBuffer> {
        self.upload_words(bytemuck::cast_slice(data), "gradscope::buffer::upload")
    }

    /// A new buffer holding `indices` as `u32` words, for the kernels that
    /// bind it as `array<u32>` (class targets). Its `len` counts words.
    pub fn upload_indices(&self, indices: &[u32]) -> Result<GpuBuffer> {
        self.upload_words(bytemuck::cast_slice(indices), "gradscope::buffer::indices")
    }

    /// A new buffer of `bytes.len() / 4` words holding `bytes`.
    fn upload_words(&self, bytes: &[u8], label: &'static str) -> Result<GpuBuffer> {
        let len = bytes.len() / ELEMENT_BYTES as usize;
        let buffer = self.alloc(len, label)?;
        if len > 0 {
            let staging = self
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("gradscope::buffer::upload_staging"),
                    contents: bytes,
                    usage: wgpu::BufferUsages::COPY_SRC,
                });
            let bytes = staging.size();
            self.record(|encoder| {
                encoder.copy_buffer_to_buffer(&staging, 0, &buffer.buffer, 0, bytes);
            });
        }
        self.check_errors("upload")?;
        Ok(buffer)
    }

    /// The buffer's elements, copied back once all work queued before has run.
    ///
    /// Natively this blocks on the device; in the browser it yields to the
    /// event loop until the map completes.
    pub async fn read(&self, buffer: &GpuBuffer) -> Result<Vec<f32>> {
        if buffer.is_empty() {
            self.flush()?;
            return Ok(Vec::new());
        }
        let size = ELEMENT_BYTES * buffer.len as u64;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gradscope::buffer::readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        // The copy joins the batch, and the batch goes to the device now.
        self.record(|encoder| {
            encoder.copy_buffer_to_buffer(&buffer.buffer, 0, &staging, 0, size);
        });
        self.flush()?;

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
        Ok(data)
    }
}
