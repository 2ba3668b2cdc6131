//! Storage: one allocation, shared by every view of it, with PyTorch's
//! version counter and the roles that decide its memory category.
//!
//! A GPU storage keeps up to two copies: the device buffer kernels read and
//! write, and a host copy for the ops that have no kernel yet and for
//! reading values out. Whichever was written last is current; the other is
//! refreshed only when asked for, so a chain of kernels never crosses to the
//! host, and a chain of host ops never crosses to the device.
//!
//! Only float32 goes to the device, and bool masks as float32 `1.0`/`0.0`
//! (what compare kernels write and `where` reads); a GPU storage of another
//! dtype (int64 labels, a float64 temporary inside an op) keeps its values
//! on the host, and ops on it take the host path. Asking for float64 on the
//! GPU is refused where a program asks (`to`, a factory's `dtype=`).

use std::cell::{Cell, Ref, RefCell, RefMut};
use std::rc::Rc;

use gradscope_trace::{Category, EventKind, StorageId};

use crate::backend::DeviceBuffer;
use crate::cpu::CpuBuffer;
use crate::device::{self, Device};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::{ledger, trace};

thread_local! {
    static NEXT_ID: Cell<StorageId> = const { Cell::new(1) };
}

/// Roles a holder can give a storage: every category but `Other`.
const ROLES: usize = 4;

/// One allocation. Not `Clone`: copying memory is an allocation that may
/// fail, so it is always explicit.
#[derive(Debug)]
pub struct Storage {
    id: StorageId,
    bytes: u64,
    len: usize,
    dtype: DType,
    device: Device,
    /// The host copy; on a GPU storage current only while `host_current`.
    data: RefCell<CpuBuffer>,
    host_current: Cell<bool>,
    /// The device copy of a GPU storage, when it has one that is current.
    gpu: RefCell<Option<Box<dyn DeviceBuffer>>>,
    version: Cell<u64>,
    /// How many holders give it each role, in [`Category`] order.
    roles: Cell<[u32; ROLES]>,
    /// False when the ledger refused it (over budget): never counted, so
    /// never uncounted; the op that made it fails.
    counted: bool,
    /// A meta storage: the stand-in of PyTorch's `device='meta'`, one
    /// element that no memory view counts (see [`Storage::new_meta`]).
    meta: bool,
}

impl Storage {
    /// Takes ownership of `data`, counting it in the ledger of the device
    /// the running op computes on (the CPU outside ops). On the GPU the
    /// values go to the device when a kernel first reads them.
    pub fn new(data: CpuBuffer) -> Self {
        Self::new_on(data, device::current())
    }

    /// Takes ownership of `data` as a storage on `device`.
    pub fn new_on(data: CpuBuffer, device: Device) -> Self {
        let len = data.len();
        let dtype = data.dtype();
        let bytes = data.bytes() as u64;
        Self::counted(bytes, len, dtype, device, data, true, None)
    }

    /// A GPU storage over a buffer a kernel made (float32).
    pub fn from_device(buffer: Box<dyn DeviceBuffer>) -> Self {
        let len = buffer.len();
        let host = CpuBuffer::F32(Vec::new());
        let bytes = (len * DType::Float32.size()) as u64;
        Self::counted(
            bytes,
            len,
            DType::Float32,
            Device::WebGpu,
            host,
            false,
            Some(buffer),
        )
    }

    /// A GPU bool storage over a mask a compare kernel made (`1.0` true,
    /// `0.0` false). It counts as PyTorch counts a bool tensor, one byte an
    /// element; the device holds the mask as float32 so kernels read it as
    /// they read any operand.
    pub fn from_device_mask(buffer: Box<dyn DeviceBuffer>) -> Self {
        let len = buffer.len();
        let bytes = (len * DType::Bool.size()) as u64;
        let host = CpuBuffer::Bool(Vec::new());
        Self::counted(
            bytes,
            len,
            DType::Bool,
            Device::WebGpu,
            host,
            false,
            Some(buffer),
        )
    }

    fn counted(
        bytes: u64,
        len: usize,
        dtype: DType,
        device: Device,
        data: CpuBuffer,
        host_current: bool,
        gpu: Option<Box<dyn DeviceBuffer>>,
    ) -> Self {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        let counted = ledger::allocate_on(device, bytes);
        if counted {
            trace::emit(|| EventKind::StorageAllocated {
                storage: id,
                bytes,
                device: device.type_name().into(),
                category: Category::Other,
            });
        }
        Self {
            id,
            bytes,
            len,
            dtype,
            device,
            data: RefCell::new(data),
            host_current: Cell::new(host_current),
            gpu: RefCell::new(gpu),
            version: Cell::new(0),
            roles: Cell::new([0; ROLES]),
            counted,
            meta: false,
        }
    }

    /// The storage of a meta tensor (PyTorch's `device='meta'`: shape,
    /// dtype and strides, no data): one zero element that every element of
    /// the tensor reads (strides 0), neither counted in the ledger nor
    /// traced, since PyTorch allocates nothing for it. What runs on a meta
    /// tensor is the Python layer's business (`torch._meta`), which computes
    /// shapes only.
    pub fn new_meta(dtype: DType) -> Self {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        Self {
            id,
            bytes: 0,
            len: 1,
            dtype,
            device: Device::Cpu,
            data: RefCell::new(CpuBuffer::full(dtype, 1, 0.0)),
            host_current: Cell::new(true),
            gpu: RefCell::new(None),
            version: Cell::new(0),
            roles: Cell::new([0; ROLES]),
            counted: false,
            meta: true,
        }
    }

    /// Whether it is a meta tensor's stand-in.
    pub fn is_meta(&self) -> bool {
        self.meta
    }

    /// This allocation's id in the trace.
    pub fn id(&self) -> StorageId {
        self.id
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Its number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Its element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The device it lives on.
    pub fn device(&self) -> Device {
        self.device
    }

    /// Reads the elements, first copying them from the device if a kernel
    /// wrote them last. A failed copy is deferred to the running op (see
    /// [`device::check_device_error`]) and reads as zeros.
    pub fn data(&self) -> Ref<'_, CpuBuffer> {
        self.sync_to_host();
        self.data.borrow()
    }

    /// Writes the elements in place, bumping the version counter as
    /// PyTorch's in-place ops do. On the GPU the device copy is dropped: the
    /// host copy is current until a kernel next needs it.
    pub fn data_mut(&self) -> RefMut<'_, CpuBuffer> {
        self.sync_to_host();
        if self.device == Device::WebGpu {
            self.gpu.borrow_mut().take();
        }
        self.version.set(self.version.get() + 1);
        self.data.borrow_mut()
    }

    fn sync_to_host(&self) {
        if self.host_current.get() {
            return;
        }
        let values = (|| {
            let gpu = self.gpu.borrow();
            let buffer = gpu
                .as_deref()
                .ok_or_else(|| Error::Backend("internal error: GPU storage has no copy".into()))?;
            device::count(|s| s.downloads += 1);
            device::gpu()?.download(buffer)
        })();
        let values = values.unwrap_or_else(|e| {
            device::defer_error(e);
            vec![0.0; self.len]
        });
        *self.data.borrow_mut() = match self.dtype {
            DType::Bool => CpuBuffer::Bool(values.iter().map(|&v| v != 0.0).collect()),
            _ => CpuBuffer::F32(values),
        };
        self.host_current.set(true);
    }

    /// The device copy kernels read, uploading the host copy if it was
    /// written last. `None` for a CPU storage or a dtype kernels do not
    /// take (only float32 lives on the device; other dtypes stay on the host).
    pub fn device_buffer(&self) -> Result<Option<Ref<'_, dyn DeviceBuffer>>> {
        if self.device != Device::WebGpu || self.dtype != DType::Float32 {
            return Ok(None);
        }
        if self.gpu.borrow().is_none() {
            let buffer = match &*self.data.borrow() {
                CpuBuffer::F32(values) => device::gpu()?.upload(values)?,
                _ => return Ok(None),
            };
            device::count(|s| s.uploads += 1);
            *self.gpu.borrow_mut() = Some(buffer);
        }
        Ok(Ref::filter_map(self.gpu.borrow(), |g| g.as_deref()).ok())
    }

    /// A bool GPU storage's device copy as a float32 mask (`1.0` true),
    /// uploading the host copy if it was written last. `None` for a CPU
    /// storage or another dtype.
    pub fn mask_buffer(&self) -> Result<Option<Ref<'_, dyn DeviceBuffer>>> {
        if self.device != Device::WebGpu || self.dtype != DType::Bool {
            return Ok(None);
        }
        if self.gpu.borrow().is_none() {
            let buffer = match &*self.data.borrow() {
                CpuBuffer::Bool(values) => {
                    let mask: Vec<f32> = values.iter().map(|&v| f32::from(u8::from(v))).collect();
                    device::gpu()?.upload(&mask)?
                }
                _ => return Ok(None),
            };
            device::count(|s| s.uploads += 1);
            *self.gpu.borrow_mut() = Some(buffer);
        }
        Ok(Ref::filter_map(self.gpu.borrow(), |g| g.as_deref()).ok())
    }

    /// The device copy, for a kernel to write in place: as
    /// [`Storage::data_mut`] does for the host copy, it bumps the version
    /// counter, and the host copy is stale (dropped) until next read.
    /// `None` where [`Storage::device_buffer`] gives none.
    pub fn device_buffer_for_write(&self) -> Result<Option<Ref<'_, dyn DeviceBuffer>>> {
        if self.device_buffer()?.is_none() {
            return Ok(None);
        }
        if self.host_current.replace(false) {
            *self.data.borrow_mut() = CpuBuffer::F32(Vec::new());
        }
        self.version.set(self.version.get() + 1);
        Ok(Ref::filter_map(self.gpu.borrow(), |g| g.as_deref()).ok())
    }

    /// Uploads the host copy now and drops it, so the values live only on
    /// the device (a tensor moved there with `to`).
    pub fn keep_on_device_only(&self) -> Result<()> {
        if self.device_buffer()?.is_some() {
            *self.data.borrow_mut() = CpuBuffer::F32(Vec::new());
            self.host_current.set(false);
        }
        Ok(())
    }

    /// Counts an in-place change that writes no element (an in-place view
    /// op such as `unsqueeze_`), as PyTorch's version counter does.
    pub(crate) fn bump_version(&self) {
        self.version.set(self.version.get() + 1);
    }

    /// PyTorch's `_version`: how many in-place writes this storage has seen.
    pub fn version(&self) -> u64 {
        self.version.get()
    }

    /// Its memory category now: its highest current role, else `Other`.
    pub fn category(&self) -> Category {
        let roles = self.roles.get();
        let mut held = Category::ALL.iter().zip(roles).filter(|(_, n)| *n > 0);
        held.next().map_or(Category::Other, |(c, _)| *c)
    }

    /// One more holder gives it `role` (a node saved it, it became a `.grad`).
    pub(crate) fn add_role(&self, role: Category) {
        self.change_role(role, |n| n + 1);
    }

    /// A holder of `role` let go.
    pub(crate) fn remove_role(&self, role: Category) {
        self.change_role(role, |n| n.saturating_sub(1));
    }

    fn change_role(&self, role: Category, f: impl FnOnce(u32) -> u32) {
        let i = role as usize;
        if i >= ROLES {
            return;
        }
        let before = self.category();
        let mut roles = self.roles.get();
        roles[i] = f(roles[i]);
        self.roles.set(roles);
        let after = self.category();
        if before != after && self.counted {
            ledger::recategorise_on(self.device, self.bytes, before, after);
            let storage = self.id;
            trace::emit(|| EventKind::StorageRecategorised {
                storage,
                category: after,
            });
        }
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if self.counted {
            ledger::free_on(self.device, self.bytes, self.category());
            let storage = self.id;
            trace::emit(|| EventKind::StorageFreed { storage });
        }
    }
}

/// Views of a tensor's whole storage, without history: what a serializer
/// needs so that tensors saved together keep sharing one storage once
/// loaded (PyTorch's `torch.save([numbers, evens])`), and a view keeps the
/// storage it was cut from (`storage().size()` after loading).
impl crate::tensor::Tensor {
    /// A meta tensor of `shape` and `dtype`: every element reads the one
    /// element of a [`Storage::new_meta`] (strides 0).
    pub fn meta(shape: &[usize], dtype: DType) -> crate::tensor::Tensor {
        let layout = crate::layout::Layout::new(shape.to_vec(), vec![0; shape.len()], 0);
        Self::from_parts(Rc::new(Storage::new_meta(dtype)), layout)
    }

    /// Whether this is a meta tensor (a view of a meta storage).
    pub fn is_meta(&self) -> bool {
        self.storage().is_meta()
    }

    /// The whole storage as one contiguous 1-D tensor, sharing it.
    pub fn storage_tensor(&self) -> crate::tensor::Tensor {
        let storage = self.storage().clone();
        let len = storage.len();
        Self::from_parts(storage, crate::layout::Layout::contiguous(&[len]))
    }

    /// A view of this tensor's storage with `shape`, `strides` (in
    /// elements, not negative) and `offset`, as `as_strided` makes one;
    /// `None` when an element would lie outside the storage.
    pub fn restrided(
        &self,
        shape: &[usize],
        strides: &[isize],
        offset: usize,
    ) -> Option<crate::tensor::Tensor> {
        if shape.len() != strides.len() || strides.iter().any(|&s| s < 0) {
            return None;
        }
        let len = self.storage().len();
        if shape.contains(&0) {
            if offset > len {
                return None;
            }
        } else {
            let mut last = offset;
            for (&size, &stride) in shape.iter().zip(strides) {
                last = last.checked_add((size - 1).checked_mul(stride.unsigned_abs())?)?;
            }
            if last >= len {
                return None;
            }
        }
        let layout = crate::layout::Layout::new(shape.to_vec(), strides.to_vec(), offset);
        Some(Self::from_parts(self.storage().clone(), layout))
    }
}
