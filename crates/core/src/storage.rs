//! Storage: one allocation, shared by every view of it, with PyTorch's
//! version counter.

use std::cell::{Cell, Ref, RefCell, RefMut};

use gradscope_trace::{EventKind, StorageId};

use crate::cpu::CpuBuffer;
use crate::dtype::DType;
use crate::{ledger, trace};

thread_local! {
    static NEXT_ID: Cell<StorageId> = const { Cell::new(1) };
}

/// One allocation on the CPU. Not `Clone`: copying memory is an allocation
/// that may fail, so it is always explicit.
#[derive(Debug)]
pub struct Storage {
    id: StorageId,
    bytes: u64,
    data: RefCell<CpuBuffer>,
    version: Cell<u64>,
}

impl Storage {
    /// Takes ownership of `data`, counting it in the ledger.
    pub fn new(data: CpuBuffer) -> Self {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        let bytes = data.bytes() as u64;
        ledger::allocated(bytes);
        trace::emit(|| EventKind::StorageAllocated {
            storage: id,
            bytes,
            device: "cpu".into(),
        });
        Self {
            id,
            bytes,
            data: RefCell::new(data),
            version: Cell::new(0),
        }
    }

    /// This allocation's id in the trace.
    pub fn id(&self) -> StorageId {
        self.id
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Its element type.
    pub fn dtype(&self) -> DType {
        self.data.borrow().dtype()
    }

    /// Reads the elements.
    pub fn data(&self) -> Ref<'_, CpuBuffer> {
        self.data.borrow()
    }

    /// Writes the elements in place, bumping the version counter as
    /// PyTorch's in-place ops do.
    pub fn data_mut(&self) -> RefMut<'_, CpuBuffer> {
        self.version.set(self.version.get() + 1);
        self.data.borrow_mut()
    }

    /// PyTorch's `_version`: how many in-place writes this storage has seen.
    pub fn version(&self) -> u64 {
        self.version.get()
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        ledger::freed(self.bytes);
        let storage = self.id;
        trace::emit(|| EventKind::StorageFreed { storage });
    }
}
