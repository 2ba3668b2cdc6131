//! Optimizers, gradient clipping and learning-rate schedulers, as
//! `torch.optim` and `torch.nn.utils` compute them (single-tensor code path,
//! the CPU default), so the same steps from the same weights give PyTorch's
//! numbers. Updates run without recording and write parameters in place,
//! bumping their version counters; optimizer state counts in the ledger's
//! optimizer-state category.

mod adam;
mod clip;
mod scheduler;
mod sgd;

pub use adam::{Adam, AdamOptions};
pub use clip::{clip_grad_norm_, clip_grad_value_};
pub use scheduler::{CosineAnnealingLr, LrScheduler, StepLr};
pub use sgd::{Sgd, SgdOptions};

use crate::error::{Error, Result};
use crate::ledger::Category;
use crate::tensor::Tensor;

/// What every optimizer offers: PyTorch's `Optimizer` API.
pub trait Optimizer {
    /// One update of every parameter that has a gradient, PyTorch's `step()`.
    fn step(&mut self) -> Result<()>;
    /// The parameters it updates.
    fn params(&self) -> &[Tensor];
    /// Its learning rate (`param_groups[0]["lr"]` in PyTorch).
    fn lr(&self) -> f64;
    /// Sets the learning rate, as a scheduler does.
    fn set_lr(&mut self, lr: f64);

    /// Clears gradients, PyTorch's `zero_grad(set_to_none=True)`; with
    /// `false` it zeroes them in place instead.
    fn zero_grad(&self, set_to_none: bool) -> Result<()> {
        let _no_grad = crate::grad_mode::GradModeGuard::internal(false);
        crate::trace::emit(|| gradscope_trace::EventKind::ZeroGrad { set_to_none });
        for p in self.params() {
            match p.grad() {
                Some(g) if !set_to_none => {
                    g.zero_()?;
                }
                Some(_) => p.set_grad(None),
                None => {}
            }
        }
        Ok(())
    }
}

/// Reports an optimizer step over `params` to the trace: the lessons count
/// steps and the parameters they reached.
fn emit_step(optimizer: &str, params: &[Tensor]) {
    crate::trace::emit(|| gradscope_trace::EventKind::OptimizerStep {
        optimizer: optimizer.to_string(),
        updated: params.iter().filter(|p| p.grad().is_some()).count() as u64,
    });
}

/// Checks a parameter list as PyTorch's `Optimizer.__init__` does.
fn checked(params: Vec<Tensor>) -> Result<Vec<Tensor>> {
    if params.is_empty() {
        return Err(Error::OptimizerEmpty);
    }
    Ok(params)
}

/// A zero tensor shaped like `p`, counted as optimizer state.
fn state_like(p: &Tensor) -> Result<Tensor> {
    // On the parameter's device, as PyTorch's `zeros_like(p)`.
    let _on = crate::device::Scope::new(p.device());
    let t = Tensor::full_dtype(p.shape(), 0.0, p.dtype());
    t.set_memory_role(Some(Category::OptimizerState));
    Ok(t)
}

/// `dst.copy_(value)` for optimizer state and parameters, without recording.
fn assign(dst: &Tensor, value: &Tensor) -> Result<()> {
    dst.copy_(value)?;
    Ok(())
}
