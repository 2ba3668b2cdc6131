//! The memory ledger: every storage's bytes, counted when allocated and when
//! dropped, so every memory figure is a sum of real allocations.

use std::cell::Cell;

thread_local! {
    static CURRENT: Cell<u64> = const { Cell::new(0) };
    static PEAK: Cell<u64> = const { Cell::new(0) };
}

/// Counts an allocation of `bytes`.
pub(crate) fn allocated(bytes: u64) {
    let now = CURRENT.with(|c| {
        let now = c.get() + bytes;
        c.set(now);
        now
    });
    PEAK.with(|p| p.set(p.get().max(now)));
}

/// Counts a release of `bytes`.
pub(crate) fn freed(bytes: u64) {
    CURRENT.with(|c| c.set(c.get().saturating_sub(bytes)));
}

/// Bytes held by live CPU storages, PyTorch's `torch.cuda.memory_allocated()`
/// for gradscope's CPU device.
pub fn memory_allocated() -> u64 {
    CURRENT.with(Cell::get)
}

/// The most bytes held at once since start or the last
/// [`reset_peak_memory_stats`], PyTorch's `max_memory_allocated()`.
pub fn max_memory_allocated() -> u64 {
    PEAK.with(Cell::get)
}

/// Starts peak tracking again from the current figure.
pub fn reset_peak_memory_stats() {
    PEAK.with(|p| p.set(memory_allocated()));
}
