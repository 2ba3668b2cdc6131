//! The memory ledger: every storage's bytes, counted when allocated and when
//! dropped, by category, so every memory figure is a sum of real allocations.
//!
//! A storage's category is its highest current role ([`Category`] order):
//! roles start and end as tensors are saved for backward, released, set as
//! `.grad`, marked as parameters or optimizer state. An optional budget
//! turns an allocation past it into PyTorch's out-of-memory error.

use std::cell::RefCell;
use std::fmt::Write;

use crate::device::Device;

pub use gradscope_trace::Category;

/// Current and peak bytes, per category and in total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// Live bytes per category, in [`Category::ALL`] order.
    pub current: [u64; 5],
    /// The most bytes each category held at once since the last reset.
    pub peak: [u64; 5],
    /// Live bytes in all.
    pub total: u64,
    /// The most bytes held at once since the last reset.
    pub total_peak: u64,
    /// Allocations made since start.
    pub allocations: u64,
}

impl MemoryStats {
    /// Live bytes in `category`.
    pub fn current(&self, category: Category) -> u64 {
        self.current[category as usize]
    }

    /// Peak bytes in `category`.
    pub fn peak(&self, category: Category) -> u64 {
        self.peak[category as usize]
    }
}

#[derive(Debug, Default)]
struct Ledger {
    stats: MemoryStats,
    budget: Option<u64>,
    /// An allocation refused since the last [`check_out_of_memory`].
    refused: Option<crate::Error>,
}

thread_local! {
    /// One ledger per device, in [`Device::ALL`] order.
    static LEDGERS: RefCell<[Ledger; 2]> = RefCell::new(Default::default());
}

fn with_on<T>(device: Device, f: impl FnOnce(&mut Ledger) -> T) -> T {
    LEDGERS.with(|l| f(&mut l.borrow_mut()[device as usize]))
}

/// As [`with_on`], for releases: a storage dropped while the thread's
/// locals are torn down (held by another thread-local) has no ledger left
/// to update, and must not panic.
fn release_on(device: Device, f: impl FnOnce(&mut Ledger)) {
    let _ = LEDGERS.try_with(|l| f(&mut l.borrow_mut()[device as usize]));
}

/// The CPU's ledger: the figures `torch.cpu` and the memory view report
/// when no GPU is in use.
fn with<T>(f: impl FnOnce(&mut Ledger) -> T) -> T {
    with_on(Device::Cpu, f)
}

/// Counts an allocation and returns `true`, or refuses it (`false`) when it
/// would pass the budget. A refused allocation is never counted; the op that
/// made it fails at [`check_out_of_memory`], so buffers need no fallible
/// constructor on every path.
pub(crate) fn allocate_on(device: Device, bytes: u64) -> bool {
    with_on(device, |l| {
        let after = l.stats.total + bytes;
        if let Some(budget) = l.budget
            && after > budget
        {
            let refused = crate::Error::OutOfMemory {
                requested: bytes,
                allocated: l.stats.total,
                budget,
            };
            l.refused.get_or_insert(refused);
            return false;
        }
        l.stats.allocations += 1;
        l.stats.total = after;
        l.stats.total_peak = l.stats.total_peak.max(after);
        add(&mut l.stats, Category::Other, bytes);
        true
    })
}

/// Refuses a new buffer of `shape` and `dtype` before it is allocated: its
/// size overflowing (PyTorch's "Storage size calculation overflowed"), or
/// passing the budget (`torch.OutOfMemoryError`). `allocate` counts after
/// the host allocation, and a request of terabytes aborts the process there.
pub fn check_new_buffer(shape: &[usize], dtype: crate::DType) -> Result<(), crate::Error> {
    let overflowed = || crate::Error::StorageSizeOverflow {
        sizes: shape
            .iter()
            .map(|&d| i64::try_from(d).unwrap_or(i64::MAX))
            .collect(),
    };
    let numel = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(overflowed)?;
    let bytes = numel
        .checked_mul(dtype.size())
        .filter(|&b| isize::try_from(b).is_ok())
        .ok_or_else(overflowed)? as u64;
    with_on(crate::device::current(), |l| match l.budget {
        Some(budget) if l.stats.total.saturating_add(bytes) > budget => {
            Err(crate::Error::OutOfMemory {
                requested: bytes,
                allocated: l.stats.total,
                budget,
            })
        }
        _ => Ok(()),
    })?;
    // A size-0 tensor passes the checks above whatever its other sizes.
    let strides_fit = shape
        .iter()
        .skip(1)
        .try_fold(1i64, |n, &d| n.checked_mul(i64::try_from(d.max(1)).ok()?))
        .is_some();
    if strides_fit {
        Ok(())
    } else {
        Err(crate::Error::StrideOverflow)
    }
}

/// The out-of-memory error of an allocation refused since the last call.
pub fn check_out_of_memory() -> Result<(), crate::Error> {
    let refused = LEDGERS.with(|l| l.borrow_mut().iter_mut().find_map(|l| l.refused.take()));
    refused.map_or(Ok(()), Err)
}

fn add(stats: &mut MemoryStats, category: Category, bytes: u64) {
    let i = category as usize;
    stats.current[i] += bytes;
    stats.peak[i] = stats.peak[i].max(stats.current[i]);
}

/// Counts a release of `bytes` held under `category`.
pub(crate) fn free_on(device: Device, bytes: u64, category: Category) {
    release_on(device, |l| {
        l.stats.total = l.stats.total.saturating_sub(bytes);
        let i = category as usize;
        l.stats.current[i] = l.stats.current[i].saturating_sub(bytes);
    });
}

/// Moves `bytes` from one category to another.
pub(crate) fn recategorise_on(device: Device, bytes: u64, from: Category, to: Category) {
    if from != to {
        release_on(device, |l| {
            let i = from as usize;
            l.stats.current[i] = l.stats.current[i].saturating_sub(bytes);
            add(&mut l.stats, to, bytes);
        });
    }
}

/// The CPU ledger's figures now.
pub fn stats() -> MemoryStats {
    stats_on(Device::Cpu)
}

/// The figures of `device`'s ledger now.
pub fn stats_on(device: Device) -> MemoryStats {
    with_on(device, |l| l.stats.clone())
}

/// Starts peak tracking of `device`'s ledger again from its current figures.
pub fn reset_peak_memory_stats_on(device: Device) {
    with_on(device, |l| {
        l.stats.total_peak = l.stats.total;
        l.stats.peak = l.stats.current;
    });
}

/// Bytes held by live storages, PyTorch's `torch.cuda.memory_allocated()`
/// for gradscope's device.
pub fn memory_allocated() -> u64 {
    with(|l| l.stats.total)
}

/// The most bytes held at once since start or the last
/// [`reset_peak_memory_stats`], PyTorch's `max_memory_allocated()`.
pub fn max_memory_allocated() -> u64 {
    with(|l| l.stats.total_peak)
}

/// Bytes that graph nodes keep for backward right now.
pub fn saved_for_backward_bytes() -> u64 {
    with(|l| l.stats.current(Category::SavedForBackward))
}

/// Starts peak tracking again from the current figures, PyTorch's
/// `reset_peak_memory_stats()`.
pub fn reset_peak_memory_stats() {
    with(|l| {
        l.stats.total_peak = l.stats.total;
        l.stats.peak = l.stats.current;
    });
}

/// Sets (or with `None` removes) the budget past which allocations fail.
pub fn set_memory_budget(bytes: Option<u64>) {
    LEDGERS.with(|l| l.borrow_mut().iter_mut().for_each(|l| l.budget = bytes));
}

/// A table of current and peak bytes per category, in the spirit of
/// PyTorch's `torch.cuda.memory_summary()`.
pub fn memory_summary() -> String {
    memory_summary_on(Device::Cpu)
}

/// [`memory_summary`] for `device`'s ledger.
pub fn memory_summary_on(device: Device) -> String {
    let s = stats_on(device);
    let mut out = String::new();
    let rule = "-".repeat(58);
    let _ = writeln!(
        out,
        "{rule}\n{:<24}{:>17}{:>17}\n{rule}",
        "category", "current", "peak"
    );
    for c in Category::ALL {
        let _ = writeln!(
            out,
            "{:<24}{:>17}{:>17}",
            c.label(),
            human(s.current(c)),
            human(s.peak(c))
        );
    }
    let _ = writeln!(
        out,
        "{rule}\n{:<24}{:>17}{:>17}",
        "total",
        human(s.total),
        human(s.total_peak)
    );
    let _ = write!(out, "{rule}");
    out
}

/// Bytes in PyTorch's memory-summary style (`1.50 KiB`).
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}
