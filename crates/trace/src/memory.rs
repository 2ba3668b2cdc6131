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
    /// Bytes the device's caching allocator holds (PyTorch's
    /// `memory_reserved`); 0 on the CPU and before a GPU reports it.
    pub reserved: u64,
}

impl MemorySample {
    /// Bytes in all categories.
    pub fn total(&self) -> u64 {
        self.bytes.iter().sum()
    }
}

/// The ledger a device's bytes go to: its type (`cpu`, `webgpu`). The
/// engine names an allocation's device by type and a reserve's with its
/// index (`webgpu:0`); there is one GPU, and both are its ledger's.
pub fn ledger_key(device: &str) -> &str {
    device.split(':').next().unwrap_or(device)
}

/// Live bytes per category as events are applied one by one, in all and
/// per device (a ledger each: the CPU's, a GPU's, keyed by
/// [`ledger_key`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryTracker {
    /// Each live storage's bytes, category and ledger (index in `devices`).
    live: BTreeMap<StorageId, (u64, Category, usize)>,
    bytes: [u64; 5],
    /// Devices in the order they first appeared.
    devices: Vec<String>,
    /// Per device: bytes per category, bytes reserved, most bytes ever
    /// allocated there at once, bytes ever allocated there.
    ledgers: Vec<Ledger>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Ledger {
    bytes: [u64; 5],
    reserved: u64,
    peak: u64,
    allocated: u64,
}

impl MemoryTracker {
    /// Applies one event; `true` when it changed the bytes of some category.
    pub fn apply(&mut self, event: &Event) -> bool {
        matches!(self.apply_device(event), Some((_, true)))
    }

    /// Applies one event; the index (in [`MemoryTracker::devices`]) of the
    /// ledger it changed, with `true` when it changed allocated bytes and
    /// `false` when only the device's reserve changed.
    pub fn apply_device(&mut self, event: &Event) -> Option<(usize, bool)> {
        match &event.kind {
            EventKind::StorageAllocated {
                storage,
                bytes: n,
                device,
                category,
            } => {
                let d = self.device_index(device);
                // A reused id: its old bytes go first.
                if let Some((old, cat, od)) = self.live.insert(*storage, (*n, *category, d)) {
                    self.sub(od, cat, old);
                }
                self.bytes[*category as usize] += n;
                let ledger = &mut self.ledgers[d];
                ledger.bytes[*category as usize] += n;
                ledger.allocated += n;
                ledger.peak = ledger.peak.max(ledger.bytes.iter().sum());
                Some((d, true))
            }
            EventKind::StorageRecategorised { storage, category } => {
                let (n, old, d) = *self.live.get(storage)?;
                self.sub(d, old, n);
                self.bytes[*category as usize] += n;
                self.ledgers[d].bytes[*category as usize] += n;
                if let Some(entry) = self.live.get_mut(storage) {
                    entry.1 = *category;
                }
                Some((d, true))
            }
            EventKind::StorageFreed { storage } => {
                let (n, category, d) = self.live.remove(storage)?;
                self.sub(d, category, n);
                Some((d, true))
            }
            EventKind::DeviceReserved { device, bytes } => {
                let d = self.device_index(device);
                let ledger = &mut self.ledgers[d];
                (ledger.reserved != *bytes).then(|| {
                    ledger.reserved = *bytes;
                    (d, false)
                })
            }
            _ => None,
        }
    }

    fn sub(&mut self, d: usize, category: Category, n: u64) {
        let k = category as usize;
        self.bytes[k] = self.bytes[k].saturating_sub(n);
        let ledger = &mut self.ledgers[d].bytes[k];
        *ledger = ledger.saturating_sub(n);
    }

    fn device_index(&mut self, device: &str) -> usize {
        let device = ledger_key(device);
        match self.devices.iter().position(|d| d == device) {
            Some(i) => i,
            None => {
                self.devices.push(device.to_string());
                self.ledgers.push(Ledger::default());
                self.devices.len() - 1
            }
        }
    }

    /// Bytes per category now, on all devices, in [`Category::ALL`] order.
    pub fn bytes(&self) -> [u64; 5] {
        self.bytes
    }

    /// The ledgers' devices ([`ledger_key`]: `cpu`, `webgpu`), in the order
    /// they first allocated or reserved memory.
    pub fn devices(&self) -> &[String] {
        &self.devices
    }

    /// Bytes per category now on `device` (zeros for one never seen).
    pub fn device_bytes(&self, device: &str) -> [u64; 5] {
        self.ledger(device).map_or([0; 5], |l| l.bytes)
    }

    /// Bytes `device`'s caching allocator holds now (0 for the CPU).
    pub fn reserved(&self, device: &str) -> u64 {
        self.ledger(device).map_or(0, |l| l.reserved)
    }

    /// Ledger `d`'s bytes per category and reserve now.
    pub(crate) fn ledger_at(&self, d: usize) -> ([u64; 5], u64) {
        self.ledgers
            .get(d)
            .map_or(([0; 5], 0), |l| (l.bytes, l.reserved))
    }

    fn ledger(&self, device: &str) -> Option<&Ledger> {
        let device = ledger_key(device);
        let i = self.devices.iter().position(|d| d == device)?;
        self.ledgers.get(i)
    }

    /// The device the run computed on, whose ledger the memory view shows
    /// unless told: the first GPU that allocated, or else the CPU. A run
    /// on the GPU (the device menu's choice) makes its parameters on the
    /// CPU and moves them, so for its first events the CPU holds as much;
    /// choosing by bytes would show the CPU's ledger there, then jump.
    pub fn main_device(&self) -> Option<&str> {
        self.devices
            .iter()
            .find(|d| d.as_str() != "cpu")
            .or_else(|| self.devices.first())
            .map(String::as_str)
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

/// One sample per event that changed memory, in trace order (all devices
/// summed, their reserves too).
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
        if tracker.apply_device(event).is_some() {
            samples.push(MemorySample {
                seq: event.seq,
                time_us: event.time_us,
                bytes: tracker.bytes(),
                reserved: tracker.ledgers.iter().map(|l| l.reserved).sum(),
            });
        }
    }
    samples
}

/// One sample per event that changed `device`'s ledger (its allocated
/// bytes or its reserve), in trace order: the CPU's timeline or a GPU's.
///
/// ```
/// use gradscope_trace::{Category, Event, EventKind};
/// use gradscope_trace::memory::device_timeline;
/// let ev = |seq, kind| Event { seq, time_us: seq, line: None, kind };
/// let trace = [
///     ev(0, EventKind::StorageAllocated {
///         storage: 1, bytes: 16, device: "cpu".into(), category: Category::Other }),
///     ev(1, EventKind::StorageAllocated {
///         storage: 2, bytes: 64, device: "webgpu".into(), category: Category::Other }),
///     ev(2, EventKind::DeviceReserved { device: "webgpu:0".into(), bytes: 256 }),
/// ];
/// let gpu = device_timeline(&trace, "webgpu:0");
/// assert_eq!(gpu.iter().map(|s| (s.total(), s.reserved)).collect::<Vec<_>>(), [(64, 0), (64, 256)]);
/// assert_eq!(device_timeline(&trace, "cpu")[0].total(), 16);
/// ```
pub fn device_timeline<'a>(
    events: impl IntoIterator<Item = &'a Event>,
    device: &str,
) -> Vec<MemorySample> {
    let mut tracker = MemoryTracker::default();
    let mut samples = Vec::new();
    for event in events {
        if let Some((d, _)) = tracker.apply_device(event)
            && tracker.devices[d] == ledger_key(device)
        {
            let ledger = &tracker.ledgers[d];
            samples.push(MemorySample {
                seq: event.seq,
                time_us: event.time_us,
                bytes: ledger.bytes,
                reserved: ledger.reserved,
            });
        }
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(seq: u64, kind: EventKind) -> Event {
        Event {
            seq,
            time_us: seq,
            line: None,
            kind,
        }
    }

    fn alloc(storage: StorageId, bytes: u64, device: &str) -> EventKind {
        EventKind::StorageAllocated {
            storage,
            bytes,
            device: device.to_owned().into(),
            category: Category::Other,
        }
    }

    /// Parameters made on the CPU and moved to the GPU, trained there.
    fn gpu_run() -> Vec<Event> {
        let kinds = vec![
            alloc(1, 32, "cpu"),
            alloc(2, 32, "webgpu"),
            EventKind::StorageRecategorised {
                storage: 2,
                category: Category::Parameter,
            },
            EventKind::StorageFreed { storage: 1 },
            EventKind::DeviceReserved {
                device: "webgpu:0".into(),
                bytes: 1024,
            },
            alloc(3, 400, "webgpu"),
            EventKind::DeviceReserved {
                device: "webgpu:0".into(),
                bytes: 1024,
            },
            alloc(4, 8, "cpu"),
            EventKind::StorageFreed { storage: 3 },
            EventKind::DeviceReserved {
                device: "webgpu:0".into(),
                bytes: 512,
            },
        ];
        kinds
            .into_iter()
            .enumerate()
            .map(|(i, k)| ev(i as u64, k))
            .collect()
    }

    #[test]
    fn ledgers_keep_each_devices_bytes() {
        let t = gpu_run();
        let cpu: Vec<(u64, u64)> = device_timeline(&t, "cpu")
            .iter()
            .map(|s| (s.seq, s.total()))
            .collect();
        assert_eq!(cpu, [(0, 32), (3, 0), (7, 8)]);
        let gpu: Vec<(u64, [u64; 5], u64)> = device_timeline(&t, "webgpu:0")
            .iter()
            .map(|s| (s.seq, s.bytes, s.reserved))
            .collect();
        // An unchanged reserve (seq 6) is no sample.
        assert_eq!(
            gpu,
            [
                (1, [0, 0, 0, 0, 32], 0),
                (2, [32, 0, 0, 0, 0], 0),
                (4, [32, 0, 0, 0, 0], 1024),
                (5, [32, 0, 0, 0, 400], 1024),
                (8, [32, 0, 0, 0, 0], 1024),
                (9, [32, 0, 0, 0, 0], 512),
            ]
        );
        // The allocations name the type, the reserve the index: one ledger.
        assert_eq!(
            device_timeline(&t, "webgpu"),
            device_timeline(&t, "webgpu:0")
        );
        assert!(device_timeline(&t, "cuda").is_empty());
        // All devices summed, as before ledgers.
        let all: Vec<u64> = timeline(&t).iter().map(|s| s.total()).collect();
        assert_eq!(all, [32, 64, 64, 32, 32, 432, 440, 40, 40]);
        let mut tracker = MemoryTracker::default();
        for e in &t {
            tracker.apply(e);
        }
        assert_eq!(tracker.devices(), ["cpu", "webgpu"]);
        assert_eq!(tracker.device_bytes("cpu"), [0, 0, 0, 0, 8]);
        assert_eq!(tracker.device_bytes("webgpu:0"), [32, 0, 0, 0, 0]);
        assert_eq!(tracker.reserved("webgpu:0"), 512);
        assert_eq!(tracker.reserved("cpu"), 0);
        assert_eq!(tracker.bytes(), [32, 0, 0, 0, 8]);
    }

    #[test]
    fn main_device_is_the_gpu_from_its_first_allocation() {
        let t = gpu_run();
        let mut tracker = MemoryTracker::default();
        tracker.apply(&t[0]);
        // Only the CPU so far.
        assert_eq!(tracker.main_device(), Some("cpu"));
        // From the GPU's first allocation on, whoever holds more.
        for e in &t[1..] {
            tracker.apply(e);
            assert_eq!(tracker.main_device(), Some("webgpu"), "after {e:?}");
        }
        assert_eq!(MemoryTracker::default().main_device(), None);
    }
}
