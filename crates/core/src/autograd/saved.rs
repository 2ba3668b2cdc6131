//! Saved tensors: what a node keeps for backward, PyTorch's `SavedVariable`.
//! A saved tensor is either held (its storage counts as saved for backward)
//! or, inside [`checkpoint`](super::checkpoint::checkpoint), deferred: only a
//! place in its checkpoint's recomputation, filled when backward needs it.

use std::rc::Rc;

use gradscope_trace::{Category, SavedInfo};

use super::Node;
use super::checkpoint::{self, Frame};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::{SavedSlot, saved_name};
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A tensor kept for backward.
#[derive(Debug)]
pub(crate) struct SavedTensor {
    slot: SavedSlot,
    /// The name the trace gives it, where not its slot's (`self`): the
    /// `mask` and `indices` of the Python runtime's composite nodes.
    name: Option<&'static str>,
    value: Value,
}

#[derive(Debug)]
enum Value {
    /// The tensor (for a saved result, detached: a node must not own its
    /// own output) and its version when saved.
    Held { tensor: Tensor, version: u64 },
    /// The `index`-th tensor saved while `frame`'s function ran.
    /// Its layout, dtype and version are kept for the trace.
    Deferred {
        frame: Rc<Frame>,
        index: usize,
        layout: Layout,
        dtype: DType,
        version: u64,
    },
}

impl SavedTensor {
    /// Saves `tensor`, deferring it when a checkpoint is running forward.
    pub(crate) fn new(slot: SavedSlot, tensor: Tensor) -> Self {
        match checkpoint::on_save(&tensor) {
            Some((frame, index)) => Self {
                slot,
                name: None,
                value: Value::Deferred {
                    frame,
                    index,
                    layout: tensor.layout().clone(),
                    dtype: tensor.dtype(),
                    version: tensor.storage().version(),
                },
            },
            None => Self::held(slot, tensor),
        }
    }

    /// Saves `tensor` and holds it, whatever checkpoint is running.
    pub(crate) fn held(slot: SavedSlot, tensor: Tensor) -> Self {
        tensor.storage().add_role(Category::SavedForBackward);
        let version = tensor.storage().version();
        Self {
            slot,
            name: None,
            value: Value::Held { tensor, version },
        }
    }

    /// Names it `name` in the trace.
    pub(crate) fn named(mut self, name: Option<&'static str>) -> Self {
        self.name = name;
        self
    }

    /// The tensor, when held.
    pub(crate) fn held_tensor(&self) -> Option<Tensor> {
        match &self.value {
            Value::Held { tensor, .. } => Some(tensor.clone()),
            Value::Deferred { .. } => None,
        }
    }

    pub(crate) fn slot(&self) -> SavedSlot {
        self.slot
    }

    /// What the trace and the graph view show of it.
    pub(crate) fn info(&self) -> SavedInfo {
        let name = self.name.unwrap_or_else(|| saved_name(self.slot)).into();
        let described = |layout: &Layout, dtype: DType, version: u64| SavedInfo {
            name,
            shape: layout.shape().to_vec(),
            dtype: dtype.name().into(),
            strides: layout.strides().iter().map(|&s| s as i64).collect(),
            offset: layout.offset() as u64,
            version,
            ..SavedInfo::default()
        };
        match &self.value {
            Value::Held { tensor, version } => SavedInfo {
                storage: tensor.storage().id(),
                bytes: tensor.storage().bytes(),
                ..described(tensor.layout(), tensor.dtype(), *version)
            },
            Value::Deferred {
                layout,
                dtype,
                version,
                ..
            } => SavedInfo {
                deferred: true,
                ..described(layout, *dtype, *version)
            },
        }
    }

    /// The tensor as backward reads it: version-checked, recomputed if
    /// deferred, and for a saved result given `node` back as its `grad_fn`
    /// (PyTorch's `SavedVariable::unpack`).
    pub(crate) fn unpack(&self, node: &Rc<Node>) -> Result<Tensor> {
        let tensor = match &self.value {
            Value::Held { tensor, version } => {
                let now = tensor.storage().version();
                if now != *version && !tensor.is_inference() {
                    let producer = match self.slot {
                        SavedSlot::Output => Some(node.name().to_string()),
                        SavedSlot::Input(_) => tensor.grad_fn().map(|n| n.name().to_string()),
                    };
                    return Err(Error::SavedTensorModified {
                        dtype: tensor.dtype(),
                        shape: tensor.shape().to_vec(),
                        producer: producer.map(|n| forward_name(&n)),
                        version: now,
                        expected: *version,
                    });
                }
                tensor.clone()
            }
            Value::Deferred { frame, index, .. } => frame.recomputed(*index)?,
        };
        Ok(match self.slot {
            SavedSlot::Output => {
                let t = tensor.detach();
                t.0.requires_grad.set(true);
                *t.0.grad_fn.borrow_mut() = Some(node.clone());
                t
            }
            SavedSlot::Input(_) => tensor,
        })
    }

    /// Before an in-place op overwrites `storage`, keeps a copy of the value
    /// instead: PyTorch's `original_self` clone. Only `self` is cloned, as
    /// in PyTorch: another saved input on the same storage (`v *= v`,
    /// `x[::2].mul_(x[1::2])`) keeps its version and backward refuses it.
    pub(crate) fn snapshot_if_reads(&mut self, storage: &Rc<Storage>) {
        if let Value::Held { tensor, .. } = &self.value
            && self.slot == SavedSlot::Input(0)
            && Rc::ptr_eq(tensor.storage(), storage)
        {
            let copy = tensor.dense_copy();
            copy.0.requires_grad.set(tensor.requires_grad());
            *copy.0.grad_fn.borrow_mut() = tensor.grad_fn();
            *self = Self::held(self.slot, copy).named(self.name);
        }
    }

    /// For a saved result, saves `t` instead at its current version: an
    /// in-place op's result is the tensor it wrote, whose later writes must
    /// be caught. A deferred (checkpointed) result is recomputed instead.
    pub(crate) fn rebind_result(&mut self, t: &Tensor) {
        if self.slot == SavedSlot::Output && matches!(self.value, Value::Held { .. }) {
            *self = Self::held(SavedSlot::Output, t.detach());
        }
    }

    /// The saved tensor's `grad_fn` when this is its last handle, so a
    /// dropping graph can be unlinked without recursion.
    pub(crate) fn take_grad_fn(&self) -> Option<Rc<Node>> {
        match &self.value {
            Value::Held { tensor, .. } if Rc::strong_count(&tensor.0) == 1 => {
                tensor.0.grad_fn.take()
            }
            _ => None,
        }
    }
}

impl Drop for SavedTensor {
    fn drop(&mut self) {
        if let Value::Held { tensor, .. } = &self.value {
            tensor.storage().remove_role(Category::SavedForBackward);
        }
    }
}

/// How PyTorch's version error names the op behind a node: `Backward0`
/// dropped (`SigmoidBackward0` is `Sigmoid`), other numbers kept
/// (`LeakyReluBackward1` is `LeakyRelu1`).
pub(crate) fn forward_name(node: &str) -> String {
    if let Some(name) = node.strip_suffix("Backward0") {
        return name.into();
    }
    match node.rfind("Backward") {
        Some(at)
            if node[at + "Backward".len()..]
                .chars()
                .all(|c| c.is_ascii_digit()) =>
        {
            format!("{}{}", &node[..at], &node[at + "Backward".len()..])
        }
        _ => node.into(),
    }
}
