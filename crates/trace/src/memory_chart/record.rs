//! What the memory chart needs of a trace, kept as events are applied.

use super::{Frame, MarkerKind, SpanKind};
use crate::event::{Event, EventKind};
use crate::follow::Fold;
use crate::memory::{MemorySample, MemoryTracker};

/// What one device's ledger reached over a run: its highest total, where,
/// and each category's most bytes at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerPeaks {
    /// The highest total (0 when nothing was held).
    pub total: u64,
    /// The position (events applied) at which it was first reached.
    pub position: usize,
    /// Each category's most bytes at once, in [`Category::ALL`](crate::event::Category::ALL) order.
    pub categories: [u64; 5],
    /// The most bytes reserved at once (GPUs' caching allocators).
    pub reserved: u64,
}

/// What the memory chart needs of a trace, kept as events are applied so
/// a long run's chart costs its samples, not its events, per frame: the
/// samples, the spans in event indices and times, the count and the end.
///
/// ```
/// use gradscope_trace::{Category, Event, EventKind};
/// use gradscope_trace::memory_chart::{Axis, MemoryChart, MemoryRecord};
/// use gradscope_trace::follow::Fold;
/// let alloc = EventKind::StorageAllocated {
///     storage: 1, bytes: 1536, device: "cpu".into(), category: Category::Other,
/// };
/// let mut record = MemoryRecord::default();
/// record.apply(0, &Event { seq: 0, time_us: 5, line: None, kind: alloc });
/// let chart = MemoryChart::of_record(&record, Axis::Events, 100.0, 50.0);
/// assert_eq!(chart.peak.map(|p| p.bytes), Some(1536));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryRecord {
    tracker: MemoryTracker,
    /// One per device, in the order of the tracker's devices.
    pub(super) ledgers: Vec<LedgerRecord>,
    /// Closed spans: kind, depth, start (index, time), end (index, time).
    pub(super) spans: Vec<RecordedSpan>,
    /// Open spans, outermost first, with where they began.
    pub(super) open: Vec<(SpanKind, usize, u64)>,
    /// Grad mode scopes entered inside the open backward, not drawn.
    hidden_modes: usize,
    /// Marked instants: kind, event index and time.
    pub(super) markers: Vec<(MarkerKind, usize, u64)>,
    /// Whether a forward pass was marked and no backward, step or
    /// zero_grad has followed it yet.
    in_forward: bool,
    /// Graph nodes recorded (`NodeCreated`), `AccumulateGrad` included.
    nodes: usize,
    pub(super) events: usize,
    pub(super) end_time_us: u64,
}

/// One device's samples and peaks.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct LedgerRecord {
    /// One per event that changed the ledger (its bytes or its reserve).
    pub(super) samples: Vec<MemorySample>,
    /// Each category's most bytes at once.
    pub(super) peak_bytes: [u64; 5],
    /// The most bytes reserved at once.
    pub(super) reserved_peak: u64,
    /// The index in `samples` of the first sample with the highest total.
    pub(super) peak: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct RecordedSpan {
    pub(super) kind: SpanKind,
    pub(super) depth: usize,
    pub(super) start: (usize, u64),
    pub(super) end: (usize, u64),
}

impl Fold for MemoryRecord {
    fn apply(&mut self, index: usize, event: &Event) {
        self.events += 1;
        self.end_time_us = self.end_time_us.max(event.time_us);
        if matches!(event.kind, EventKind::NodeCreated { .. }) {
            self.nodes += 1;
        }
        if let Some((d, _)) = self.tracker.apply_device(event) {
            let (bytes, reserved) = self.tracker.ledger_at(d);
            if self.ledgers.len() <= d {
                self.ledgers.resize_with(d + 1, LedgerRecord::default);
            }
            let ledger = &mut self.ledgers[d];
            let sample = MemorySample {
                seq: event.seq,
                time_us: event.time_us,
                bytes,
                reserved,
            };
            for (peak, bytes) in ledger.peak_bytes.iter_mut().zip(sample.bytes) {
                *peak = (*peak).max(bytes);
            }
            ledger.reserved_peak = ledger.reserved_peak.max(reserved);
            let best = ledger
                .peak
                .and_then(|p| ledger.samples.get(p))
                .map_or(0, |p| p.total());
            if sample.total() > best {
                ledger.peak = Some(ledger.samples.len());
            }
            ledger.samples.push(sample);
        }
        let at = (index, event.time_us);
        let in_backward = self.open.iter().any(|(k, ..)| *k == SpanKind::Backward);
        let mut close = |open: &mut Vec<(SpanKind, usize, u64)>, kind: fn(&SpanKind) -> bool| {
            if let Some(depth) = open.iter().rposition(|(k, ..)| kind(k)) {
                let (kind, i, t) = open.remove(depth);
                self.spans.push(RecordedSpan {
                    kind,
                    depth,
                    start: (i, t),
                    end: at,
                });
            }
        };
        let mut mark = |kind| self.markers.push((kind, index, event.time_us));
        match &event.kind {
            EventKind::NodeCreated { .. } if !in_backward && !self.in_forward => {
                mark(MarkerKind::Forward);
                self.in_forward = true;
            }
            EventKind::BackwardBegan { .. } if !in_backward => mark(MarkerKind::Backward),
            EventKind::OptimizerStep { .. } => mark(MarkerKind::Step),
            EventKind::ZeroGrad { .. } => mark(MarkerKind::ZeroGrad),
            _ => {}
        }
        if matches!(
            event.kind,
            EventKind::BackwardBegan { .. }
                | EventKind::OptimizerStep { .. }
                | EventKind::ZeroGrad { .. }
        ) {
            self.in_forward = false;
        }
        match &event.kind {
            EventKind::BackwardBegan { .. } => {
                self.open.push((SpanKind::Backward, index, event.time_us))
            }
            EventKind::BackwardEnded => {
                self.hidden_modes = 0;
                close(&mut self.open, |k| *k == SpanKind::Backward);
            }
            EventKind::GradModeEntered { .. } if in_backward => self.hidden_modes += 1,
            EventKind::GradModeExited { .. } if self.hidden_modes > 0 => self.hidden_modes -= 1,
            EventKind::GradModeEntered { mode } => {
                self.open
                    .push((SpanKind::GradMode(mode.clone()), index, event.time_us));
            }
            EventKind::GradModeExited { .. } => {
                close(&mut self.open, |k| matches!(k, SpanKind::GradMode(_)));
            }
            EventKind::RecomputeBegan { .. } => {
                self.open.push((SpanKind::Recompute, index, event.time_us));
            }
            EventKind::RecomputeEnded { .. } => {
                close(&mut self.open, |k| *k == SpanKind::Recompute)
            }
            _ => {}
        }
    }
}

impl MemoryRecord {
    /// The record of `events`, in order.
    pub fn of<'a>(events: impl IntoIterator<Item = &'a Event>) -> Self {
        let mut record = Self::default();
        for (i, event) in events.into_iter().enumerate() {
            record.apply(i, event);
        }
        record
    }

    /// Bytes per category after the last event applied, on all devices.
    pub fn bytes(&self) -> [u64; 5] {
        self.tracker.bytes()
    }

    /// The bytes, reserves and devices after the last event applied.
    pub fn tracker(&self) -> &MemoryTracker {
        &self.tracker
    }

    /// The devices that allocated or reserved memory, first seen first.
    pub fn devices(&self) -> &[String] {
        self.tracker.devices()
    }

    /// The ledger the chart shows unless told: the device the run computed
    /// on ([`MemoryTracker::main_device`]).
    pub fn main_device(&self) -> Option<&str> {
        self.tracker.main_device()
    }

    /// How many events were applied.
    pub fn events(&self) -> usize {
        self.events
    }

    /// How many graph nodes the run recorded (`AccumulateGrad` included).
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// What `device`'s ledger (`cpu`, `webgpu:0`) reached; all zero for a
    /// device the run never used.
    ///
    /// ```
    /// use gradscope_trace::{Category, Event, EventKind};
    /// use gradscope_trace::memory_chart::MemoryRecord;
    /// let ev = |seq, kind| Event { seq, time_us: seq, line: None, kind };
    /// let record = MemoryRecord::of(&[
    ///     ev(0, EventKind::StorageAllocated {
    ///         storage: 1, bytes: 64, device: "cpu".into(), category: Category::SavedForBackward }),
    ///     ev(1, EventKind::StorageFreed { storage: 1 }),
    /// ]);
    /// let peaks = record.peaks("cpu");
    /// assert_eq!((peaks.total, peaks.position, peaks.categories[3]), (64, 1, 64));
    /// assert_eq!(record.peaks("webgpu").total, 0);
    /// ```
    pub fn peaks(&self, device: &str) -> LedgerPeaks {
        let Some(ledger) = self.ledger(device) else {
            return LedgerPeaks::default();
        };
        let peak = ledger.peak.and_then(|p| ledger.samples.get(p));
        LedgerPeaks {
            total: peak.map_or(0, MemorySample::total),
            position: peak.map_or(0, |s| s.seq as usize + 1),
            categories: ledger.peak_bytes,
            reserved: ledger.reserved_peak,
        }
    }

    /// The extent of `device`'s chart: this run's events, time and most
    /// bytes (allocated or reserved) there.
    pub fn frame(&self, device: &str) -> Frame {
        let peaks = self.peaks(device);
        Frame {
            events: self.events,
            end_time_us: self.end_time_us,
            top_bytes: peaks.total.max(peaks.reserved),
        }
    }

    /// The ledger of `device`, if the run used it.
    fn ledger(&self, device: &str) -> Option<&LedgerRecord> {
        let device = crate::memory::ledger_key(device);
        let d = self.devices().iter().position(|d| d == device)?;
        self.ledgers.get(d)
    }
}
