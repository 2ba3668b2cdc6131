//! Devices: where a storage lives, the GPU backend the host registers, and
//! the device new buffers are made on while an op runs.
//!
//! The core cannot depend on the GPU crate (it depends on the core), so the
//! host (the CLI, the Python runtime, the web worker) opens a GPU and
//! registers it here as a [`DeviceBackend`]; ops then ask for it by device.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::backend::DeviceBackend;
use crate::error::{Error, Result};

pub use gradscope_trace::protocol::{Device, DeviceParseError};

/// [`Device::parse`] with the engine's error: PyTorch's message and type.
pub fn parse(text: &str) -> Result<Device> {
    Device::parse(text).map_err(Error::from)
}

impl From<DeviceParseError> for Error {
    fn from(err: DeviceParseError) -> Self {
        match err {
            DeviceParseError::NotCompiled(device) => Error::DeviceNotCompiled { device },
            DeviceParseError::Invalid(text) => Error::DeviceString { text },
        }
    }
}

/// Opens the GPU on first use, so programs that never ask for one never
/// pay for opening an adapter.
pub type Opener = Box<dyn Fn() -> Result<Rc<dyn DeviceBackend>>>;

thread_local! {
    static GPU: RefCell<Option<Rc<dyn DeviceBackend>>> = const { RefCell::new(None) };
    static OPENER: RefCell<Option<Rc<Opener>>> = const { RefCell::new(None) };
    /// Whether the opener failed: asked again, it is not retried.
    static OPEN_FAILED: Cell<bool> = const { Cell::new(false) };
    /// Why no GPU is registered, for the error a `webgpu` request gets.
    static GPU_MISSING: RefCell<String> =
        RefCell::new("no GPU backend was opened in this program".into());
    static SCOPE: Cell<Device> = const { Cell::new(Device::Cpu) };
    static DEFAULT: Cell<Device> = const { Cell::new(Device::Cpu) };
    static DEVICE_ERROR: RefCell<Option<Error>> = const { RefCell::new(None) };
    static FALLBACKS: RefCell<std::collections::BTreeMap<&'static str, u64>> =
        const { RefCell::new(std::collections::BTreeMap::new()) };
    /// The GPU reserve the trace last heard of.
    static RESERVED: Cell<u64> = const { Cell::new(0) };
    static STATS: Cell<KernelStats> = const { Cell::new(KernelStats { kernels: 0, host_fallbacks: 0, downloads: 0, uploads: 0 }) };
}

/// Registers the GPU that `webgpu` tensors use on this thread.
pub fn set_gpu(backend: Rc<dyn DeviceBackend>) {
    // The device is never dropped from this thread-local's destructor:
    // wgpu's debug lock tracking uses thread-locals of its own, which may
    // be gone by then. A device lives as long as the program anyway.
    std::mem::forget(backend.clone());
    GPU.with(|g| *g.borrow_mut() = Some(backend));
}

/// Records why no GPU could be opened (no adapter, no WebGPU in this browser),
/// so that asking for `webgpu` says why rather than only that it failed.
pub fn set_gpu_unavailable(reason: impl Into<String>) {
    GPU.with(|g| *g.borrow_mut() = None);
    GPU_MISSING.with(|m| *m.borrow_mut() = reason.into());
}

/// Registers how to open the GPU when a program first asks for one. A
/// failed opening is remembered: later requests give the same reason. The
/// opener is kept to open a new device after one is lost.
pub fn set_gpu_opener(opener: Opener) {
    OPENER.with(|o| *o.borrow_mut() = Some(Rc::new(opener)));
    OPEN_FAILED.with(|f| f.set(false));
}

/// The registered GPU (opening it on first use), or the error saying why
/// there is none. A device found lost is dropped with a
/// [`Error::DeviceLost`], and the next call opens a new one.
pub fn gpu() -> Result<Rc<dyn DeviceBackend>> {
    if let Some(gpu) = GPU.with(|g| g.borrow().clone()) {
        let Some(reason) = gpu.lost() else {
            return Ok(gpu);
        };
        // The op that meets the loss says so; the next call opens anew.
        GPU.with(|g| *g.borrow_mut() = None);
        return Err(Error::DeviceLost { reason });
    }
    let opener = OPENER.with(|o| o.borrow().clone());
    if let Some(opener) = opener.filter(|_| !OPEN_FAILED.with(Cell::get)) {
        match opener() {
            Ok(gpu) => set_gpu(gpu),
            // An opener saying why there is no GPU gives the reason, which
            // the error below names once.
            Err(Error::DeviceUnavailable { reason }) => {
                OPEN_FAILED.with(|f| f.set(true));
                set_gpu_unavailable(reason);
            }
            Err(e) => {
                OPEN_FAILED.with(|f| f.set(true));
                set_gpu_unavailable(e.to_string());
            }
        }
    }
    GPU.with(|g| g.borrow().clone())
        .ok_or_else(|| Error::DeviceUnavailable {
            reason: GPU_MISSING.with(|m| m.borrow().clone()),
        })
}

/// Tells the trace the GPU caching allocator's reserve when it has changed
/// since last told (after each GPU op, and after `empty_cache`); opens
/// nothing.
pub(crate) fn note_reserved() {
    let Some(gpu) = GPU.with(|g| g.borrow().clone()) else {
        return;
    };
    let bytes = gpu.reserved_bytes();
    if RESERVED.with(|r| r.replace(bytes)) != bytes {
        crate::trace::emit(|| gradscope_trace::EventKind::DeviceReserved {
            device: Device::WebGpu.type_name().into(),
            bytes,
        });
    }
}

/// Returns the GPU's cached, unused blocks to the device, PyTorch's
/// `torch.cuda.empty_cache()`, and tells the trace.
pub fn empty_cache() {
    if let Some(gpu) = GPU.with(|g| g.borrow().clone()) {
        gpu.empty_cache();
        note_reserved();
    }
}

/// Whether a GPU can be used, opening it if need be:
/// `torch.webgpu.is_available()`.
pub fn gpu_available() -> bool {
    gpu().is_ok()
}

/// The device new storages are made on: the running op's, else the
/// default device.
pub fn current() -> Device {
    SCOPE.with(Cell::get)
}

/// Where tensors made outside any op go (factories, `torch.tensor`),
/// PyTorch's `torch.set_default_device`.
pub fn set_default_device(device: Device) {
    SCOPE.with(|s| s.set(device));
    DEFAULT.with(|d| d.set(device));
}

/// The default device, which tensor reprs leave unnamed.
pub fn default_device() -> Device {
    DEFAULT.with(Cell::get)
}

/// Makes new storages land on `device` until the guard drops (a
/// factory's `device=`, an op computing on its inputs' device).
#[must_use = "the device applies only while the guard lives"]
#[derive(Debug)]
pub struct Scope(Device);

impl Scope {
    /// Starts placing new storages on `device`.
    pub fn new(device: Device) -> Self {
        Scope(SCOPE.with(|s| s.replace(device)))
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        SCOPE.with(|s| s.set(self.0));
    }
}

/// Keeps a device failure met where no `Result` can carry it (reading a
/// storage's host copy), for the op that caused it to return.
pub(crate) fn defer_error(error: Error) {
    DEVICE_ERROR.with(|e| {
        e.borrow_mut().get_or_insert(error);
    });
}

/// The device failure deferred since the last call, as an `Err`.
pub fn check_device_error() -> Result<()> {
    DEVICE_ERROR
        .with(|e| e.borrow_mut().take())
        .map_or(Ok(()), Err)
}

/// Counts of GPU work since start: how much ran in kernels, how much fell
/// back to the host, how often data crossed between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelStats {
    /// Ops a GPU kernel computed.
    pub kernels: u64,
    /// Ops on GPU tensors computed on the host copy (no kernel yet).
    pub host_fallbacks: u64,
    /// Device-to-host copies.
    pub downloads: u64,
    /// Host-to-device copies.
    pub uploads: u64,
}

/// GPU work counted since start.
pub fn kernel_stats() -> KernelStats {
    STATS.with(Cell::get)
}

/// How often each op computed on the host copy of GPU tensors, by PyTorch's
/// op name: where a kernel would pay most.
pub fn host_fallbacks_by_op() -> Vec<(&'static str, u64)> {
    FALLBACKS.with(|f| f.borrow().iter().map(|(k, v)| (*k, *v)).collect())
}

pub(crate) fn count_fallback(op: &'static str) {
    count(|s| s.host_fallbacks += 1);
    FALLBACKS.with(|f| *f.borrow_mut().entry(op).or_insert(0) += 1);
}

pub(crate) fn count(f: impl FnOnce(&mut KernelStats)) {
    STATS.with(|s| {
        let mut stats = s.get();
        f(&mut stats);
        s.set(stats);
    });
}

/// The one device of an op's inputs, or PyTorch's error for a mix. A 0-dim
/// CPU tensor may join GPU tensors (a Python number, `x * torch.tensor(2.)`),
/// as PyTorch allows for CUDA.
pub(crate) fn common<'a>(tensors: impl IntoIterator<Item = &'a crate::Tensor>) -> Result<Device> {
    let (mut gpu, mut cpu) = (false, false);
    for t in tensors {
        match t.device() {
            Device::WebGpu => gpu = true,
            Device::Cpu => cpu |= !t.shape().is_empty(),
        }
    }
    if gpu && cpu {
        return Err(Error::DeviceMismatch {
            first: Device::WebGpu.to_string(),
            second: Device::Cpu.to_string(),
        });
    }
    Ok(if gpu { Device::WebGpu } else { Device::Cpu })
}
