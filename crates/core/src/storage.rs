//! Storage: one allocation, shared by every view of it, with PyTorch's
//! version counter and the roles that decide its memory category.

use std::cell::{Cell, Ref, RefCell, RefMut};

use gradscope_trace::{Category, EventKind, StorageId};

use crate::cpu::CpuBuffer;
use crate::dtype::DType;
use crate::{ledger, trace};

thread_local! {
    static NEXT_ID: Cell<StorageId> = const { Cell::new(1) };
}

/// Roles a holder can give a storage: every category but `Other`.
const ROLES: usize = 4;

/// One allocation on the CPU. Not `Clone`: copying memory is an allocation
/// that may fail, so it is always explicit.
#[derive(Debug)]
pub struct Storage {
    id: StorageId,
    bytes: u64,
    data: RefCell<CpuBuffer>,
    version: Cell<u64>,
    /// How many holders give it each role, in [`Category`] order.
    roles: Cell<[u32; ROLES]>,
    /// False when the ledger refused it (over budget): never counted, so
    /// never uncounted; the op that made it fails.
    counted: bool,
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
        let counted = ledger::allocate(bytes);
        if counted {
            trace::emit(|| EventKind::StorageAllocated {
                storage: id,
                bytes,
                device: "cpu".into(),
                category: Category::Other,
            });
        }
        Self {
            id,
            bytes,
            data: RefCell::new(data),
            version: Cell::new(0),
            roles: Cell::new([0; ROLES]),
            counted,
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
            ledger::recategorise(self.bytes, before, after);
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
            ledger::free(self.bytes, self.category());
            let storage = self.id;
            trace::emit(|| EventKind::StorageFreed { storage });
        }
    }
}
