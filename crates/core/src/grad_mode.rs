//! Grad modes: whether ops record a graph, as scoped guards over
//! thread-local state (PyTorch's `torch.no_grad`, `torch.enable_grad`).

use std::cell::Cell;

use gradscope_trace::EventKind;

use crate::trace;

thread_local! {
    static GRAD_ENABLED: Cell<bool> = const { Cell::new(true) };
    static INFERENCE: Cell<bool> = const { Cell::new(false) };
    static ANOMALY: Cell<bool> = const { Cell::new(false) };
}

/// Turns anomaly detection on or off, PyTorch's
/// `torch.autograd.set_detect_anomaly(mode)`: backward then checks every
/// node's gradients for NaN and names the node and the line that made it.
pub fn set_detect_anomaly(mode: bool) {
    ANOMALY.with(|a| a.set(mode));
}

/// PyTorch's `torch.is_anomaly_enabled()`.
pub fn is_anomaly_enabled() -> bool {
    ANOMALY.with(Cell::get)
}

/// Whether inference mode is on, PyTorch's `torch.is_inference_mode_enabled()`.
pub fn is_inference_mode_enabled() -> bool {
    INFERENCE.with(Cell::get)
}

/// Whether ops on this thread record a graph, PyTorch's `torch.is_grad_enabled()`.
pub fn is_grad_enabled() -> bool {
    GRAD_ENABLED.with(Cell::get)
}

/// Sets grad mode until the guard drops, then restores the previous mode;
/// PyTorch's `torch.set_grad_enabled(mode)` used as a context manager.
#[derive(Debug)]
#[must_use = "grad mode reverts when the guard drops"]
pub struct GradModeGuard {
    previous: bool,
    previous_inference: bool,
    /// The mode's name for the trace; `None` for the engine's own scopes,
    /// which the learner did not write and the trace does not show.
    name: Option<&'static str>,
}

impl GradModeGuard {
    /// Enters `torch.set_grad_enabled(enabled)`.
    pub fn set(enabled: bool) -> Self {
        let name = if enabled { "enable_grad" } else { "no_grad" };
        trace::emit(|| EventKind::GradModeEntered { mode: name.into() });
        // Not `..Self::internal(..)`: that temporary guard would drop, and
        // restore the old mode, at the end of this statement.
        let previous = GRAD_ENABLED.with(|g| g.replace(enabled));
        let previous_inference = is_inference_mode_enabled();
        Self {
            previous,
            previous_inference,
            name: Some(name),
        }
    }

    /// Sets grad mode for the engine's own work (backward formulas,
    /// optimizer steps, recomputation) without a trace event: these scopes
    /// are not in the learner's program.
    pub fn internal(enabled: bool) -> Self {
        let previous = GRAD_ENABLED.with(|g| g.replace(enabled));
        let previous_inference = is_inference_mode_enabled();
        Self {
            previous,
            previous_inference,
            name: None,
        }
    }

    /// Enters `torch.inference_mode(mode)`: with `true`, no graph is
    /// recorded and new tensors are inference tensors (no version counter
    /// checks, never saved for backward).
    pub fn inference_mode(mode: bool) -> Self {
        let name = if mode {
            "inference_mode"
        } else {
            "inference_mode(False)"
        };
        trace::emit(|| EventKind::GradModeEntered { mode: name.into() });
        let previous = GRAD_ENABLED.with(|g| g.replace(!mode && is_grad_enabled()));
        let previous_inference = INFERENCE.with(|i| i.replace(mode));
        Self {
            previous,
            previous_inference,
            name: Some(name),
        }
    }

    /// Enters `torch.no_grad()`.
    pub fn no_grad() -> Self {
        Self::set(false)
    }
}

impl Drop for GradModeGuard {
    fn drop(&mut self) {
        GRAD_ENABLED.with(|g| g.set(self.previous));
        INFERENCE.with(|i| i.set(self.previous_inference));
        if let Some(mode) = self.name {
            trace::emit(|| EventKind::GradModeExited { mode: mode.into() });
        }
    }
}
