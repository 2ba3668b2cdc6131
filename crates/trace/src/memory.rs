//! The memory timeline: bytes per category after each event, a pure
//! function of the trace, so the page's chart and the CLI's `--memory` agree.

use std::collections::BTreeMap;

use crate::event::{Category, Event, EventKind, StorageId};

/// Live bytes per category after one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemorySample {
    /// The event's sequence number.
    pub seq: u64,
    /// The event's time.
    pub time_us: u64,
    /// Bytes per category, in [`Category::ALL`] order.
    pub bytes: [u64; 5],
}

impl MemorySample {
    /// Bytes in all categories.
    pub fn total(&self) -> u64 {
        self.bytes.iter().sum()
    }
}

/// Live bytes per category as events are applied one by one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryTracker {
    live: BTreeMap<StorageId, (u64, Category)>,
    bytes: [u64; 5],
}

impl MemoryTracker {
    /// Applies one event; `true` when it changed the bytes of some category.
    pub fn apply(&mut self, event: &Event) -> bool {
        let bytes = &mut self.bytes;
        match &event.kind {
            EventKind::StorageAllocated {
                storage,
                bytes: n,
                category,
                ..
            } => {
                self.live.insert(*storage, (*n, *category));
                bytes[*category as usize] += n;
                true
            }
            EventKind::StorageRecategorised { storage, category } => {
                match self.live.get_mut(storage) {
                    Some((n, old)) => {
                        bytes[*old as usize] = bytes[*old as usize].saturating_sub(*n);
                        bytes[*category as usize] += *n;
                        *old = *category;
                        true
                    }
                    None => false,
                }
            }
            EventKind::StorageFreed { storage } => match self.live.remove(storage) {
                Some((n, category)) => {
                    bytes[category as usize] = bytes[category as usize].saturating_sub(n);
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// Bytes per category now, in [`Category::ALL`] order.
    pub fn bytes(&self) -> [u64; 5] {
        self.bytes
    }
}

impl crate::follow::Fold for MemoryTracker {
    fn apply(&mut self, _index: usize, event: &Event) {
        MemoryTracker::apply(self, event);
    }
}

/// Bytes per category after `events`, in [`Category::ALL`] order.
pub fn bytes_after<'a>(events: impl IntoIterator<Item = &'a Event>) -> [u64; 5] {
    let mut tracker = MemoryTracker::default();
    for event in events {
        tracker.apply(event);
    }
    tracker.bytes()
}

/// One sample per event that changed memory, in trace order.
///
/// ```
/// use gradscope_trace::{Category, Event, EventKind};
/// use gradscope_trace::memory::timeline;
/// let alloc = EventKind::StorageAllocated {
///     storage: 1, bytes: 16, device: "cpu".into(), category: Category::Other,
/// };
/// let samples = timeline(&[Event { seq: 0, time_us: 0, line: None, kind: alloc }]);
/// assert_eq!(samples[0].total(), 16);
/// ```
pub fn timeline<'a>(events: impl IntoIterator<Item = &'a Event>) -> Vec<MemorySample> {
    let mut tracker = MemoryTracker::default();
    let mut samples = Vec::new();
    for event in events {
        if tracker.apply(event) {
            samples.push(MemorySample {
                seq: event.seq,
                time_us: event.time_us,
                bytes: tracker.bytes(),
            });
        }
    }
    samples
}
