//! One device's ledger placed in a box: the bands, the peak, the reserve,
//! the ticks and the edges' labels, whole or zoomed; and the stretch of
//! one training step, for the `s` key.

use super::record::LedgerRecord;
use super::{
    Axis, Band, Frame, MARKER_GAP, MarkerKind, MemoryChart, MemoryRecord, Peak, Reserved, Tick,
    bytes_label, duration_label, nice_ceiling,
};
use crate::event::{Category, Event};
use crate::memory::MemorySample;
use crate::memory_zoom::Zoom;

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
}
