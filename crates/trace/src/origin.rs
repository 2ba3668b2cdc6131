//! Where memory comes from: each live storage with the program line that
//! allocated it, the learner's calling lines above that one, and the name
//! a statement gave it, so the memory view can list what is alive at a
//! moment, largest first, and the CLI's `--memory` can name each row.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::event::{Category, Event, EventKind, StorageId};
use crate::memory::{MemoryTracker, ledger_key};

/// One live storage and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveTensor {
    /// The allocation.
    pub storage: StorageId,
    /// Its size in bytes.
    pub bytes: u64,
    /// What it counts as now.
    pub category: Category,
    /// The ledger it is on ([`ledger_key`]: `cpu`, `webgpu`).
    pub device: String,
    /// The program line that allocated it (`None`: outside the program,
    /// such as the runtime's own setup).
    pub line: Option<u32>,
    /// The learner's lines that called the allocating one, outermost first.
    pub callers: Arc<[u32]>,
    /// The first name a statement gave a tensor on it (`y`, `fc1.weight`).
    pub name: Option<String>,
    /// The event that allocated it.
    pub allocated_seq: u64,
}

impl LiveTensor {
    /// `main.py:12 ← 30`: the allocating line and its callers, innermost
    /// first, as a stack trace reads.
    pub fn stack_label(&self) -> String {
        let mut out = match self.line {
            Some(line) => format!("line {line}"),
            None => "outside the program".to_string(),
        };
        for caller in self.callers.iter().rev() {
            out.push_str(&format!(" ← {caller}"));
        }
        out
    }
}

/// Live storages as events are applied: a fold the memory view runs up to
/// the moment it shows.
///
/// ```
/// use gradscope_trace::{Category, Event, EventKind};
/// use gradscope_trace::origin::Origins;
/// let mut events = Event::numbered([
///     EventKind::StorageAllocated { storage: 1, bytes: 16, device: "cpu".into(), category: Category::Other },
///     EventKind::TensorNamed { tensor: 5, storage: 1, node: None, name: "x".into(), parameter: None },
/// ]);
/// events[0].line = Some(3);
/// let origins = Origins::of(&events);
/// let live = origins.largest_first();
/// assert_eq!((live[0].line, live[0].name.as_deref()), (Some(3), Some("x")));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    live: BTreeMap<StorageId, LiveTensor>,
    callers: Arc<[u32]>,
}

impl Origins {
    /// The live storages after `events`.
    pub fn of<'a>(events: impl IntoIterator<Item = &'a Event>) -> Self {
        let mut origins = Self::default();
        for event in events {
            origins.apply(event);
        }
        origins
    }

    /// Applies one event.
    pub fn apply(&mut self, event: &Event) {
        match &event.kind {
            EventKind::StorageAllocated {
                storage,
                bytes,
                device,
                category,
            } => {
                self.live.insert(
                    *storage,
                    LiveTensor {
                        storage: *storage,
                        bytes: *bytes,
                        category: *category,
                        device: ledger_key(device).to_string(),
                        line: event.line,
                        callers: self.callers.clone(),
                        name: None,
                        allocated_seq: event.seq,
                    },
                );
            }
            EventKind::StorageRecategorised { storage, category } => {
                if let Some(live) = self.live.get_mut(storage) {
                    live.category = *category;
                }
            }
            EventKind::StorageFreed { storage } => {
                self.live.remove(storage);
            }
            EventKind::TensorNamed {
                storage,
                name,
                parameter,
                ..
            } => {
                if let Some(live) = self.live.get_mut(storage) {
                    live.name
                        .get_or_insert_with(|| parameter.clone().unwrap_or_else(|| name.clone()));
                }
            }
            EventKind::CallersChanged { lines } => self.callers = lines.as_slice().into(),
            _ => {}
        }
    }

    /// The storage `id`, if it is live.
    pub fn get(&self, id: StorageId) -> Option<&LiveTensor> {
        self.live.get(&id)
    }

    /// Every live storage, largest first (ties: oldest allocation first).
    pub fn largest_first(&self) -> Vec<&LiveTensor> {
        let mut live: Vec<&LiveTensor> = self.live.values().collect();
        live.sort_by(|a, b| {
            b.bytes
                .cmp(&a.bytes)
                .then(a.allocated_seq.cmp(&b.allocated_seq))
        });
        live
    }
}

impl crate::follow::Fold for Origins {
    fn apply(&mut self, _index: usize, event: &Event) {
        Origins::apply(self, event);
    }
}

/// For each event that concerns one storage (allocated, recategorised,
/// freed, named), that allocation's line and the first name it was given
/// over its whole life, even when named after this event: what the CLI's
/// `--memory` rows print. Indexed like `events`; `None` for other events.
pub fn storage_rows(events: &[Event]) -> Vec<Option<(Option<u32>, Option<String>)>> {
    // Each allocation's index, and per event the allocation it concerns.
    let mut current: BTreeMap<StorageId, usize> = BTreeMap::new();
    let mut of_event: Vec<Option<usize>> = vec![None; events.len()];
    let mut names: BTreeMap<usize, String> = BTreeMap::new();
    for (i, event) in events.iter().enumerate() {
        let storage = match &event.kind {
            EventKind::StorageAllocated { storage, .. } => {
                current.insert(*storage, i);
                *storage
            }
            EventKind::StorageRecategorised { storage, .. } => *storage,
            EventKind::StorageFreed { storage } => *storage,
            EventKind::TensorNamed {
                storage,
                name,
                parameter,
                ..
            } => {
                if let Some(&alloc) = current.get(storage) {
                    names
                        .entry(alloc)
                        .or_insert_with(|| parameter.clone().unwrap_or_else(|| name.clone()));
                }
                *storage
            }
            _ => continue,
        };
        of_event[i] = current.get(&storage).copied();
        if matches!(event.kind, EventKind::StorageFreed { .. }) {
            current.remove(&storage);
        }
    }
    of_event
        .into_iter()
        .map(|alloc| {
            let alloc = alloc?;
            Some((events[alloc].line, names.get(&alloc).cloned()))
        })
        .collect()
}

/// The memory timeline, one ledger per device as the page draws them:
/// after each event that changed a device's bytes or its reserve, that
/// device's bytes per category, their total, and the bytes its caching
/// allocator reserved (0 on the CPU); then the program line that
/// allocated the storage the event concerns and the name a statement gave
/// it (empty when none), as PyTorch's memory snapshot ties each block to
/// the code that made it.
pub fn memory_csv(events: &[Event]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("seq,time_us,device");
    for category in Category::ALL {
        out.push(',');
        out.push_str(&category.label().replace(' ', "_"));
    }
    out.push_str(",total,reserved,line,name\n");
    let mut tracker = MemoryTracker::default();
    let rows = storage_rows(events);
    for (event, row) in events.iter().zip(rows) {
        let Some((d, _)) = tracker.apply_device(event) else {
            continue;
        };
        let device = &tracker.devices()[d];
        let bytes = tracker.device_bytes(device);
        let _ = write!(out, "{},{},{device}", event.seq, event.time_us);
        for b in bytes {
            let _ = write!(out, ",{b}");
        }
        let total: u64 = bytes.iter().sum();
        let (line, name) = row.unwrap_or_default();
        let line = line.map(|l| l.to_string()).unwrap_or_default();
        let name = csv_field(name.as_deref().unwrap_or_default());
        let _ = writeln!(out, ",{total},{},{line},{name}", tracker.reserved(device));
    }
    out
}

/// A CSV field, quoted when it holds a comma or a quote (`xs[0]` needs
/// none; a tuple item's name might).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, kind: EventKind) -> (Option<u32>, EventKind) {
        (Some(line), kind)
    }

    fn trace(kinds: Vec<(Option<u32>, EventKind)>) -> Vec<Event> {
        let (lines, kinds): (Vec<_>, Vec<_>) = kinds.into_iter().unzip();
        let mut events = Event::numbered(kinds);
        for (event, line) in events.iter_mut().zip(lines) {
            event.line = line;
        }
        events
    }

    fn alloc(storage: StorageId, bytes: u64) -> EventKind {
        EventKind::StorageAllocated {
            storage,
            bytes,
            device: "cpu".into(),
            category: Category::Other,
        }
    }

    fn named(storage: StorageId, name: &str) -> EventKind {
        EventKind::TensorNamed {
            tensor: storage + 100,
            storage,
            node: None,
            name: name.into(),
            parameter: None,
        }
    }

    #[test]
    fn origin_live_largest_first_with_line_callers_and_name() {
        let events = trace(vec![
            at(1, alloc(1, 16)),
            at(2, named(1, "x")),
            at(
                30,
                EventKind::CallersChanged {
                    lines: vec![30, 12],
                },
            ),
            at(5, alloc(2, 64)),
            at(5, alloc(3, 64)),
            at(31, EventKind::CallersChanged { lines: vec![] }),
            at(31, named(3, "h")),
            at(31, named(3, "later")),
            at(
                32,
                EventKind::StorageRecategorised {
                    storage: 1,
                    category: Category::SavedForBackward,
                },
            ),
            at(33, EventKind::StorageFreed { storage: 2 }),
        ]);
        let origins = Origins::of(&events);
        let live = origins.largest_first();
        let rows: Vec<_> = live
            .iter()
            .map(|t| (t.storage, t.bytes, t.line, t.name.as_deref(), t.category))
            .collect();
        assert_eq!(
            rows,
            [
                (3, 64, Some(5), Some("h"), Category::Other),
                (1, 16, Some(1), Some("x"), Category::SavedForBackward),
            ]
        );
        assert_eq!(&*live[0].callers, &[30, 12]);
        assert_eq!(live[0].stack_label(), "line 5 ← 12 ← 30");
        assert!(live[1].callers.is_empty());
    }

    #[test]
    fn origin_parameter_named_as_named_parameters() {
        let events = trace(vec![
            at(1, alloc(1, 16)),
            at(
                2,
                EventKind::TensorNamed {
                    tensor: 9,
                    storage: 1,
                    node: None,
                    name: "model.fc1.weight".into(),
                    parameter: Some("fc1.weight".into()),
                },
            ),
        ]);
        let origins = Origins::of(&events);
        assert_eq!(
            origins.get(1).and_then(|t| t.name.as_deref()),
            Some("fc1.weight")
        );
    }

    #[test]
    fn origin_rows_name_each_allocation_over_its_life() {
        // Storage 1 is allocated, named, freed, and its id reused unnamed.
        let events = trace(vec![
            at(4, alloc(1, 16)),
            at(5, named(1, "y")),
            at(6, EventKind::StorageFreed { storage: 1 }),
            at(7, alloc(1, 8)),
            (None, EventKind::BackwardEnded),
        ]);
        let rows = storage_rows(&events);
        assert_eq!(
            rows,
            [
                Some((Some(4), Some("y".into()))),
                Some((Some(4), Some("y".into()))),
                Some((Some(4), Some("y".into()))),
                Some((Some(7), None)),
                None,
            ]
        );
    }
}
