//! Grad modes: whether ops record a graph, as scoped guards over
//! thread-local state (PyTorch's `torch.no_grad`, `torch.enable_grad`).

use std::cell::Cell;

use gradscope_trace::EventKind;

use crate::trace;

thread_local! {
    static GRAD_ENABLED: Cell<bool> = const { Cell::new(true) };
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
    name: &'static str,
}

impl GradModeGuard {
    /// Enters `torch.set_grad_enabled(enabled)`.
    pub fn set(enabled: bool) -> Self {
        let name = if enabled { "enable_grad" } else { "no_grad" };
        trace::emit(|| EventKind::GradModeEntered { mode: name.into() });
        let previous = GRAD_ENABLED.with(|g| g.replace(enabled));
        Self { previous, name }
    }

    /// Enters `torch.no_grad()`.
    pub fn no_grad() -> Self {
        Self::set(false)
    }
}

impl Drop for GradModeGuard {
    fn drop(&mut self) {
        GRAD_ENABLED.with(|g| g.set(self.previous));
        let mode = self.name;
        trace::emit(|| EventKind::GradModeExited { mode: mode.into() });
    }
}
