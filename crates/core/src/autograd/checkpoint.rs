//! Activation checkpointing with PyTorch's `use_reentrant=False` semantics:
//! the function runs forward with its graph recorded as usual, but the
//! tensors its nodes save are not held; the first time backward needs one,
//! the function runs again from its inputs and the recomputed tensors are
//! used in their place. The trace shows the recomputation.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gradscope_trace::EventKind;

use super::saved::SavedTensor;
use crate::error::{Error, Result};
use crate::grad_mode::{GradModeGuard, is_grad_enabled};
use crate::ops::SavedSlot;
use crate::tensor::Tensor;
use crate::trace;

/// A function of tensors that can be run again for backward.
pub type CheckpointFn = Rc<dyn Fn(&[Tensor]) -> Result<Vec<Tensor>>>;

/// One step of [`checkpoint_sequential`], as a module's `forward`.
pub type Layer = Rc<dyn Fn(&Tensor) -> Result<Tensor>>;

thread_local! {
    /// Checkpoints running forward, innermost last.
    static FORWARD: RefCell<Vec<Rc<Frame>>> = const { RefCell::new(Vec::new()) };
    /// The checkpoint being recomputed, collecting what its nodes save.
    static RECOMPUTING: RefCell<Option<Rc<Frame>>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

/// One checkpointed call: the function, its inputs, and after the first
/// unpack the tensors its recomputation saved, in save order.
pub(crate) struct Frame {
    id: u64,
    f: CheckpointFn,
    inputs: Vec<Tensor>,
    saved_in_forward: Cell<usize>,
    recomputed: RefCell<Option<Vec<SavedTensor>>>,
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Frame({})", self.id)
    }
}

/// Called for each tensor a node saves: inside a checkpoint's forward it is
/// deferred (returns its frame and place); inside a recomputation it is
/// also kept for the deferred saves to read.
pub(crate) fn on_save(tensor: &Tensor) -> Option<(Rc<Frame>, usize)> {
    let recomputing = RECOMPUTING.with(|r| r.borrow().clone());
    if let Some(frame) = recomputing {
        let held = SavedTensor::held(SavedSlot::Input(0), tensor.clone());
        frame
            .recomputed
            .borrow_mut()
            .get_or_insert_with(Vec::new)
            .push(held);
        return None;
    }
    let frame = FORWARD.with(|f| f.borrow().last().cloned())?;
    let index = frame
        .saved_in_forward
        .replace(frame.saved_in_forward.get() + 1);
    Some((frame, index))
}

impl Frame {
    /// The `index`-th saved tensor, recomputing the function the first time.
    pub(crate) fn recomputed(self: &Rc<Self>, index: usize) -> Result<Tensor> {
        if self.recomputed.borrow().is_none() {
            self.recompute()?;
        }
        let recomputed = self.recomputed.borrow();
        let saved = recomputed.as_ref().and_then(|r| r.get(index));
        saved
            .and_then(SavedTensor::held_tensor)
            .ok_or(Error::CheckpointMismatch {
                forward: self.saved_in_forward.get(),
                recomputed: recomputed.as_ref().map_or(0, Vec::len),
            })
    }

    fn recompute(self: &Rc<Self>) -> Result<()> {
        let checkpoint = self.id;
        trace::emit(|| EventKind::RecomputeBegan { checkpoint });
        RECOMPUTING.with(|r| *r.borrow_mut() = Some(self.clone()));
        self.recomputed.borrow_mut().replace(Vec::new());
        let result = {
            let _grad = GradModeGuard::internal(true);
            let inputs: Vec<Tensor> = self
                .inputs
                .iter()
                .map(|t| t.detach().requires_grad_(t.requires_grad()))
                .collect();
            (self.f)(&inputs).map(drop)
        };
        RECOMPUTING.with(|r| r.borrow_mut().take());
        trace::emit(|| EventKind::RecomputeEnded { checkpoint });
        result
    }
}

/// PyTorch's `torch.utils.checkpoint.checkpoint(f, *inputs,
/// use_reentrant=False)`: the same outputs and gradients as `f(inputs)`,
/// without holding the tensors `f`'s nodes save.
///
/// ```
/// use std::rc::Rc;
/// use gradscope_core::{Tensor, autograd::checkpoint::checkpoint};
/// let x = Tensor::from_vec(vec![0.5f32, 1.0], &[2])?.requires_grad_(true);
/// let f = Rc::new(|t: &[Tensor]| Ok(vec![t[0].mul(&t[0])?.exp()?]));
/// let y = checkpoint(f, &[x.clone()])?;
/// y[0].sum()?.backward()?;
/// assert!(x.grad().is_some());
/// # Ok::<(), gradscope_core::Error>(())
/// ```
pub fn checkpoint(f: CheckpointFn, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
    if !is_grad_enabled() {
        return f(inputs);
    }
    let id = NEXT_ID.with(|n| n.replace(n.get() + 1));
    let frame = Rc::new(Frame {
        id,
        f: f.clone(),
        inputs: inputs.to_vec(),
        saved_in_forward: Cell::new(0),
        recomputed: RefCell::new(None),
    });
    FORWARD.with(|s| s.borrow_mut().push(frame));
    let outputs = f(inputs);
    FORWARD.with(|s| s.borrow_mut().pop());
    outputs
}

/// PyTorch's `checkpoint_sequential(functions, segments, input)`: runs the
/// functions in order, checkpointing each of the first `segments - 1`
/// segments; the last runs normally, as in PyTorch.
pub fn checkpoint_sequential(
    functions: &[Layer],
    segments: usize,
    input: &Tensor,
) -> Result<Tensor> {
    let segments = segments.clamp(1, functions.len().max(1));
    let size = functions.len().div_ceil(segments).max(1);
    let chunks: Vec<Vec<_>> = functions.chunks(size).map(<[_]>::to_vec).collect();
    let mut x = input.clone();
    let last = chunks.len().saturating_sub(1);
    for (i, chunk) in chunks.into_iter().enumerate() {
        let run = Rc::new(move |t: &[Tensor]| -> Result<Vec<Tensor>> {
            let mut y = t.first().cloned().ok_or(Error::CheckpointMismatch {
                forward: 1,
                recomputed: 0,
            })?;
            for f in &chunk {
                y = f(&y)?;
            }
            Ok(vec![y])
        });
        let out = if i == last {
            run(&[x])?
        } else {
            checkpoint(run, &[x])?
        };
        x = out.into_iter().next().ok_or(Error::CheckpointMismatch {
            forward: 1,
            recomputed: 0,
        })?;
    }
    Ok(x)
}
