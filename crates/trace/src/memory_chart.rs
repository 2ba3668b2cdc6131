//! The memory chart: bytes per category stacked over the trace, with the
//! peak and the phases (backward, grad modes, recomputation) marked, placed
//! in a plot box, so the page only writes the SVG.

use crate::event::{Category, Event, EventKind};
use crate::follow::Fold;
use crate::log::EventList;
use crate::memory::{MemorySample, MemoryTracker};
use crate::memory_zoom::Zoom;
use crate::svg::StepPath;

/// What the horizontal axis counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Axis {
    /// Events applied: every event gets the same width (stepping's view).
    #[default]
    Events,
    /// Wall-clock time since the trace began.
    Time,
}

/// One category's band of the stacked area.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// The category.
    pub category: Category,
    /// An SVG path (`d`) of the band, empty when the category never held bytes.
    pub path: String,
    /// The most bytes the category held at once.
    pub peak_bytes: u64,
}

/// Where the total was highest (the first time it got there).
#[derive(Clone, Debug, PartialEq)]
pub struct Peak {
    /// Horizontal position of the step that reached it.
    pub x: f64,
    /// Top of the stack there.
    pub y: f64,
    /// Total bytes.
    pub bytes: u64,
    /// The position (events applied) at which it was reached.
    pub position: usize,
}

/// What a marked stretch of the trace was doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpanKind {
    /// `backward()` from begin to end.
    Backward,
    /// A grad mode scope (`no_grad`, `inference_mode`, `enable_grad`).
    GradMode(String),
    /// A checkpoint recomputing its forward.
    Recompute,
}

impl SpanKind {
    /// The label the chart prints.
    pub fn label(&self) -> &str {
        match self {
            SpanKind::Backward => "backward",
            SpanKind::GradMode(mode) => mode,
            SpanKind::Recompute => "recompute",
        }
    }
}

/// A marked stretch, from `x0` to `x1` (the right edge when still open).
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// What it was.
    pub kind: SpanKind,
    /// Left edge.
    pub x0: f64,
    /// Right edge.
    pub x1: f64,
    /// How many spans it is nested in (a label row for each depth).
    pub depth: usize,
}

/// An instant of a training step the chart marks, in the order a step
/// runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkerKind {
    /// A forward pass began: the first graph node recorded since the last
    /// backward, `step()` or `zero_grad()` (or since the start).
    Forward,
    /// The outermost `backward()` (or `autograd.grad`) began.
    Backward,
    /// An optimizer updated its parameters (`optimizer.step()`).
    Step,
    /// An optimizer cleared its gradients (`optimizer.zero_grad()`).
    ZeroGrad,
}

impl MarkerKind {
    /// Every kind, in the order a training step runs them (the chart's
    /// rows, top to bottom).
    pub const ALL: [MarkerKind; 4] = [
        MarkerKind::Forward,
        MarkerKind::Backward,
        MarkerKind::Step,
        MarkerKind::ZeroGrad,
    ];

    /// The name the chart prints (PyTorch's, for the calls).
    pub fn label(self) -> &'static str {
        match self {
            MarkerKind::Forward => "forward",
            MarkerKind::Backward => "backward",
            MarkerKind::Step => "step",
            MarkerKind::ZeroGrad => "zero_grad",
        }
    }
}

/// One kind's marks on the chart: where they are, neighbours closer than
/// the gap [`MemoryChart::of_record`] was given joined into one.
#[derive(Clone, Debug, PartialEq)]
pub struct Markers {
    /// What they mark.
    pub kind: MarkerKind,
    /// Horizontal positions, left to right.
    pub xs: Vec<f64>,
    /// How many instants they stand for (before joining).
    pub count: usize,
}

/// The least distance between two drawn marks of one kind, in chart
/// units: a thousand steps in a few hundred pixels draw as ticks a few
/// pixels apart, not thousands of overlapping ones.
pub const MARKER_GAP: f64 = 3.0;

/// A label on the bytes axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Vertical position.
    pub y: f64,
    /// Bytes, as `1.5 KiB`.
    pub label: String,
}

/// A GPU's reserve over the trace: the bytes its caching allocator held
/// from the device, drawn as a line over the allocated bytes' stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Reserved {
    /// An SVG path (`d`) of the line, as steps.
    pub path: String,
    /// The most bytes reserved at once.
    pub peak_bytes: u64,
    /// Where the line meets the right edge (for its label).
    pub end_y: f64,
}

/// The memory chart of one device's ledger over a whole trace in a `width`
/// by `height` box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryChart {
    /// The device whose ledger it draws (`cpu`, `webgpu`: see
    /// [`crate::memory::ledger_key`]), `None` when no device allocated
    /// anything.
    pub device: Option<String>,
    /// Bands in [`Category::ALL`] order, bottom of the stack first.
    pub bands: Vec<Band>,
    /// The device's reserve, when it reported one (GPUs do).
    pub reserved: Option<Reserved>,
    /// The highest total on the ledger, if any byte was ever live there.
    pub peak: Option<Peak>,
    /// The total's top edge as a line of steps from the left edge to the
    /// right (what a comparison draws of a pinned run).
    pub outline: String,
    /// Backward passes, grad mode scopes and recomputations.
    pub spans: Vec<Span>,
    /// Labels on the bytes axis, bottom first.
    pub ticks: Vec<Tick>,
    /// Forward, backward, step and zero_grad marks, in [`MarkerKind::ALL`]
    /// order (a kind that never happened has none).
    pub markers: Vec<Markers>,
    /// The bytes at the top of the box.
    pub top_bytes: u64,
    /// What the right edge stands for: `67 events` or `1.2 ms`.
    pub end_label: String,
    /// What the left edge stands for: `0`, or where a zoomed chart
    /// starts (`event 120`, `1.2 ms`).
    pub start_label: String,
    /// Box width.
    pub width: f64,
    /// Box height.
    pub height: f64,
    axis: Axis,
    events: usize,
    end_time_us: u64,
    zoom: Zoom,
}

/// The extent a chart's axes cover at least: the events (or time) along
/// and the bytes up. A chart alone covers its own run; two runs compared
/// share the frame of both ([`Frame::union`]), so the same place on the
/// page is the same event index and the same bytes in each.
///
/// ```
/// use gradscope_trace::memory_chart::Frame;
/// let a = Frame { events: 40, end_time_us: 900, top_bytes: 512 };
/// let b = Frame { events: 25, end_time_us: 1200, top_bytes: 2048 };
/// assert_eq!(a.union(b), Frame { events: 40, end_time_us: 1200, top_bytes: 2048 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// Events along the event axis.
    pub events: usize,
    /// Microseconds along the time axis.
    pub end_time_us: u64,
    /// The most bytes drawn (allocated or reserved), before rounding up
    /// to the axis' top.
    pub top_bytes: u64,
}

impl Frame {
    /// The extent that covers both.
    pub fn union(self, other: Frame) -> Frame {
        Frame {
            events: self.events.max(other.events),
            end_time_us: self.end_time_us.max(other.end_time_us),
            top_bytes: self.top_bytes.max(other.top_bytes),
        }
    }
}

/// What one device's ledger reached over a run: its highest total, where,
/// and each category's most bytes at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerPeaks {
    /// The highest total (0 when nothing was held).
    pub total: u64,
    /// The position (events applied) at which it was first reached.
    pub position: usize,
    /// Each category's most bytes at once, in [`Category::ALL`] order.
    pub categories: [u64; 5],
    /// The most bytes reserved at once (GPUs' caching allocators).
    pub reserved: u64,
}

/// One step of the stacked curve: from `x` on, cumulative bytes `stack`.
#[derive(Clone, Copy, Debug)]
struct Step {
    x: f64,
    total: u64,
    stack: [u64; 5],
    reserved: u64,
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
    ledgers: Vec<LedgerRecord>,
    /// Closed spans: kind, depth, start (index, time), end (index, time).
    spans: Vec<RecordedSpan>,
    /// Open spans, outermost first, with where they began.
    open: Vec<(SpanKind, usize, u64)>,
    /// Grad mode scopes entered inside the open backward, not drawn.
    hidden_modes: usize,
    /// Marked instants: kind, event index and time.
    markers: Vec<(MarkerKind, usize, u64)>,
    /// Whether a forward pass was marked and no backward, step or
    /// zero_grad has followed it yet.
    in_forward: bool,
    /// Graph nodes recorded (`NodeCreated`), `AccumulateGrad` included.
    nodes: usize,
    events: usize,
    end_time_us: u64,
}

/// One device's samples and peaks.
#[derive(Clone, Debug, Default, PartialEq)]
struct LedgerRecord {
    /// One per event that changed the ledger (its bytes or its reserve).
    samples: Vec<MemorySample>,
    /// Each category's most bytes at once.
    peak_bytes: [u64; 5],
    /// The most bytes reserved at once.
    reserved_peak: u64,
    /// The index in `samples` of the first sample with the highest total.
    peak: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
struct RecordedSpan {
    kind: SpanKind,
    depth: usize,
    start: (usize, u64),
    end: (usize, u64),
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

impl MemoryChart {
    /// The chart of `events` (the whole recorded trace) in a box of
    /// `width` by `height`, at most about two steps per unit of width.
    ///
    /// ```
    /// use gradscope_trace::{Category, Event, EventKind};
    /// use gradscope_trace::memory_chart::{Axis, MemoryChart};
    /// let alloc = EventKind::StorageAllocated {
    ///     storage: 1, bytes: 1536, device: "cpu".into(), category: Category::Other,
    /// };
    /// let trace = [Event { seq: 0, time_us: 5, line: None, kind: alloc }];
    /// let chart = MemoryChart::of(&trace, Axis::Events, 100.0, 50.0);
    /// assert_eq!(chart.peak.map(|p| p.bytes), Some(1536));
    /// assert_eq!(chart.ticks.last().map(|t| t.label.as_str()), Some("2 KiB"));
    /// ```
    pub fn of<'a>(
        events: impl IntoIterator<Item = &'a Event>,
        axis: Axis,
        width: f64,
        height: f64,
    ) -> Self {
        Self::of_record(&MemoryRecord::of(events), axis, width, height)
    }

    /// The chart of the events `record` holds, as [`MemoryChart::of`] them:
    /// the ledger of the device the run computed on.
    pub fn of_record(record: &MemoryRecord, axis: Axis, width: f64, height: f64) -> Self {
        let device = record.main_device().unwrap_or("cpu").to_string();
        Self::of_ledger(record, &device, axis, width, height)
    }

    /// The chart of `device`'s ledger (`cpu`, `webgpu:0`) in the events
    /// `record` holds: its bytes, its reserve and its peak, with the whole
    /// trace's spans and markers.
    ///
    /// ```
    /// use gradscope_trace::{Category, Event, EventKind};
    /// use gradscope_trace::memory_chart::{Axis, MemoryChart, MemoryRecord};
    /// let ev = |seq, kind| Event { seq, time_us: seq, line: None, kind };
    /// let trace = [
    ///     ev(0, EventKind::StorageAllocated {
    ///         storage: 1, bytes: 16, device: "cpu".into(), category: Category::Other }),
    ///     ev(1, EventKind::StorageAllocated {
    ///         storage: 2, bytes: 64, device: "webgpu".into(), category: Category::Other }),
    ///     ev(2, EventKind::DeviceReserved { device: "webgpu:0".into(), bytes: 256 }),
    /// ];
    /// let record = MemoryRecord::of(&trace);
    /// let gpu = MemoryChart::of_ledger(&record, "webgpu:0", Axis::Events, 100.0, 50.0);
    /// assert_eq!(gpu.peak.map(|p| p.bytes), Some(64));
    /// assert_eq!(gpu.reserved.map(|r| r.peak_bytes), Some(256));
    /// let cpu = MemoryChart::of_ledger(&record, "cpu", Axis::Events, 100.0, 50.0);
    /// assert_eq!((cpu.peak.map(|p| p.bytes), cpu.reserved), (Some(16), None));
    /// ```
    pub fn of_ledger(
        record: &MemoryRecord,
        device: &str,
        axis: Axis,
        width: f64,
        height: f64,
    ) -> Self {
        Self::of_ledger_in(record, device, axis, width, height, Frame::default())
    }

    /// [`MemoryChart::of_ledger`] on axes that cover at least `frame`: a
    /// run drawn beside another, both on the axes of the two
    /// ([`Frame::union`]). The right edge and its label are the frame's.
    ///
    /// ```
    /// use gradscope_trace::{Category, Event, EventKind};
    /// use gradscope_trace::memory_chart::{Axis, Frame, MemoryChart, MemoryRecord};
    /// let ev = |seq, kind| Event { seq, time_us: seq, line: None, kind };
    /// let record = MemoryRecord::of(&[ev(0, EventKind::StorageAllocated {
    ///     storage: 1, bytes: 100, device: "cpu".into(), category: Category::Other })]);
    /// let frame = Frame { events: 4, end_time_us: 0, top_bytes: 500 };
    /// let chart = MemoryChart::of_ledger_in(&record, "cpu", Axis::Events, 80.0, 40.0, frame);
    /// // One event of four: the step is at x 20; 100 bytes of 500 up.
    /// assert_eq!(chart.outline, "M0.0,40.0H20.0V32.0H80.0");
    /// assert_eq!(chart.end_label, "4 events");
    /// ```
    pub fn of_ledger_in(
        record: &MemoryRecord,
        device: &str,
        axis: Axis,
        width: f64,
        height: f64,
        frame: Frame,
    ) -> Self {
        Self::of_ledger_zoomed(record, device, axis, (width, height), frame, Zoom::WHOLE)
    }

    /// [`MemoryChart::of_ledger_in`] showing the stretch `zoom` of the
    /// axis in a box of `size` (width, height): what lies outside is left
    /// out (a band starts at the bytes held where the stretch begins), the
    /// bytes axis stays the whole run's, and the edges' labels say where
    /// the stretch begins and ends.
    ///
    /// ```
    /// use gradscope_trace::{Category, Event, EventKind};
    /// use gradscope_trace::memory_chart::{Axis, Frame, MemoryChart, MemoryRecord};
    /// use gradscope_trace::memory_zoom::Zoom;
    /// let ev = |seq, storage| Event { seq, time_us: seq, line: None, kind: EventKind::StorageAllocated {
    ///     storage, bytes: 100, device: "cpu".into(), category: Category::Other } };
    /// let record = MemoryRecord::of(&(0..10).map(|i| ev(i, i)).collect::<Vec<_>>());
    /// // Events 4 to 6 of 10 across 20 units: 400 bytes at the left edge, then two steps up.
    /// let zoom = Zoom::new(0.4, 0.6);
    /// let chart = MemoryChart::of_ledger_zoomed(&record, "cpu", Axis::Events, (20.0, 10.0), Frame::default(), zoom);
    /// assert_eq!(chart.outline, "M0.0,10.0V6.0H10.0V5.0H20.0V4.0");
    /// assert_eq!((chart.start_label.as_str(), chart.end_label.as_str()), ("event 4", "event 6 of 10"));
    /// ```
    pub fn of_ledger_zoomed(
        record: &MemoryRecord,
        device: &str,
        axis: Axis,
        (width, height): (f64, f64),
        frame: Frame,
        zoom: Zoom,
    ) -> Self {
        let frame = frame.union(Frame {
            events: record.events,
            end_time_us: record.end_time_us,
            top_bytes: 0,
        });
        let mut chart = MemoryChart {
            width,
            height,
            axis,
            events: frame.events,
            end_time_us: frame.end_time_us,
            zoom,
            ..Self::default()
        };
        let empty = LedgerRecord::default();
        let device = crate::memory::ledger_key(device);
        let ledger = match record.devices().iter().position(|d| d == device) {
            Some(d) => {
                chart.device = Some(device.to_string());
                record.ledgers.get(d).unwrap_or(&empty)
            }
            None => &empty,
        };
        let samples = &ledger.samples;
        let steps = chart.steps(samples);
        // The whole run's, zoomed or not: the bytes axis does not move.
        let peak_total = ledger
            .peak
            .and_then(|p| samples.get(p))
            .map_or(0, MemorySample::total);
        chart.top_bytes = nice_ceiling(peak_total.max(ledger.reserved_peak).max(frame.top_bytes));
        // An axis of 1 byte (nothing held yet) has no half-way tick.
        let mut marks = vec![0, chart.top_bytes / 2, chart.top_bytes];
        marks.dedup();
        chart.ticks = marks
            .into_iter()
            .map(|b| Tick {
                y: chart.y(b),
                label: bytes_label(b),
            })
            .collect();
        chart.peak = ledger.peak.and_then(|p| samples.get(p)).map(|s| Peak {
            x: chart.sample_x(s),
            y: chart.y(s.total()),
            bytes: s.total(),
            position: s.seq as usize + 1,
        });
        chart.bands = Category::ALL
            .iter()
            .enumerate()
            .map(|(k, &category)| {
                let peak_bytes = ledger.peak_bytes[k];
                let path = if peak_bytes == 0 {
                    String::new()
                } else {
                    chart.band_path(&steps, k)
                };
                Band {
                    category,
                    path,
                    peak_bytes,
                }
            })
            .collect();
        chart.outline = if samples.is_empty() {
            String::new()
        } else {
            chart.line_path(&steps, |s| s.total)
        };
        chart.reserved = (ledger.reserved_peak > 0).then(|| Reserved {
            path: chart.line_path(&steps, |s| s.reserved),
            peak_bytes: ledger.reserved_peak,
            end_y: chart.y(steps.last().map_or(0, |s| s.reserved)),
        });
        chart.spans = chart.spans_of(record);
        chart.markers = chart.markers_of(record, MARKER_GAP);
        (chart.start_label, chart.end_label) = if zoom.is_whole() {
            let end = match axis {
                Axis::Events => format!("{} events", frame.events),
                Axis::Time => duration_label(frame.end_time_us),
            };
            ("0".to_string(), end)
        } else {
            let at = |f: f64| match axis {
                Axis::Events => (f * frame.events as f64).round() as usize,
                Axis::Time => (f * frame.end_time_us as f64).round() as usize,
            };
            let (start, end) = (at(zoom.start), at(zoom.end));
            match axis {
                Axis::Events => (
                    format!("event {start}"),
                    format!("event {end} of {}", frame.events),
                ),
                Axis::Time => (
                    duration_label(start as u64),
                    format!(
                        "{} of {}",
                        duration_label(end as u64),
                        duration_label(frame.end_time_us)
                    ),
                ),
            }
        };
        chart
    }

    /// The stretch of one training step around `position` (events
    /// applied): from the forward mark at or before it to the next
    /// forward mark (or the run's end), on this chart's axis. `None`
    /// when the run marked no forward pass before `position`.
    ///
    /// ```
    /// use gradscope_trace::{Event, EventKind};
    /// use gradscope_trace::memory_chart::{Axis, MemoryChart, MemoryRecord};
    /// let ev = |seq, kind| Event { seq, time_us: seq, line: None, kind };
    /// let node = || EventKind::NodeCreated { node: 1, name: "MulBackward0".into(),
    ///     sequence_nr: 1, next: vec![], saved: vec![], leaf: None };
    /// let kinds = [node(), EventKind::ZeroGrad { set_to_none: true }, node(),
    ///     EventKind::ZeroGrad { set_to_none: true }];
    /// let trace: Vec<Event> = kinds.into_iter().enumerate().map(|(i, k)| ev(i as u64, k)).collect();
    /// let record = MemoryRecord::of(&trace);
    /// let chart = MemoryChart::of_record(&record, Axis::Events, 100.0, 50.0);
    /// // The second step: events 2 and 3 of 4.
    /// let zoom = chart.step_zoom(&record, 3).unwrap();
    /// assert_eq!((zoom.start, zoom.end), (0.5, 1.0));
    /// ```
    pub fn step_zoom(&self, record: &MemoryRecord, position: usize) -> Option<Zoom> {
        let forwards: Vec<(usize, u64)> = record
            .markers
            .iter()
            .filter(|(kind, ..)| *kind == MarkerKind::Forward)
            .map(|&(_, i, t)| (i, t))
            .collect();
        // The step whose forward began at or before the last event applied.
        let begun = forwards.partition_point(|&(i, _)| i < position.max(1));
        let (i, t) = *forwards.get(begun.checked_sub(1)?)?;
        let next = forwards.get(begun).copied();
        let fraction = |i: usize, t: u64| match self.axis {
            Axis::Events if self.events > 0 => i as f64 / self.events as f64,
            Axis::Time if self.end_time_us > 0 => t as f64 / self.end_time_us as f64,
            _ => 0.0,
        };
        let end = next.map_or(1.0, |(i, t)| fraction(i, t));
        Some(Zoom::new(fraction(i, t), end))
    }

    /// The horizontal position of the cursor at `position` events applied.
    pub fn cursor_x<L: EventList + ?Sized>(&self, events: &L, position: usize) -> f64 {
        match self.axis {
            Axis::Events => self.position_x(position),
            Axis::Time => {
                let time = position
                    .checked_sub(1)
                    .and_then(|i| events.event(i))
                    .map_or(0, |e| e.time_us);
                self.time_x(time)
            }
        }
    }

    fn position_x(&self, position: usize) -> f64 {
        if self.events == 0 {
            return 0.0;
        }
        let f = position.min(self.events) as f64 / self.events as f64;
        self.zoom.view_at(f) * self.width
    }

    fn time_x(&self, time_us: u64) -> f64 {
        if self.end_time_us == 0 {
            return 0.0;
        }
        let f = time_us.min(self.end_time_us) as f64 / self.end_time_us as f64;
        self.zoom.view_at(f) * self.width
    }

    /// Whether `x` is inside the box (a zoomed chart leaves out the rest).
    pub fn shows(&self, x: f64) -> bool {
        (0.0..=self.width).contains(&x)
    }

    /// Where an event's effect starts (after it on the event axis).
    fn event_x(&self, index: usize, time_us: u64, after: bool) -> f64 {
        match self.axis {
            Axis::Events => self.position_x(index + usize::from(after)),
            Axis::Time => self.time_x(time_us),
        }
    }

    fn sample_x(&self, sample: &MemorySample) -> f64 {
        self.event_x(sample.seq as usize, sample.time_us, true)
    }

    fn y(&self, bytes: u64) -> f64 {
        if self.top_bytes == 0 {
            return self.height;
        }
        self.height - bytes as f64 / self.top_bytes as f64 * self.height
    }

    /// The stacked curve from zero at the left edge, thinned to the sample
    /// with the highest total in each half unit of width so peaks survive.
    /// Zoomed, it starts at the bytes held at the left edge and ends at
    /// the right.
    fn steps(&self, samples: &[MemorySample]) -> Vec<Step> {
        let mut steps = vec![Step {
            x: 0.0,
            total: 0,
            stack: [0; 5],
            reserved: 0,
        }];
        for sample in samples {
            let mut stack = sample.bytes;
            for k in 1..5 {
                stack[k] += stack[k - 1];
            }
            let step = Step {
                x: self.sample_x(sample),
                total: stack[4],
                stack,
                reserved: sample.reserved,
            };
            // Before the stretch shown (or at its left edge, zoomed): the
            // bytes held where it begins.
            if step.x < 0.0 || (step.x == 0.0 && !self.zoom.is_whole()) {
                steps[0] = Step { x: 0.0, ..step };
                continue;
            }
            if step.x > self.width {
                break;
            }
            let last = steps.len() - 1;
            if samples.len() > 2 * self.width.max(1.0) as usize
                && (step.x * 2.0).floor() == (steps[last].x * 2.0).floor()
                && last > 0
            {
                let reserved = step.reserved.max(steps[last].reserved);
                if step.total >= steps[last].total {
                    steps[last] = Step {
                        x: steps[last].x,
                        ..step
                    };
                }
                steps[last].reserved = reserved;
            } else {
                steps.push(step);
            }
        }
        steps
    }

    /// The band of category `k`: its top edge left to right, then the top of
    /// the band below it right to left, as steps.
    fn band_path(&self, steps: &[Step], k: usize) -> String {
        let top = |s: &Step| self.y(s.stack[k]);
        let bottom = |s: &Step| self.y(if k == 0 { 0 } else { s.stack[k - 1] });
        let mut d = StepPath::start(0.0, self.height);
        for step in steps {
            d.to(step.x, top(step));
        }
        if let Some(last) = steps.last() {
            d.to(self.width, top(last));
            d.to(self.width, bottom(last));
        }
        // Right to left, each step's bottom is reached at its own x, then
        // the pen drops (or rises) to the bottom of the step before it.
        for (i, step) in steps.iter().enumerate().rev() {
            let before = if i > 0 { &steps[i - 1] } else { step };
            d.to(step.x, bottom(before));
        }
        d.finish(true)
    }

    /// A value of the steps (the reserve, the total) as a line of steps
    /// from the left edge to the right.
    fn line_path(&self, steps: &[Step], value: fn(&Step) -> u64) -> String {
        let mut d = StepPath::start(0.0, self.y(0));
        for step in steps {
            d.to(step.x, self.y(value(step)));
        }
        if let Some(last) = steps.last() {
            d.to(self.width, self.y(value(last)));
        }
        d.finish(false)
    }

    /// Each kind's marks, placed; one closer than `gap` to the last one
    /// drawn of its kind joins it.
    fn markers_of(&self, record: &MemoryRecord, gap: f64) -> Vec<Markers> {
        MarkerKind::ALL
            .iter()
            .filter_map(|&kind| {
                let mut xs: Vec<f64> = Vec::new();
                let mut count = 0;
                for &(k, index, time) in &record.markers {
                    if k != kind {
                        continue;
                    }
                    count += 1;
                    let x = self.event_x(index, time, false);
                    if !self.shows(x) {
                        continue;
                    }
                    if xs.last().is_none_or(|&last| x - last >= gap) {
                        xs.push(x);
                    }
                }
                (count > 0).then_some(Markers { kind, xs, count })
            })
            .collect()
    }

    /// Backward passes, grad mode scopes (innermost closes first) and
    /// recomputations; any still open runs to the right edge. Grad modes
    /// inside a backward are the engine's own, not the program's: left out.
    fn spans_of(&self, record: &MemoryRecord) -> Vec<Span> {
        let mut spans: Vec<Span> = record
            .spans
            .iter()
            .map(|s| Span {
                kind: s.kind.clone(),
                x0: self.event_x(s.start.0, s.start.1, false),
                x1: self.event_x(s.end.0, s.end.1, true),
                depth: s.depth,
            })
            .collect();
        for (depth, (kind, i, t)) in record.open.iter().enumerate() {
            spans.push(Span {
                kind: kind.clone(),
                x0: self.event_x(*i, *t, false),
                x1: self.width,
                depth,
            });
        }
        // Zoomed: cut to the box, those wholly outside left out.
        spans.retain(|s| s.x1 > 0.0 && s.x0 < self.width);
        for s in &mut spans {
            (s.x0, s.x1) = (s.x0.max(0.0), s.x1.min(self.width));
        }
        spans.sort_by(|a, b| a.x0.total_cmp(&b.x0).then(a.depth.cmp(&b.depth)));
        spans
    }
}

/// Microseconds as the time axis prints them: `850 us`, `1.2 ms`, `3.4 s`.
pub fn duration_label(us: u64) -> String {
    match us {
        0..1_000 => format!("{us} us"),
        1_000..1_000_000 => format!("{:.1} ms", us as f64 / 1e3),
        _ => format!("{:.1} s", us as f64 / 1e6),
    }
}

/// The smallest 1, 2 or 5 times a power of ten, or a power of two from
/// 1 KiB on, that is at least `bytes` (1 for an empty chart).
pub fn nice_ceiling(bytes: u64) -> u64 {
    if bytes <= 1 {
        return 1;
    }
    if bytes > 1024 {
        return bytes.next_power_of_two();
    }
    let mut scale = 1u64;
    loop {
        for m in [1, 2, 5] {
            if m * scale >= bytes {
                return m * scale;
            }
        }
        scale *= 10;
    }
}

/// Bytes as the page prints them: `512 B`, `1.5 KiB`, `2 MiB`.
pub fn bytes_label(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(seq: u64, kind: EventKind) -> Event {
        Event {
            seq,
            time_us: seq * 100,
            line: None,
            kind,
        }
    }

    fn alloc(storage: u64, bytes: u64, category: Category) -> EventKind {
        EventKind::StorageAllocated {
            storage,
            bytes,
            device: "cpu".into(),
            category,
        }
    }

    /// Forward saves 64 bytes, backward releases them and makes a gradient.
    fn trace() -> Vec<Event> {
        let kinds = vec![
            alloc(1, 16, Category::Other),
            alloc(2, 64, Category::Other),
            EventKind::StorageRecategorised {
                storage: 2,
                category: Category::SavedForBackward,
            },
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            alloc(3, 16, Category::Gradient),
            EventKind::StorageFreed { storage: 2 },
            EventKind::BackwardEnded,
            EventKind::GradModeEntered {
                mode: "no_grad".into(),
            },
            EventKind::OpCalled {
                op: "add".into(),
                shape: vec![],
            },
            EventKind::GradModeExited {
                mode: "no_grad".into(),
            },
        ];
        kinds
            .into_iter()
            .enumerate()
            .map(|(i, k)| ev(i as u64, k))
            .collect()
    }

    fn tenths(xs: &[f64]) -> Vec<f64> {
        xs.iter().map(|x| (x * 10.0).round() / 10.0).collect()
    }

    #[test]
    fn chart_marks_forward_backward_step_and_zero_grad() {
        let node = |id| EventKind::NodeCreated {
            node: id,
            name: "MulBackward0".into(),
            sequence_nr: id,
            next: vec![],
            saved: vec![],
            leaf: None,
        };
        let backward = || EventKind::BackwardBegan {
            root: 1,
            retain_graph: false,
        };
        let step = || EventKind::OptimizerStep {
            optimizer: "SGD".into(),
            updated: 1,
        };
        let zero = || EventKind::ZeroGrad { set_to_none: true };
        let mut kinds = vec![];
        for _ in 0..2 {
            // Two nodes are one forward; a node made inside backward (an
            // AccumulateGrad) and a nested backward are not marked again.
            kinds.extend([
                node(1),
                node(2),
                backward(),
                node(3),
                backward(),
                EventKind::BackwardEnded,
                EventKind::BackwardEnded,
                step(),
                zero(),
            ]);
        }
        let events: Vec<Event> = kinds
            .into_iter()
            .enumerate()
            .map(|(i, k)| ev(i as u64, k))
            .collect();
        let chart = MemoryChart::of(&events, Axis::Events, 180.0, 50.0);
        let marks: Vec<(&str, Vec<f64>, usize)> = chart
            .markers
            .iter()
            .map(|m| (m.kind.label(), tenths(&m.xs), m.count))
            .collect();
        // 18 events on 180 units: event i starts at 10 * i.
        assert_eq!(
            marks,
            [
                ("forward", vec![0.0, 90.0], 2),
                ("backward", vec![20.0, 110.0], 2),
                ("step", vec![70.0, 160.0], 2),
                ("zero_grad", vec![80.0, 170.0], 2),
            ]
        );
        // Narrower than the gap: the second of each kind joins the first.
        let narrow = MemoryChart::of(&events, Axis::Events, 5.0, 50.0);
        assert!(
            narrow
                .markers
                .iter()
                .all(|m| m.xs.len() == 1 && m.count == 2)
        );
        // No optimizer, no graph: no marks.
        let plain = MemoryChart::of(&trace()[..3], Axis::Events, 100.0, 50.0);
        assert!(plain.markers.is_empty());
        // The time axis places them by time.
        let timed = MemoryChart::of(&events, Axis::Time, 170.0, 50.0);
        assert_eq!(tenths(&timed.markers[2].xs), vec![70.0, 160.0]);
    }

    #[test]
    fn chart_peak_is_highest_total() {
        let t = trace();
        let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
        let peak = chart.peak.clone();
        assert_eq!(peak.as_ref().map(|p| (p.bytes, p.position)), Some((96, 5)));
        // 96 bytes of a 100-byte axis: near the top; 5 of 10 events along.
        assert!(peak.is_some_and(|p| (p.x - 50.0).abs() < 1e-9 && (p.y - 2.0).abs() < 1e-9));
        assert_eq!(chart.top_bytes, 100);
        let labels: Vec<&str> = chart.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0 B", "50 B", "100 B"]);
    }

    #[test]
    fn chart_of_nothing_held_has_two_ticks() {
        let chart = MemoryChart::of(&[], Axis::Events, 200.0, 100.0);
        let labels: Vec<&str> = chart.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0 B", "1 B"]);
    }

    #[test]
    fn chart_bands_for_held_categories_only() {
        let t = trace();
        let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
        let peaks: Vec<(Category, u64, bool)> = chart
            .bands
            .iter()
            .map(|b| (b.category, b.peak_bytes, b.path.is_empty()))
            .collect();
        assert_eq!(
            peaks,
            [
                (Category::Parameter, 0, true),
                (Category::Gradient, 16, false),
                (Category::OptimizerState, 0, true),
                (Category::SavedForBackward, 64, false),
                (Category::Other, 80, false),
            ]
        );
        let saved = &chart.bands[3].path;
        assert!(
            saved.starts_with("M0.0,50.0") && saved.ends_with('Z'),
            "{saved}"
        );
    }

    #[test]
    fn chart_spans_for_backward_and_grad_mode() {
        let t = trace();
        let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
        let spans: Vec<(&str, f64, f64)> = chart
            .spans
            .iter()
            .map(|s| (s.kind.label(), s.x0, s.x1))
            .collect();
        assert_eq!(spans, [("backward", 30.0, 70.0), ("no_grad", 70.0, 100.0)]);
        assert_eq!(chart.end_label, "10 events");
    }

    #[test]
    fn chart_leaves_out_grad_modes_inside_backward() {
        let kinds = [
            EventKind::GradModeEntered {
                mode: "no_grad".into(),
            },
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            EventKind::GradModeEntered {
                mode: "no_grad".into(),
            },
            EventKind::GradModeExited {
                mode: "no_grad".into(),
            },
            EventKind::BackwardEnded,
            EventKind::GradModeExited {
                mode: "no_grad".into(),
            },
        ];
        let t: Vec<Event> = kinds
            .into_iter()
            .enumerate()
            .map(|(i, k)| ev(i as u64, k))
            .collect();
        let chart = MemoryChart::of(&t, Axis::Events, 60.0, 50.0);
        let spans: Vec<(&str, f64, f64, usize)> = chart
            .spans
            .iter()
            .map(|s| (s.kind.label(), s.x0, s.x1, s.depth))
            .collect();
        assert_eq!(
            spans,
            [("no_grad", 0.0, 60.0, 0), ("backward", 10.0, 50.0, 1)]
        );
        assert_eq!(duration_label(850), "850 us");
        assert_eq!(duration_label(1_250), "1.2 ms");
        assert_eq!(duration_label(3_400_000), "3.4 s");
    }

    #[test]
    fn chart_open_span_runs_to_the_edge() {
        let t = trace();
        let chart = MemoryChart::of(&t[..5], Axis::Events, 100.0, 50.0);
        assert_eq!(chart.spans.len(), 1);
        assert_eq!(chart.spans[0].x1, 100.0);
    }

    #[test]
    fn chart_time_axis_and_cursor() {
        let t = trace();
        let chart = MemoryChart::of(&t, Axis::Time, 90.0, 50.0);
        // Times run 0..=900 us over 90 units: event i sits at x = 10 i.
        assert_eq!(chart.cursor_x(&t[..], 0), 0.0);
        assert_eq!(chart.cursor_x(&t[..], 4), 30.0);
        assert!(chart.peak.is_some_and(|p| p.x == 40.0));
        let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
        assert_eq!(chart.cursor_x(&t[..], 4), 40.0);
    }

    #[test]
    fn chart_thins_long_traces_keeping_the_peak() {
        let mut events = Vec::new();
        for i in 0..10_000u64 {
            let bytes = if i == 7_777 { 1 << 20 } else { 8 };
            events.push(ev(2 * i, alloc(i, bytes, Category::Other)));
            events.push(ev(2 * i + 1, EventKind::StorageFreed { storage: i }));
        }
        let chart = MemoryChart::of(&events, Axis::Events, 200.0, 50.0);
        assert_eq!(chart.peak.as_ref().map(|p| p.bytes), Some(1 << 20));
        let path = &chart.bands[4].path;
        let vertices = path.matches(['H', 'V']).count();
        assert!(vertices < 2_000, "{vertices} vertices");
        // The peak's step reaches the top of the box.
        assert!(path.contains("V0.0"), "peak missing");
    }

    /// A path's outline as the corners it turns at: every command's end
    /// point, with repeated points and points mid-way along a straight
    /// horizontal or vertical stretch left out.
    fn corners(path: &str) -> Vec<(f64, f64)> {
        let mut points: Vec<(f64, f64)> = Vec::new();
        let (mut x, mut y) = (0.0, 0.0);
        let mut rest = path;
        while let Some(command) = rest.chars().next() {
            let end = rest[1..]
                .find(|c: char| c.is_ascii_alphabetic())
                .map_or(rest.len(), |e| e + 1);
            let args: Vec<f64> = rest[1..end]
                .split(',')
                .filter(|a| !a.is_empty())
                .map(|a| a.parse().unwrap())
                .collect();
            match command {
                'M' | 'L' => (x, y) = (args[0], args[1]),
                'H' => x = args[0],
                'V' => y = args[0],
                'Z' => {}
                other => panic!("unexpected command {other}"),
            }
            if points.last() != Some(&(x, y)) {
                points.push((x, y));
            }
            rest = &rest[end..];
        }
        let mut kept: Vec<(f64, f64)> = Vec::new();
        for p in points {
            while kept.len() >= 2 {
                let (a, b) = (kept[kept.len() - 2], kept[kept.len() - 1]);
                let straight = (a.0 == b.0 && b.0 == p.0) || (a.1 == b.1 && b.1 == p.1);
                if !straight {
                    break;
                }
                kept.pop();
            }
            if kept.last() != Some(&p) {
                kept.push(p);
            }
        }
        kept
    }

    #[test]
    fn bands_outline_the_steps_of_their_samples() {
        let mut events = trace();
        // A longer run, thinned, with level stretches and steps up and down.
        for i in 0..3_000u64 {
            let storage = 100 + i;
            let bytes = 8 * (1 + (i * 7919) % 13);
            events.push(ev(0, alloc(storage, bytes, Category::SavedForBackward)));
            if i % 3 != 0 {
                events.push(ev(0, EventKind::StorageFreed { storage }));
            }
        }
        for (i, e) in events.iter_mut().enumerate() {
            (e.seq, e.time_us) = (i as u64, i as u64);
        }
        let record = MemoryRecord::of(&events);
        let chart = MemoryChart::of_record(&record, Axis::Events, 300.0, 50.0);
        let ledger = &record.ledgers[0];
        let steps = chart.steps(&ledger.samples);
        for (k, band) in chart.bands.iter().enumerate() {
            if band.path.is_empty() {
                continue;
            }
            // The outline as corners (`L x,y` for each), the band's definition.
            let top = |s: &Step| chart.y(s.stack[k]);
            let bottom = |s: &Step| chart.y(if k == 0 { 0 } else { s.stack[k - 1] });
            let mut expected = format!("M0.0,{}", chart.height);
            let mut corner = |x: f64, y: f64| {
                expected += &format!("L{},{}", crate::svg::tenths(x), crate::svg::tenths(y))
            };
            for (i, step) in steps.iter().enumerate() {
                if i > 0 {
                    corner(step.x, top(&steps[i - 1]));
                }
                corner(step.x, top(step));
            }
            let last = steps.last().unwrap();
            corner(chart.width, top(last));
            corner(chart.width, bottom(last));
            for (i, step) in steps.iter().enumerate().rev() {
                corner(step.x, bottom(step));
                if i > 0 {
                    corner(step.x, bottom(&steps[i - 1]));
                }
            }
            assert_eq!(corners(&band.path), corners(&expected), "band {k}");
            assert!(
                band.path.len() < expected.len() / 2,
                "band {k} is written shorter"
            );
        }
        let saved = corners(&chart.bands[3].path).len();
        assert!(
            saved > 300,
            "the saved band steps up and down: {saved} corners"
        );
    }

    #[test]
    fn chart_zoomed_shows_its_stretch() {
        let t = trace();
        let record = MemoryRecord::of(&t);
        // Events 3 to 7 of 10 across 100 units: 25 a position.
        let zoom = Zoom::new(0.3, 0.7);
        let size = (100.0, 50.0);
        let chart = MemoryChart::of_ledger_zoomed(
            &record,
            "cpu",
            Axis::Events,
            size,
            Frame::default(),
            zoom,
        );
        let whole = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
        // The bytes axis is the whole run's.
        assert_eq!(chart.top_bytes, whole.top_bytes);
        // Backward (events 3 to 6) fills the box; no_grad (7 on) is cut out.
        let spans: Vec<(&str, f64, f64)> = chart
            .spans
            .iter()
            .map(|s| (s.kind.label(), s.x0, s.x1))
            .collect();
        assert_eq!(spans, [("backward", 0.0, 100.0)]);
        // The peak after event 5 is mid-box; the cursor at 2 is not shown.
        assert!(
            chart
                .peak
                .as_ref()
                .is_some_and(|p| (p.x - 50.0).abs() < 1e-9)
        );
        assert!(!chart.shows(chart.cursor_x(&t[..], 2)));
        assert!(chart.shows(chart.cursor_x(&t[..], 4)));
        // The saved band starts at the 64 bytes held when the stretch
        // begins (y 50 - 64 / 100 * 50 = 18 over the 16 bytes below it).
        assert!(
            chart.bands[3].path.starts_with("M0.0,50.0V18.0"),
            "{}",
            chart.bands[3].path
        );
        assert_eq!(
            (chart.start_label.as_str(), chart.end_label.as_str()),
            ("event 3", "event 7 of 10")
        );
        let timed =
            MemoryChart::of_ledger_zoomed(&record, "cpu", Axis::Time, size, Frame::default(), zoom);
        assert_eq!(
            (timed.start_label.as_str(), timed.end_label.as_str()),
            ("270 us", "630 us of 900 us")
        );
    }

    #[test]
    fn chart_of_empty_trace() {
        let empty: Vec<Event> = vec![];
        let chart = MemoryChart::of(&empty, Axis::Events, 100.0, 50.0);
        assert!(chart.peak.is_none());
        assert!(chart.bands.iter().all(|b| b.path.is_empty()));
        assert!(chart.spans.is_empty());
    }

    #[test]
    fn chart_draws_one_ledger_with_its_reserve() {
        let alloc = |storage, bytes, device: &str| EventKind::StorageAllocated {
            storage,
            bytes,
            device: device.into(),
            category: Category::Other,
        };
        let reserve = |bytes| EventKind::DeviceReserved {
            device: "webgpu:0".into(),
            bytes,
        };
        let events: Vec<Event> = [
            alloc(1, 100, "cpu"),
            alloc(2, 300, "webgpu"),
            reserve(500),
            EventKind::StorageFreed { storage: 1 },
            alloc(3, 600, "webgpu"),
            reserve(1000),
            EventKind::StorageFreed { storage: 3 },
            EventKind::ZeroGrad { set_to_none: true },
        ]
        .into_iter()
        .enumerate()
        .map(|(i, k)| ev(i as u64, k))
        .collect();
        let record = MemoryRecord::of(&events);
        assert_eq!(record.devices(), ["cpu", "webgpu"]);
        assert_eq!(record.main_device(), Some("webgpu"));
        let gpu = MemoryChart::of_ledger(&record, "webgpu:0", Axis::Events, 80.0, 50.0);
        assert_eq!(gpu.device.as_deref(), Some("webgpu"));
        // The GPU's own peak, at the event that reached it (the fifth).
        let peak = gpu.peak.clone().unwrap();
        assert_eq!((peak.bytes, peak.position), (900, 5));
        // The reserve is above every allocated byte: the box fits it.
        assert_eq!(gpu.top_bytes, 1000);
        let reserved = gpu.reserved.clone().unwrap();
        assert_eq!((reserved.peak_bytes, reserved.end_y), (1000, 0.0));
        // Zero until the third event, 500 bytes (y 25), then the top.
        assert_eq!(reserved.path, "M0.0,50.0H30.0V25.0H60.0V0.0H80.0");
        // Markers and the event axis are the whole trace's.
        assert_eq!(gpu.end_label, "8 events");
        assert_eq!(gpu.markers.len(), 1);
        let cpu = MemoryChart::of_ledger(&record, "cpu", Axis::Events, 80.0, 50.0);
        assert_eq!(cpu.peak.map(|p| (p.bytes, p.position)), Some((100, 1)));
        assert_eq!((cpu.reserved, cpu.top_bytes), (None, 100));
        assert_eq!(cpu.markers, gpu.markers);
        // The default is the main device's.
        let default = MemoryChart::of_record(&record, Axis::Events, 80.0, 50.0);
        assert_eq!(default.device.as_deref(), Some("webgpu"));
        let none = MemoryChart::of_ledger(&record, "cuda:0", Axis::Events, 80.0, 50.0);
        assert!(none.device.is_none() && none.peak.is_none());
    }

    #[test]
    fn chart_byte_labels_and_ceilings() {
        assert_eq!(bytes_label(0), "0 B");
        assert_eq!(bytes_label(1023), "1023 B");
        assert_eq!(bytes_label(1536), "1.5 KiB");
        assert_eq!(bytes_label(2 << 20), "2 MiB");
        assert_eq!(nice_ceiling(0), 1);
        assert_eq!(nice_ceiling(96), 100);
        assert_eq!(nice_ceiling(150), 200);
        assert_eq!(nice_ceiling(1000), 1000);
        assert_eq!(nice_ceiling(1536), 2048);
        assert_eq!(nice_ceiling(607_236), 1 << 20);
    }
}
