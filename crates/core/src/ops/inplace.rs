//! In-place ops (`add_`, `mul_`, `zero_`, ...): the out-of-place op's result
//! written into the tensor's own storage, bumping its version counter, with
//! the tensor's history rebased onto the op's node, as PyTorch does.

use gradscope_trace::EventKind;

use crate::error::{Error, Result};
use crate::grad_mode::{is_grad_enabled, is_inference_mode_enabled};
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
        if self.is_leaf() && self.requires_grad() && is_grad_enabled() {
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
        if let Some(node) = result.grad_fn() {
            node.snapshot_saved(self.storage());
        }
        let values = result
            .storage()
            .data()
            .gather_as(result.layout(), self.dtype());
        self.storage()
            .data_mut()
            .write_through(self.layout(), &values)?;
        if let Some(node) = result.grad_fn() {
            self.0.requires_grad.set(true);
            *self.0.grad_fn.borrow_mut() = Some(node);
        }
        trace::emit(|| EventKind::OpCalled {
            op: name.into(),
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

    /// Sets every element to `value`, PyTorch's `fill_`. Gradients do not
    /// flow through the old value; unlike PyTorch no `FillBackward0` node is
    /// recorded, the tensor simply leaves the graph.
    pub fn fill_(&self, value: f64) -> Result<Tensor> {
        let out = self.apply_inplace("fill_", |t| {
            Ok(Tensor::full_dtype(t.shape(), value, t.dtype()))
        })?;
        if !self.is_leaf() {
            *self.0.grad_fn.borrow_mut() = None;
            self.0.requires_grad.set(false);
        }
        Ok(out)
    }

    /// PyTorch's `zero_`.
    pub fn zero_(&self) -> Result<Tensor> {
        self.fill_(0.0)
    }

    /// Copies `src` (broadcast, cast) into this tensor, PyTorch's `copy_`.
    /// The graph shows the broadcast and cast (`ExpandBackward0`,
    /// `ToCopyBackward0`) rather than PyTorch's single `CopyBackwards`.
    pub fn copy_(&self, src: &Tensor) -> Result<Tensor> {
        let (shape, dtype) = (self.shape().to_vec(), self.dtype());
        self.apply_inplace("copy_", |_| src.expand(&shape)?.to_dtype(dtype))
    }
}
