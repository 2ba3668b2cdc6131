//! The recorded trace as the page keeps it: batches appended as they arrive,
//! shared rather than copied, so a state holding it is cheap to clone.

use std::sync::Arc;

use crate::event::Event;

/// An append-only list of events stored as the batches they arrived in.
///
/// Cloning copies one pointer per batch, never the events, so a reducer can
/// return a new state per animation frame without copying the trace. A
/// batch keeps the vector it arrived in (an `Arc<[Event]>` would copy every
/// event once more as the page takes each batch in).
///
/// ```
/// use gradscope_trace::{Event, EventKind, EventLog};
/// let event = |seq| Event { seq, time_us: 0, line: None, kind: EventKind::BackwardEnded };
/// let mut log = EventLog::default();
/// log.push(vec![event(0), event(1)]);
/// log.push(vec![event(2)]);
/// assert_eq!(log.len(), 3);
/// assert_eq!(log.get(2).map(|e| e.seq), Some(2));
/// assert_eq!(log.iter().take(2).count(), 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    batches: Vec<Arc<Vec<Event>>>,
    /// `starts[b]` is the index of the first event of `batches[b]`.
    starts: Vec<usize>,
    len: usize,
}

impl EventLog {
    /// Appends one batch; an empty batch is ignored.
    pub fn push(&mut self, batch: Vec<Event>) {
        if batch.is_empty() {
            return;
        }
        self.starts.push(self.len);
        self.len += batch.len();
        self.batches.push(Arc::new(batch));
    }

    /// How many events have been recorded.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no event has been recorded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The event at index `i`, in trace order.
    pub fn get(&self, i: usize) -> Option<&Event> {
        if i >= self.len {
            return None;
        }
        let batch = self.starts.partition_point(|&start| start <= i) - 1;
        self.batches.get(batch)?.get(i - self.starts[batch])
    }

    /// Every event, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Event> + Clone {
        self.batches.iter().flat_map(|b| b.iter())
    }

    /// The batches as they arrived (how the graph view applies a live run).
    pub fn batches(&self) -> impl Iterator<Item = &[Event]> {
        self.batches.iter().map(|b| &b[..])
    }

    /// The batches themselves, each shared with every clone of the log: for
    /// a page that frees a long trace a batch at a time, not all at once.
    pub fn into_batches(self) -> Vec<Arc<Vec<Event>>> {
        self.batches
    }

    /// The events from index `start` on, in order, found without walking
    /// the batches before it.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = &Event> {
        let batch = self
            .starts
            .partition_point(|&s| s <= start)
            .saturating_sub(1);
        let skip = start.saturating_sub(self.starts.get(batch).copied().unwrap_or(0));
        self.batches
            .get(batch..)
            .unwrap_or_default()
            .iter()
            .flat_map(|b| b.iter())
            .skip(skip)
    }

    /// Whether this log is `earlier` with zero or more batches appended
    /// (the same run, recorded further): what lets a view carry on from
    /// where it stopped instead of starting over. O(1): batches are shared,
    /// so the last batch `earlier` holds is compared by pointer.
    pub fn extends(&self, earlier: &EventLog) -> bool {
        let Some(last) = earlier.batches.len().checked_sub(1) else {
            return true;
        };
        self.len >= earlier.len
            && self.starts.get(last) == earlier.starts.get(last)
            && match (self.batches.get(last), earlier.batches.get(last)) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

/// Events by index, whether in one slice or in batches: what stepping reads.
pub trait EventList {
    /// How many events there are.
    fn count(&self) -> usize;
    /// The event at index `i`.
    fn event(&self, i: usize) -> Option<&Event>;
}

impl EventList for [Event] {
    fn count(&self) -> usize {
        self.len()
    }
    fn event(&self, i: usize) -> Option<&Event> {
        self.get(i)
    }
}

impl EventList for EventLog {
    fn count(&self) -> usize {
        self.len
    }
    fn event(&self, i: usize) -> Option<&Event> {
        self.get(i)
    }
}

/// Two logs are equal when they hold the same events; shared batches
/// compare by pointer, so comparing a state with its successor is cheap.
impl PartialEq for EventLog {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && self.starts == other.starts
            && self
                .batches
                .iter()
                .zip(&other.batches)
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::EventKind;

    fn events(range: std::ops::Range<u64>) -> Vec<Event> {
        range
            .map(|seq| Event {
                seq,
                time_us: seq * 10,
                line: None,
                kind: EventKind::BackwardEnded,
            })
            .collect()
    }

    #[test]
    fn log_get_across_batches() {
        let mut log = EventLog::default();
        log.push(events(0..3));
        log.push(vec![]);
        log.push(events(3..4));
        log.push(events(4..9));
        assert_eq!(log.len(), 9);
        for i in 0..9 {
            assert_eq!(log.get(i).map(|e| e.seq), Some(i as u64));
        }
        assert!(log.get(9).is_none());
        let seqs: Vec<u64> = log.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (0..9).collect::<Vec<_>>());
    }

    #[test]
    fn log_clone_shares_batches() {
        let mut log = EventLog::default();
        log.push(events(0..1000));
        let mut next = log.clone();
        assert_eq!(log, next);
        next.push(events(1000..1001));
        assert_ne!(log, next);
        assert_eq!(log.len(), 1000);
    }

    #[test]
    fn log_iter_from_any_index() {
        let mut log = EventLog::default();
        log.push(events(0..3));
        log.push(events(3..4));
        log.push(events(4..9));
        for start in 0..=10 {
            let seqs: Vec<u64> = log.iter_from(start).map(|e| e.seq).collect();
            assert_eq!(seqs, (start as u64..9).collect::<Vec<_>>(), "from {start}");
        }
    }

    #[test]
    fn log_extends_only_its_own_run() {
        let mut log = EventLog::default();
        assert!(log.extends(&EventLog::default()));
        log.push(events(0..3));
        let earlier = log.clone();
        log.push(events(3..5));
        assert!(log.extends(&earlier) && log.extends(&log.clone()));
        assert!(!earlier.extends(&log));
        // Another run with events equal in value is still another run.
        let mut other = EventLog::default();
        other.push(events(0..3));
        other.push(events(3..5));
        assert!(!other.extends(&earlier));
        assert!(other.extends(&EventLog::default()));
    }

    #[test]
    fn log_empty() {
        let log = EventLog::default();
        assert!(log.is_empty());
        assert!(log.get(0).is_none());
        assert_eq!(log.iter().count(), 0);
    }
}
