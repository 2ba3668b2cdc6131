//! The caching allocator: buffers freed by tensors go back to a free list of
//! their size class instead of to the device, so a training loop that
//! allocates the same shapes every step stops asking the device for memory
//! after its first step (PyTorch's CUDA caching allocator, simplified).
//!
//! `reserved` is every byte held from the device (live and cached);
//! `allocated` is the bytes of live buffers' size classes.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Smallest class: requests below it share one class, so tiny scalars do not
/// each keep a distinct cached block.
const MIN_CLASS: u64 = 256;

/// Up to this size classes are powers of two; past it, sixteen classes per
/// doubling keep the rounding waste under 1/16.
const POWER_OF_TWO_LIMIT: u64 = 1 << 20;

/// The bytes a request of `bytes` is served with, never below `bytes`.
pub(crate) fn size_class(bytes: u64) -> u64 {
    if bytes <= MIN_CLASS {
        return MIN_CLASS;
    }
    let power = bytes.checked_next_power_of_two().unwrap_or(u64::MAX);
    if power <= POWER_OF_TWO_LIMIT {
        return power;
    }
    let step = power / 32;
    bytes.div_ceil(step).saturating_mul(step)
}

/// The free lists and the counters of one device.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    state: Mutex<PoolState>,
}

#[derive(Debug, Default)]
struct PoolState {
    /// Cached buffers by size in bytes.
    free: BTreeMap<u64, Vec<wgpu::Buffer>>,
    reserved: u64,
    allocated: u64,
    /// Requests served from the cache rather than the device.
    hits: u64,
    /// Requests that created a device buffer.
    misses: u64,
}

/// What [`crate::GpuDevice::memory_stats`] reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// Bytes held from the device: live buffers and the cache.
    pub reserved_bytes: u64,
    /// Bytes of live buffers (their size classes).
    pub allocated_bytes: u64,
    /// Allocations served from the cache.
    pub cache_hits: u64,
    /// Allocations that created a device buffer.
    pub cache_misses: u64,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        // The counters and lists stay consistent across a panic elsewhere.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A cached buffer of exactly `class` bytes, counted as allocated.
    pub(crate) fn take(&self, class: u64) -> Option<wgpu::Buffer> {
        let mut state = self.lock();
        let buffer = state.free.get_mut(&class).and_then(Vec::pop);
        if buffer.is_some() {
            state.hits += 1;
            state.allocated += class;
        }
        buffer
    }

    /// Counts a buffer of `class` bytes just created on the device.
    pub(crate) fn created(&self, class: u64) {
        let mut state = self.lock();
        state.misses += 1;
        state.reserved += class;
        state.allocated += class;
    }

    /// Takes back a live buffer into the cache.
    pub(crate) fn release(&self, buffer: wgpu::Buffer) {
        let class = buffer.size();
        let mut state = self.lock();
        state.allocated = state.allocated.saturating_sub(class);
        state.free.entry(class).or_default().push(buffer);
    }

    /// Drops every cached buffer (the device frees each once no queued work
    /// uses it) and returns how many bytes that gave back.
    pub(crate) fn empty(&self) -> u64 {
        let mut state = self.lock();
        let freed: u64 = state
            .free
            .iter()
            .map(|(&class, buffers)| class * buffers.len() as u64)
            .sum();
        state.free.clear();
        state.reserved = state.reserved.saturating_sub(freed);
        freed
    }

    pub(crate) fn stats(&self) -> MemoryStats {
        let state = self.lock();
        MemoryStats {
            reserved_bytes: state.reserved,
            allocated_bytes: state.allocated,
            cache_hits: state.hits,
            cache_misses: state.misses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_cover_the_request() {
        for bytes in [
            0,
            1,
            4,
            256,
            257,
            1000,
            4096,
            1 << 20,
            (1 << 20) + 4,
            3 << 21,
            12345678,
        ] {
            let class = size_class(bytes);
            assert!(class >= bytes, "{bytes} -> {class}");
            assert!(class >= MIN_CLASS);
            // Waste stays below half for powers of two and below 1/16 beyond.
            if bytes > POWER_OF_TWO_LIMIT {
                assert!(class - bytes < bytes / 16, "{bytes} -> {class}");
            }
        }
        assert_eq!(size_class(257), 512);
        assert_eq!(size_class((1 << 20) + 4), (1 << 20) + (1 << 16));
    }
}
