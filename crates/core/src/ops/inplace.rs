//! In-place ops (`add_`, `mul_`, `zero_`, ...): the out-of-place op's result
//! written into the tensor's own storage, bumping its version counter, with
//! the tensor's history rebased onto the op's node, as PyTorch does.

use gradscope_trace::EventKind;

use super::SavedSlot;
use crate::autograd::{self, views};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::grad_mode::{GradModeGuard, is_grad_enabled, is_inference_mode_enabled};
use crate::kernels::{self, Kernels, operand};
use crate::tensor::Tensor;
use crate::trace;

impl Tensor {
    /// Runs `op` on this tensor and stores its result in place, PyTorch's
    /// `x.op_(...)`: the checks (leaf requiring grad, inference tensor,
    /// shape, dtype, overlapping elements), the write, and the rebase of
    /// `grad_fn` onto the op's node. `name` is the in-place op's name for
    /// the trace (`add_`). Returns the same tensor, as PyTorch does.
    pub fn apply_inplace(
        &self,
        name: &str,
        op: impl FnOnce(&Tensor) -> Result<Tensor>,
    ) -> Result<Tensor> {
        let grad_on = is_grad_enabled();
        let view = if grad_on { views::view_of(self) } else { None };
        // PyTorch's check_inplace: what the view's creation forbids, then a
        // view of a leaf, then a leaf. A view's need for a gradient is its
        // base's, as PyTorch's views share it.
        if let Some(v) = &view {
            view_rebase_check(self, v, self.requires_grad() || v.base.requires_grad())?;
            if self.requires_grad() && v.base.is_leaf() {
                return Err(Error::LeafViewInplace);
            }
        }
        if self.is_leaf() && self.requires_grad() && grad_on {
            return Err(Error::LeafInplace);
        }
        if self.is_inference() && !is_inference_mode_enabled() {
            return Err(Error::InferenceInplace);
        }
        let layout = self.layout();
        if layout
            .shape()
            .iter()
            .zip(layout.strides())
            .any(|(&n, &s)| n > 1 && s == 0)
        {
            return Err(Error::InplaceOverlap);
        }
        let mark = autograd::sequence_mark();
        let result = op(self)?;
        if result.shape() != self.shape() {
            return Err(Error::InplaceShape {
                shape: self.shape().to_vec(),
                broadcast: result.shape().to_vec(),
            });
        }
        if result.dtype() > self.dtype() && (result.dtype().is_float() != self.dtype().is_float()) {
            return Err(Error::InplaceCast {
                from: result.dtype().legacy_name().trim_end_matches("Tensor"),
                to: self.dtype().legacy_name().trim_end_matches("Tensor"),
            });
        }
        if let Some(v) = &view {
            // Another input may be what needs the gradient.
            view_rebase_check(self, v, result.requires_grad())?;
        }
        let node = result.grad_fn();
        if let Some(node) = &node {
            node.snapshot_saved(self.storage(), mark);
        }
        // On the GPU the result is stored by a kernel, with no round trip.
        let stored = |k: &dyn Kernels| Ok(k.write(operand(self), operand(&result))?.then_some(()));
        kernels::run_or_on(self.device(), stored, || {
            let values = result
                .storage()
                .data()
                .gather_as(result.layout(), self.dtype());
            self.storage()
                .data_mut()
                .write_through(self.layout(), &values)
        })?;
        if grad_on {
            // A node that saved its result (`exp_`, `sigmoid_`, `relu_`)
            // saved the tensor now written, at its new version.
            if let Some(node) = node.as_ref().filter(|n| n.sequence_nr() >= mark) {
                node.resave_result(self);
            }
            autograd::rebase_history(self, node, mark, name);
        }
        trace::emit(|| EventKind::OpCalled {
            op: name.to_owned().into(),
            shape: self.shape().to_vec(),
        });
        Ok(self.clone())
    }

    /// `self += other`, PyTorch's `add_`.
    pub fn add_(&self, other: &Tensor) -> Result<Tensor> {
        self.apply_inplace("add_", |t| t.add(other))
    }

    /// `self -= other`, PyTorch's `sub_`.
    pub fn sub_(&self, other: &Tensor) -> Result<Tensor> {
        self.apply_inplace("sub_", |t| t.sub(other))
    }

    /// `self *= other`, PyTorch's `mul_`.
    pub fn mul_(&self, other: &Tensor) -> Result<Tensor> {
        self.apply_inplace("mul_", |t| t.mul(other))
    }

    /// `self /= other`, PyTorch's `div_`.
    pub fn div_(&self, other: &Tensor) -> Result<Tensor> {
        self.apply_inplace("div_", |t| t.div(other))
    }

    /// Sets every element to `value`, PyTorch's `fill_`. The old value gets
    /// a zero gradient through `FillBackward2`; a view's base gets
    /// `CopySlices`, which gives the filled elements none.
    pub fn fill_(&self, value: f64) -> Result<Tensor> {
        self.fill_number(value, false)
    }

    /// [`Tensor::fill_`] with a Python number that was an `int` when
    /// `integral`: uint8 then takes it down to -255, as PyTorch's check does.
    pub fn fill_number(&self, value: f64, integral: bool) -> Result<Tensor> {
        self.dtype().check_fits(value, integral, DType::c_name)?;
        self.apply_inplace("fill_", |t| {
            Ok(Tensor::full_dtype(t.shape(), value, t.dtype()))
        })
    }

    /// PyTorch's `zero_` (`ZeroBackward0`).
    pub fn zero_(&self) -> Result<Tensor> {
        self.apply_inplace("zero_", |t| {
            Ok(Tensor::full_dtype(t.shape(), 0.0, t.dtype()))
        })
    }

    /// Copies `src` (broadcast, cast) into this tensor, PyTorch's `copy_`:
    /// one `CopyBackwards` node whose edges are the old value's history
    /// (a zero gradient) and `src`'s (the gradient summed back to its shape
    /// and cast to its dtype), as in PyTorch.
    pub fn copy_(&self, src: &Tensor) -> Result<Tensor> {
        let (shape, dtype) = (self.shape().to_vec(), self.dtype());
        self.apply_inplace("copy_", |t| {
            let out = {
                let _off = GradModeGuard::internal(false);
                src.expand(&shape)?.to_dtype(dtype)?.detach()
            };
            autograd::record_inplace(InplaceOp::Copy, &[t, src], &out)?;
            Ok(out)
        })
    }

    /// PyTorch's `F.leaky_relu_(self, negative_slope)`: its node,
    /// `LeakyReluBackward1`, saves the result it wrote, so a later write to
    /// the tensor is caught; backward refuses a negative slope, as PyTorch's.
    pub fn leaky_relu_(&self, negative_slope: f64) -> Result<Tensor> {
        self.apply_inplace("leaky_relu_", |t| {
            let out = {
                let _off = GradModeGuard::internal(false);
                t.leaky_relu(negative_slope)?
            };
            autograd::record_inplace(InplaceOp::LeakyRelu { negative_slope }, &[t], &out)?;
            Ok(out)
        })
    }
}

/// An in-place op that PyTorch records as a node of its own rather than as
/// its out-of-place op's: not an [`Op`](super::Op) variant, since no
/// out-of-place call makes it and no backend computes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum InplaceOp {
    /// `leaky_relu_`: `LeakyReluBackward1`, which saves the result.
    LeakyRelu {
        /// The slope for negative inputs.
        negative_slope: f64,
    },
    /// `copy_(src)`: `CopyBackwards`, over the old value and `src`.
    Copy,
}

impl InplaceOp {
    /// PyTorch's node name.
    pub(crate) fn node_name(&self) -> &'static str {
        match self {
            InplaceOp::LeakyRelu { .. } => "LeakyReluBackward1",
            InplaceOp::Copy => "CopyBackwards",
        }
    }

    /// What its backward reads.
    pub(crate) fn saved(&self) -> Vec<SavedSlot> {
        match self {
            InplaceOp::LeakyRelu { .. } => vec![SavedSlot::Output],
            InplaceOp::Copy => vec![],
        }
    }
}

/// What PyTorch's `handle_view_on_rebase` refuses when an in-place op on a
/// view will be recorded (`requires_grad`, with grad mode on): a view made
/// with grad mode off, or one of several views one op returned.
fn view_rebase_check(t: &Tensor, view: &views::ViewOf, requires_grad: bool) -> Result<()> {
    if !requires_grad {
        return Ok(());
    }
    match &view.creation {
        views::Creation::Default => Ok(()),
        views::Creation::NoGrad => match t.grad_fn() {
            // A view of that view, made with grad mode on.
            Some(node) => Err(Error::NoGradViewOfViewInplace {
                output: 0,
                node: autograd::forward_name(node.name()),
            }),
            None => Err(Error::NoGradViewInplace),
        },
        views::Creation::MultiOutput { output, node } => Err(Error::MultiOutputViewInplace {
            output: *output,
            node: (*node).into(),
        }),
    }
}
