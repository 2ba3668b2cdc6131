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

    /// Whether `device` made it (a buffer outlives a lost device's
    /// replacement, and must not reach the new one).
    pub(crate) fn made_by(&self, device: &GpuDevice) -> bool {
        Arc::ptr_eq(&self.pool, &device.pool)
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
        self.check_lost()?;
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
        let Some(staging) = self.start_read(buffer)? else {
            return Ok(Vec::new());
        };
        let (sender, receiver) = oneshot::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |mapped| sender.send(mapped));
        #[cfg(not(target_arch = "wasm32"))]
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| backend_error("poll failed", e))?;
        let mapped = receiver.await;
        self.finish_read(&staging, mapped)
    }

    /// The buffer's elements, read back synchronously in the browser: the
    /// wasm stack suspends on the map's promise through JavaScript Promise
    /// Integration (JSPI) while the event loop runs the map callback.
    ///
    /// The caller must have been entered through `WebAssembly.promising` (a
    /// `#[wasm_bindgen(jspi)]` export or a task spawned from one) and must
    /// hold no `RefCell` borrow that the event loop could need meanwhile.
    /// Without JSPI (the page's stand-ins resolve nothing) it fails with a
    /// typed error rather than reading an unmapped buffer.
    // wasm-bindgen marks its JSPI support experimental with `#[deprecated]`.
    #[cfg(target_arch = "wasm32")]
    #[allow(deprecated)]
    pub fn read_blocking(&self, buffer: &GpuBuffer) -> Result<Vec<f32>> {
        use std::cell::RefCell;
        use std::rc::Rc;
        use wasm_bindgen::JsValue;

        let Some(staging) = self.start_read(buffer)? else {
            return Ok(Vec::new());
        };
        let mut resolve_slot: Option<js_sys::Function> = None;
        let mapped = js_sys::Promise::new(&mut |resolve, _reject| resolve_slot = Some(resolve));
        let resolve = resolve_slot.ok_or_else(|| {
            Error::Backend("GPU download: the promise executor did not run".into())
        })?;
        let outcome: Rc<RefCell<Option<std::result::Result<(), wgpu::BufferAsyncError>>>> =
            Rc::default();
        let slot = outcome.clone();
        staging.map_async(wgpu::MapMode::Read, .., move |result| {
            *slot.borrow_mut() = Some(result);
            // Resolving cannot fail for a promise's own resolve function.
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        js_sys::futures::jspi_block_on_promise(&mapped).map_err(|e| {
            backend_error(
                "download (reading a GPU tensor needs JavaScript Promise Integration)",
                format!("{e:?}"),
            )
        })?;
        let result = outcome.borrow_mut().take();
        if result.is_none() {
            return Err(Error::Backend(
                "GPU download: this browser cannot wait for the GPU inside Python \
                 (it lacks WebAssembly JavaScript Promise Integration)"
                    .into(),
            ));
        }
        self.finish_read(&staging, result)
    }

    /// Queues a copy of `buffer` into a new mappable staging buffer and
    /// submits the batch; `None` for an empty buffer (nothing to map).
    fn start_read(&self, buffer: &GpuBuffer) -> Result<Option<wgpu::Buffer>> {
        self.check_lost()?;
        if buffer.is_empty() {
            self.flush()?;
            return Ok(None);
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
        Ok(Some(staging))
    }

    /// The staging buffer's elements once its map callback reported `mapped`.
    fn finish_read(
        &self,
        staging: &wgpu::Buffer,
        mapped: Option<std::result::Result<(), wgpu::BufferAsyncError>>,
    ) -> Result<Vec<f32>> {
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
