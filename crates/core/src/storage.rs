//! Storage: one allocation, shared by every view of it, with PyTorch's
//! version counter.

use std::cell::{Cell, Ref, RefCell, RefMut};

use gradscope_trace::{EventKind, StorageId};

use crate::{ledger, trace};

thread_local! {
    static NEXT_ID: Cell<StorageId> = const { Cell::new(1) };
}

/// One allocation of `f32` elements on the CPU. Not `Clone`: copying memory
/// is an allocation that may fail, so it is always explicit.
#[derive(Debug)]
pub struct Storage {
    id: StorageId,
    data: RefCell<Vec<f32>>,
    version: Cell<u64>,
}

impl Storage {
    /// Takes ownership of `data`, counting it in the ledger.
    pub fn new(data: Vec<f32>) -> Self {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        let bytes = (data.len() * size_of::<f32>()) as u64;
        ledger::allocated(bytes);
        trace::emit(|| EventKind::StorageAllocated {
            storage: id,
            bytes,
            device: "cpu".into(),
        });
        Self {
            id,
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
        (self.data.borrow().len() * size_of::<f32>()) as u64
    }

    /// Reads the elements.
    pub fn data(&self) -> Ref<'_, Vec<f32>> {
        self.data.borrow()
    }

    /// Writes the elements in place, bumping the version counter as
    /// PyTorch's in-place ops do.
    pub fn data_mut(&self) -> RefMut<'_, Vec<f32>> {
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
        ledger::freed(self.bytes());
        let storage = self.id;
        trace::emit(|| EventKind::StorageFreed { storage });
    }
}
