//! Which tensors are views of which: PyTorch's `_base` and view metadata,
//! kept beside the tensors (a tensor handle has no field for it) so an
//! in-place op on a view can rebase its base's history (`CopySlices`) and
//! refuse what PyTorch refuses.
//!
//! A view is recorded with the ops that lead from its base to it, so its
//! gradient can be placed back into the base's shape (the backward of each
//! op in reverse) and a gradient of the base's shape can be cut down to it
//! (the ops replayed). Entries hold weak references only: a view must not
//! keep its base's storage alive in the memory ledger after both are gone.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use gradscope_trace::TensorId;

use crate::error::Result;
use crate::grad_mode::is_grad_enabled;
use crate::ops::join::JoinOp;
use crate::ops::{Op, ViewOp};
use crate::tensor::{Tensor, TensorImpl};

/// How a view was made, PyTorch's `CreationMeta`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Creation {
    /// An ordinary view made with grad mode on.
    Default,
    /// Made while grad mode was off.
    NoGrad,
    /// One output of an op returning several views (`split`, `unbind`):
    /// the number of the output and the op's node name.
    MultiOutput { output: usize, node: &'static str },
}

/// One step from the base towards the view: the op and its input's shape.
pub(crate) type Step = (Op, Vec<usize>);

#[derive(Debug)]
struct Entry {
    view: Weak<TensorImpl>,
    base: Weak<TensorImpl>,
    chain: Vec<Step>,
    creation: Creation,
    /// Made with grad mode off from a tensor that requires grad: the view
    /// requires grad as its base does, but has no history of its own and
    /// no `AccumulateGrad` (PyTorch's `requires_grad()` of a view without
    /// its own `requires_grad_` flag).
    requires_grad_from_base: bool,
}

#[derive(Default)]
struct Table {
    entries: HashMap<TensorId, Entry>,
    /// Entries after the last sweep of dead views; the next sweep runs when
    /// the table has doubled, so sweeping costs O(1) per view made.
    swept_len: usize,
    /// The last `split` piece noted: its input, dimension, end and output
    /// number, to number the next piece of the same split.
    last_split: Option<(TensorId, usize, usize, usize)>,
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::default());
    /// Whether any view has taken its base's `requires_grad` under no_grad:
    /// until one has, [`requires_grad_from_base`] needs no table look-up.
    static ANY_FROM_BASE: Cell<bool> = const { Cell::new(false) };
}

/// A live view's base and how it was made.
pub(crate) struct ViewOf {
    pub base: Tensor,
    pub chain: Vec<Step>,
    pub creation: Creation,
}

fn upgrade(weak: &Weak<TensorImpl>) -> Option<Tensor> {
    weak.upgrade().map(Tensor)
}

/// The view step `op` takes, if it makes a view of its input that autograd
/// tracks; `reshape`'s view of its own copy (`_unsafe_view`) is not one.
fn view_step(op: &Op) -> Option<Option<(usize, &'static str)>> {
    match op {
        Op::View(ViewOp::Clone | ViewOp::Contiguous | ViewOp::UnsafeView(_))
        | Op::View(
            ViewOp::SliceBackward { .. }
            | ViewOp::SelectBackward { .. }
            | ViewOp::DiagonalBackward { .. },
        ) => None,
        Op::View(_) => Some(None),
        Op::Join(JoinOp::Unbind { index, .. }) => Some(Some((*index, "Unbind"))),
        Op::Join(JoinOp::Split { with_sizes, .. }) => Some(Some((
            0,
            if *with_sizes {
                "SplitWithSizes"
            } else {
                "Split"
            },
        ))),
        _ => None,
    }
}

/// Notes `output` as a view of `input` when `op` made one: called for every
/// op, with grad mode on or off, as PyTorch marks views whatever the mode.
pub(crate) fn note(op: &Op, input: Option<&Tensor>, output: &Tensor) {
    let Some(input) = input else { return };
    let Some(multi) = view_step(op) else { return };
    if !Rc::ptr_eq(input.storage(), output.storage()) {
        return;
    }
    TABLE.with(|table| {
        let mut table = table.borrow_mut();
        let step = (op.clone(), input.shape().to_vec());
        let (base, mut chain, inherited) = match table.entries.get(&input.id()) {
            Some(e) if e.view.strong_count() > 0 && e.base.strong_count() > 0 => {
                (e.base.clone(), e.chain.clone(), e.creation.clone())
            }
            // An in-place view op's result takes its input's place: a view
            // only if the input was one, as PyTorch's `unsqueeze_` leaves it.
            _ if matches!(op, Op::View(ViewOp::Inplace(_))) => return,
            _ => (Rc::downgrade(&input.0), vec![], Creation::Default),
        };
        chain.push(step);
        let creation = match multi {
            Some((index, node)) => {
                let output = match op {
                    Op::Join(JoinOp::Split {
                        dim, start, len, ..
                    }) => {
                        let number = match table.last_split {
                            _ if *start == 0 => 0,
                            Some((id, d, end, n))
                                if id == input.id() && d == *dim && end == *start =>
                            {
                                n + 1
                            }
                            _ => start / (*len).max(1),
                        };
                        table.last_split = Some((input.id(), *dim, start + len, number));
                        number
                    }
                    _ => index,
                };
                Creation::MultiOutput { output, node }
            }
            // PyTorch's propagate_creation_meta: a view of a view made
            // under no_grad is refused in-place writes as that one is.
            None if inherited == Creation::NoGrad => Creation::NoGrad,
            None => Creation::Default,
        };
        let grad_off = !is_grad_enabled();
        let creation = if grad_off { Creation::NoGrad } else { creation };
        // PyTorch's view made with grad mode off still requires grad when
        // its base does, though it records no history.
        let requires_grad_from_base = grad_off && input.requires_grad();
        if requires_grad_from_base {
            output.0.requires_grad.set(true);
            ANY_FROM_BASE.with(|any| any.set(true));
        }
        table.entries.insert(
            output.id(),
            Entry {
                view: Rc::downgrade(&output.0),
                base,
                chain,
                creation,
                requires_grad_from_base,
            },
        );
        if table.entries.len() > 2 * table.swept_len.max(64) {
            table.entries.retain(|_, e| e.view.strong_count() > 0);
            table.swept_len = table.entries.len();
        }
    });
}

/// `t`'s base, if `t` is a live view of a live base.
pub(crate) fn view_of(t: &Tensor) -> Option<ViewOf> {
    TABLE.with(|table| {
        let table = table.borrow();
        let e = table.entries.get(&t.id())?;
        // The id is reused by no other handle, but the entry may be stale if
        // this handle is new and the id came back: check it is this tensor.
        if !std::ptr::eq(e.view.as_ptr(), Rc::as_ptr(&t.0)) {
            return None;
        }
        Some(ViewOf {
            base: upgrade(&e.base)?,
            chain: e.chain.clone(),
            creation: e.creation.clone(),
        })
    })
}

/// Whether `t` requires grad only as a view made under no_grad of a tensor
/// that does: a gradient for it goes nowhere (PyTorch gives it no
/// `AccumulateGrad`).
pub(crate) fn requires_grad_from_base(t: &Tensor) -> bool {
    if !ANY_FROM_BASE.with(Cell::get) {
        return false;
    }
    TABLE.with(|table| {
        table.borrow().entries.get(&t.id()).is_some_and(|e| {
            e.requires_grad_from_base && std::ptr::eq(e.view.as_ptr(), Rc::as_ptr(&t.0))
        })
    })
}

/// The live views of `base`, with the steps that make each.
pub(crate) fn views_of(base: &Tensor) -> Vec<(Tensor, Vec<Step>)> {
    TABLE.with(|table| {
        table
            .borrow()
            .entries
            .values()
            .filter(|e| std::ptr::eq(e.base.as_ptr(), Rc::as_ptr(&base.0)))
            .filter_map(|e| Some((upgrade(&e.view)?, e.chain.clone())))
            .collect()
    })
}

/// A tensor of the base's shape cut down to the view: the steps replayed
/// (differentiable, so `create_graph` works through it).
pub(crate) fn replay(chain: &[Step], t: &Tensor) -> Result<Tensor> {
    let mut t = t.clone();
    for (op, _) in chain {
        t = crate::ops::apply(op.clone(), &[&t])?;
    }
    Ok(t)
}

/// A gradient of the view's shape placed into the base's shape, zeros
/// elsewhere: each step's backward, last step first.
pub(crate) fn place(chain: &[Step], grad: &Tensor) -> Result<Tensor> {
    let mut g = grad.clone();
    for (op, shape) in chain.iter().rev() {
        let shapes = [shape.clone()];
        let inputs = super::derivatives::BackwardInputs {
            grad: &g,
            saved: &[],
            input_shapes: &shapes,
            needs_grad: &[true],
        };
        let out = super::derivatives::backward(op, &inputs)?;
        g = match out.into_iter().next().flatten() {
            Some(g) => g.sum_to_size(shape)?,
            None => {
                return Err(crate::Error::Backend(format!(
                    "internal error: {} gave no gradient for its input",
                    op.node_name()
                )));
            }
        };
    }
    Ok(g)
}
