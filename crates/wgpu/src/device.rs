//! Adapter and device acquisition, and the error handling every GPU call shares.

use std::sync::{Arc, Mutex, PoisonError};

use gradscope_core::{Error, Result};

use crate::alloc::{MemoryStats, Pool};
use crate::pipeline::PipelineCache;

/// Commands recorded before a submission: enough to amortise the submit,
/// few enough that the device starts on long op chains before a readback.
const MAX_BATCH: u32 = 64;

/// One GPU: a wgpu device and queue with the kernels built on it so far.
///
/// Natively it runs on Vulkan, in the browser on WebGPU; `WGPU_BACKEND`
/// overrides the backend and `WGPU_POWER_PREF` the adapter choice.
#[derive(Debug)]
pub struct GpuDevice {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) pipelines: PipelineCache,
    pub(crate) pool: Arc<Pool>,
    pending: Mutex<Pending>,
    info: wgpu::AdapterInfo,
    errors: ErrorSink,
    lost: LostFlag,
    /// The matmul kernel every product uses, when a benchmark fixes one
    /// (`None`: chosen by the output's size).
    pub(crate) matmul_kernel: Mutex<Option<crate::MatmulKernel>>,
}

/// Why the device was lost, set by wgpu's device-lost callback (or by
/// [`GpuDevice::destroy`]) and checked before each use.
#[derive(Clone, Debug, Default)]
struct LostFlag(Arc<Mutex<Option<String>>>);

impl LostFlag {
    fn set(&self, reason: String) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(reason);
    }

    fn get(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The batch being recorded: kernels, uploads and copies go into one
/// encoder, submitted when it holds [`MAX_BATCH`] commands or when something
/// must come back (a readback) or be finished ([`GpuDevice::flush`]).
#[derive(Debug, Default)]
struct Pending {
    encoder: Option<wgpu::CommandEncoder>,
    commands: u32,
    submissions: u64,
}

/// Validation and out-of-memory errors wgpu reports outside any call's return
/// value, kept until the next call that can return them.
#[derive(Clone, Debug, Default)]
struct ErrorSink(Arc<Mutex<Vec<String>>>);

impl ErrorSink {
    fn push(&self, message: String) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(message);
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// The backends tried when `WGPU_BACKEND` is unset.
fn default_backends() -> wgpu::Backends {
    if cfg!(target_arch = "wasm32") {
        wgpu::Backends::BROWSER_WEBGPU
    } else {
        wgpu::Backends::VULKAN
    }
}

/// A backend error naming what failed.
pub(crate) fn backend_error(what: &str, cause: impl std::fmt::Display) -> Error {
    Error::Backend(format!("GPU {what}: {cause}"))
}

impl GpuDevice {
    /// Opens the first adapter of the environment's backends and a device on it
    /// with the adapter's full limits.
    ///
    /// Fails with a message saying "no adapter" when no backend offers one
    /// (no Vulkan driver, or a browser without WebGPU enabled).
    pub async fn new() -> Result<Self> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::from_env().unwrap_or_else(default_backends);
        let instance = wgpu::Instance::new(desc);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
                ..Default::default()
            })
            .await
            .map_err(|e| Error::Backend(format!("no GPU adapter: {e}")))?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("gradscope::device"),
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| backend_error("device request failed", e))?;
        let errors = ErrorSink::default();
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| sink.push(e.to_string())));
        let lost = LostFlag::default();
        let flag = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            let reason = match reason {
                wgpu::DeviceLostReason::Destroyed => "destroyed",
                wgpu::DeviceLostReason::Unknown => "the driver or browser reset it",
            };
            flag.set(match message.is_empty() {
                true => reason.to_owned(),
                false => format!("{reason}: {message}"),
            });
        });
        Ok(Self {
            device,
            queue,
            pipelines: PipelineCache::default(),
            pool: Arc::default(),
            pending: Mutex::default(),
            info: adapter.get_info(),
            errors,
            lost,
            matmul_kernel: Mutex::default(),
        })
    }

    /// Why the device was lost, once it has been.
    pub fn lost(&self) -> Option<String> {
        self.lost.get()
    }

    /// Fails with [`Error::DeviceLost`] once the device is lost.
    pub(crate) fn check_lost(&self) -> Result<()> {
        match self.lost.get() {
            Some(reason) => Err(Error::DeviceLost { reason }),
            None => Ok(()),
        }
    }

    /// Destroys the device, as a driver reset or the browser reclaiming it
    /// would lose it: every later call fails with [`Error::DeviceLost`].
    /// For testing recovery; the engine never calls it.
    pub fn destroy(&self) {
        self.device.destroy();
        self.lost.set("destroyed".to_owned());
    }

    /// The adapter's name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)` on lavapipe.
    ///
    /// Browsers report it as `GPUAdapterInfo.description`, which Chromium leaves
    /// empty unless started with `--enable-webgpu-developer-features`.
    pub fn adapter_name(&self) -> &str {
        &self.info.name
    }

    /// The backend in use: `vulkan` natively, `webgpu` in the browser.
    pub fn backend_name(&self) -> &'static str {
        self.info.backend.to_str()
    }

    /// The largest buffer, in bytes, one kernel binding may cover.
    pub(crate) fn max_binding_bytes(&self) -> u64 {
        let limits = self.device.limits();
        limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size)
    }

    /// Records commands into the current batch, submitting the batch once
    /// it is full. Nothing waits for the device.
    pub(crate) fn record(&self, f: impl FnOnce(&mut wgpu::CommandEncoder)) {
        let full = {
            let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
            let encoder = pending.encoder.get_or_insert_with(|| {
                self.device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("gradscope::batch"),
                    })
            });
            f(encoder);
            pending.commands += 1;
            (pending.commands >= MAX_BATCH).then(|| take_batch(&mut pending))
        };
        if let Some(encoder) = full.flatten() {
            self.queue.submit([encoder.finish()]);
        }
    }

    /// Submits the recorded batch, if any, and reports errors from its
    /// recording. The device runs it in order with everything submitted before.
    pub fn flush(&self) -> Result<()> {
        let batch = {
            let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
            take_batch(&mut pending)
        };
        if let Some(encoder) = batch {
            self.queue.submit([encoder.finish()]);
        }
        self.check_errors("submit")
    }

    /// Submits the batch and blocks until the device has run everything
    /// submitted (natively; the browser cannot block).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn wait(&self) -> Result<()> {
        self.flush()?;
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| backend_error("poll failed", e))?;
        self.check_errors("wait")
    }

    /// Submissions made so far: how many batches the recorded work took.
    pub fn submissions(&self) -> u64 {
        self.pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .submissions
    }

    /// The caching allocator's counters.
    pub fn memory_stats(&self) -> MemoryStats {
        self.pool.stats()
    }

    /// Gives cached, unused blocks back to the device, PyTorch's
    /// `torch.cuda.empty_cache()`; returns the bytes released.
    pub fn empty_cache(&self) -> u64 {
        self.pool.empty()
    }

    /// Turns errors wgpu reported since the last check into an `Err`.
    pub(crate) fn check_errors(&self, what: &str) -> Result<()> {
        let errors = self.errors.take();
        // After a loss every call fails validation; the loss is the news.
        self.check_lost()?;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(backend_error(what, errors.join("; ")))
        }
    }
}

/// The batch's encoder, leaving an empty batch, counted as one submission.
fn take_batch(pending: &mut Pending) -> Option<wgpu::CommandEncoder> {
    let encoder = pending.encoder.take();
    if encoder.is_some() {
        pending.commands = 0;
        pending.submissions += 1;
    }
    encoder
}
