//! Two runs side by side: a pinned run and the one after it, as the page
//! draws them when a learner compares settings (with and without
//! `no_grad`, checkpointing, `zero_grad` kept or forgotten).
//!
//! The memory timelines share one frame ([`Frame::union`](crate::memory_chart::Frame::union)): the horizontal
//! axis counts events from each run's start (or microseconds, on the time
//! axis), the longer run setting its width, and the vertical axis is the
//! higher peak's. Event index rather than each run stretched to the full
//! width, because:
//!
//! - the same place is the same amount of work done in both: a run that
//!   records no graph (`no_grad`) is visibly shorter, where stretching it
//!   would draw its steps twice as wide as they were;
//! - the cursor and the forward/backward marks keep their meaning (event
//!   `i` of the run shown);
//! - events are deterministic where wall-clock time is not (the same
//!   program runs at another speed while the page is busy).
//!
//! The loss curves share the step axis: step `k` of each run at one `x`,
//! over the longer run's steps.

use crate::memory_chart::{Axis, MemoryChart, MemoryRecord, bytes_label};
use crate::memory_zoom::Zoom;
use crate::training_charts::{TrainingSeries, value_label};

/// What one run did, as a comparison prints it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunFacts {
    /// Events recorded.
    pub events: usize,
    /// Graph nodes recorded (`AccumulateGrad` included).
    pub nodes: usize,
    /// The most bytes live at once on the ledger compared.
    pub peak_bytes: u64,
    /// The most bytes saved for backward at once there.
    pub saved_bytes: u64,
    /// Training steps (backwards that wrote `.grad`).
    pub steps: usize,
    /// The last step's loss, when its backward began at a scalar.
    pub final_loss: Option<f64>,
}

impl RunFacts {
    /// The facts of a run from its memory record (on `device`'s ledger)
    /// and its training series.
    ///
    /// ```
    /// use gradscope_trace::compare::RunFacts;
    /// use gradscope_trace::memory_chart::MemoryRecord;
    /// use gradscope_trace::training_charts::TrainingSeries;
    /// let facts = RunFacts::of(&MemoryRecord::default(), "cpu", &TrainingSeries::default());
    /// assert_eq!((facts.nodes, facts.peak_bytes, facts.final_loss), (0, 0, None));
    /// ```
    pub fn of(record: &MemoryRecord, device: &str, series: &TrainingSeries) -> Self {
        let peaks = record.peaks(device);
        let last_step = series.steps().checked_sub(1);
        RunFacts {
            events: record.events(),
            nodes: record.nodes(),
            peak_bytes: peaks.total,
            saved_bytes: peaks.categories[crate::Category::SavedForBackward as usize],
            steps: series.steps(),
            final_loss: series
                .loss
                .last()
                .filter(|p| Some(p.step) == last_step)
                .map(|p| p.value),
        }
    }
}

/// One line of the side-by-side counts: what is counted, the pinned run's
/// value, this run's, and the change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareRow {
    /// What is counted (`peak`, `graph nodes`).
    pub label: &'static str,
    /// The same in a word, for a narrow column (`peak`, `nodes`).
    pub short: &'static str,
    /// The pinned run's value, as printed.
    pub pinned: String,
    /// This run's value, as printed.
    pub current: String,
    /// The change from the pinned run ([`change_label`]).
    pub change: String,
}

/// A pinned run and the run after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// The run pinned first.
    pub pinned: RunFacts,
    /// The run shown now.
    pub current: RunFacts,
}

impl Comparison {
    /// The peaks and their change, as the chart writes it:
    /// `peak 502 KiB → 374 KiB, -25%`.
    ///
    /// ```
    /// use gradscope_trace::compare::{Comparison, RunFacts};
    /// let run = |peak_bytes| RunFacts { peak_bytes, ..RunFacts::default() };
    /// let c = Comparison { pinned: run(502 << 10), current: run(374 << 10) };
    /// assert_eq!(c.peak_text(), "peak 502 KiB → 374 KiB, -25%");
    /// ```
    pub fn peak_text(&self) -> String {
        let (a, b) = (self.pinned.peak_bytes, self.current.peak_bytes);
        format!(
            "peak {} → {}, {}",
            bytes_label(a),
            bytes_label(b),
            change_label(a as f64, b as f64)
        )
    }

    /// The counts side by side: peak, saved for backward, graph nodes,
    /// events, steps, and the last loss where both runs have one.
    pub fn rows(&self) -> Vec<CompareRow> {
        let (a, b) = (&self.pinned, &self.current);
        let bytes = |(label, short), x: u64, y: u64| CompareRow {
            label,
            short,
            pinned: bytes_label(x),
            current: bytes_label(y),
            change: change_label(x as f64, y as f64),
        };
        let count = |(label, short), x: usize, y: usize| CompareRow {
            label,
            short,
            pinned: x.to_string(),
            current: y.to_string(),
            change: change_label(x as f64, y as f64),
        };
        let mut rows = vec![
            bytes(("peak", "peak"), a.peak_bytes, b.peak_bytes),
            bytes(
                ("saved for backward", "saved"),
                a.saved_bytes,
                b.saved_bytes,
            ),
            count(("graph nodes", "nodes"), a.nodes, b.nodes),
            count(("events", "events"), a.events, b.events),
        ];
        if a.steps > 0 || b.steps > 0 {
            rows.push(count(("steps", "steps"), a.steps, b.steps));
        }
        if let (Some(x), Some(y)) = (a.final_loss, b.final_loss) {
            rows.push(CompareRow {
                label: "last loss",
                short: "loss",
                pinned: value_label(x),
                current: value_label(y),
                change: change_label(x, y),
            });
        }
        rows
    }
}

/// The change from `before` to `after` in percent of `before`: `-25%`,
/// `+12%`, `-0.4%` under one percent, `same` when equal, `new` from zero,
/// and `n/a` where either is not finite.
///
/// ```
/// use gradscope_trace::compare::change_label;
/// assert_eq!(change_label(502.0, 374.0), "-25%");
/// assert_eq!(change_label(100.0, 112.0), "+12%");
/// assert_eq!(change_label(1000.0, 996.0), "-0.4%");
/// assert_eq!(change_label(64.0, 64.0), "same");
/// assert_eq!(change_label(0.0, 48.0), "new");
/// ```
pub fn change_label(before: f64, after: f64) -> String {
    if !(before.is_finite() && after.is_finite()) {
        return "n/a".into();
    }
    if before == after {
        return "same".into();
    }
    if before == 0.0 {
        return "new".into();
    }
    let percent = (after - before) / before.abs() * 100.0;
    let sign = if percent > 0.0 { "+" } else { "-" };
    let size = percent.abs();
    if size < 1.0 {
        let tenths = format!("{size:.1}");
        // Below a twentieth of a percent: say how small, not `-0.0%`.
        if tenths == "0.0" {
            return format!("{sign}<0.1%");
        }
        format!("{sign}{tenths}%")
    } else {
        format!("{sign}{:.0}%", size)
    }
}

/// The ledger of a pinned run to set beside one of `device`: the same
/// device when the pinned run used it, else the device it computed on.
///
/// ```
/// use gradscope_trace::compare::matching_ledger;
/// use gradscope_trace::memory_chart::MemoryRecord;
/// assert_eq!(matching_ledger(&MemoryRecord::default(), "webgpu"), "cpu");
/// ```
pub fn matching_ledger(pinned: &MemoryRecord, device: &str) -> String {
    let key = crate::memory::ledger_key(device);
    if pinned.devices().iter().any(|d| d == key) {
        return key.to_string();
    }
    pinned.main_device().unwrap_or("cpu").to_string()
}

/// Both runs' memory charts in one frame: the current run's to draw in
/// full, the pinned run's for its outline and peak.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryOverlay {
    /// This run's chart, on the shared axes.
    pub current: MemoryChart,
    /// The pinned run's chart, on the same axes.
    pub pinned: MemoryChart,
}

impl MemoryOverlay {
    /// The two charts of `current` (on `device`'s ledger) and `pinned`
    /// (on [`matching_ledger`]) in a `width` by `height` box.
    pub fn of(
        current: &MemoryRecord,
        device: &str,
        pinned: &MemoryRecord,
        axis: Axis,
        width: f64,
        height: f64,
    ) -> Self {
        Self::of_zoomed(current, device, pinned, axis, (width, height), Zoom::WHOLE)
    }

    /// [`MemoryOverlay::of`] showing the stretch `zoom` of the shared axis.
    pub fn of_zoomed(
        current: &MemoryRecord,
        device: &str,
        pinned: &MemoryRecord,
        axis: Axis,
        size: (f64, f64),
        zoom: Zoom,
    ) -> Self {
        let pinned_device = matching_ledger(pinned, device);
        let frame = current.frame(device).union(pinned.frame(&pinned_device));
        MemoryOverlay {
            current: MemoryChart::of_ledger_zoomed(current, device, axis, size, frame, zoom),
            pinned: MemoryChart::of_ledger_zoomed(pinned, &pinned_device, axis, size, frame, zoom),
        }
    }
}

/// How many steps the loss axis spans when two runs share it: the longer
/// run's.
pub fn shared_steps(current: &TrainingSeries, pinned: &TrainingSeries) -> usize {
    current.steps().max(pinned.steps())
}
