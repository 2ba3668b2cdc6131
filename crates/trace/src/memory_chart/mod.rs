//! The memory chart: bytes per category stacked over the trace, with the
//! peak and the phases (backward, grad modes, recomputation) marked, placed
//! in a plot box, so the page only writes the SVG.
//!
//! [`MemoryRecord`] (`record.rs`) keeps what the chart needs as events are
//! applied; `layout.rs` places one device's ledger in a box
//! ([`MemoryChart::of_ledger_zoomed`]) using the axes of `axes.rs` and the
//! step paths of `paths.rs`; `phases.rs` holds the spans and the marks of
//! a training step; `labels.rs` the axis' words; `placement.rs` where the
//! peaks' labels go, clear of the span labels.

use crate::event::Category;
use crate::memory_zoom::Zoom;

mod axes;
mod labels;
mod layout;
mod paths;
mod phases;
mod placement;
mod record;
#[cfg(test)]
mod tests;

pub use labels::{bytes_label, duration_label, nice_ceiling};
pub use phases::{MARKER_GAP, MarkerKind, Markers, Span, SpanKind};
pub use placement::{LABEL_ASCENT, LABEL_DESCENT, LabelBox, PeakLabels, PlacedLabel, peak_labels};
pub use record::{LedgerPeaks, MemoryRecord};

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
