//! Where the peaks' labels go so that no two words on the plot print over
//! each other: the span labels (`backward`, `no_grad`) sit in a row at
//! the plot's top, and a peak near the axis' top put its label in that
//! row (the README's picture had `pinned 117.9 KiB` across `no_grad`).
//! Each peak label tries a few places in order, the usual one first, and
//! takes the first whose box meets no label placed before it.

use super::{MemoryChart, bytes_label};

/// How far above its baseline a 10 px label's letters reach.
pub const LABEL_ASCENT: f64 = 9.0;
/// How far below its baseline a 10 px label's letters reach.
pub const LABEL_DESCENT: f64 = 2.5;

/// A label's box on the plot: left, top, right, bottom, in chart units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelBox {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl LabelBox {
    /// The box of a label `width` wide with its baseline at `y`, starting
    /// at `x` (`end`: ending there).
    pub fn of_text(x: f64, y: f64, width: f64, end: bool) -> Self {
        let x0 = if end { x - width } else { x };
        LabelBox {
            x0,
            y0: y - LABEL_ASCENT,
            x1: x0 + width,
            y1: y + LABEL_DESCENT,
        }
    }

    /// Whether the two boxes share any area (touching edges do not).
    pub fn overlaps(&self, other: &LabelBox) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    fn overlap_area(&self, other: &LabelBox) -> f64 {
        let w = self.x1.min(other.x1) - self.x0.max(other.x0);
        let h = self.y1.min(other.y1) - self.y0.max(other.y0);
        w.max(0.0) * h.max(0.0)
    }
}

/// A label placed: its words, where its baseline's anchor is, and which
/// end of the words sits there.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedLabel {
    pub text: String,
    pub x: f64,
    /// The baseline.
    pub y: f64,
    /// The words end at `x` (SVG's `text-anchor: end`), else start there.
    pub end: bool,
    /// The box the words take.
    pub bounds: LabelBox,
}

/// The peaks' labels of a chart (and of the run pinned beside it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PeakLabels {
    /// `peak 32.4 KiB` beside this run's peak, when the stretch shown holds it.
    pub current: Option<PlacedLabel>,
    /// `pinned 117.9 KiB` at an end of the pinned run's ruler.
    pub pinned: Option<PlacedLabel>,
}

/// The labels of `chart`'s peak and of `pinned`'s (drawn on the same
/// axes), placed clear of the boxes `taken` (the span labels, the change
/// written over the plot) and of each other. `text_width(words)` is how
/// wide the words print. A label that fits nowhere takes the place it
/// overlaps least.
///
/// ```
/// use gradscope_trace::{Category, Event, EventKind};
/// use gradscope_trace::memory_chart::{Axis, LabelBox, MemoryChart, peak_labels};
/// let alloc = EventKind::StorageAllocated {
///     storage: 1, bytes: 1000, device: "cpu".into(), category: Category::Other,
/// };
/// let trace = [Event { seq: 0, time_us: 0, line: None, kind: alloc }];
/// let chart = MemoryChart::of(&trace, Axis::Events, 300.0, 90.0);
/// // A span label across the top of the plot, where the peak's label would go.
/// let span = LabelBox::of_text(0.0, 10.0, 300.0, false);
/// let labels = peak_labels(&chart, None, &[span], |t| 6.0 * t.len() as f64);
/// let peak = labels.current.unwrap();
/// assert_eq!(peak.text, "peak 1000 B");
/// assert!(!peak.bounds.overlaps(&span));
/// ```
pub fn peak_labels(
    chart: &MemoryChart,
    pinned: Option<&MemoryChart>,
    taken: &[LabelBox],
    text_width: impl Fn(&str) -> f64,
) -> PeakLabels {
    let mut placed: Vec<LabelBox> = taken.to_vec();
    let width = chart.width;
    let height = chart.height;
    let current = chart.peak.as_ref().filter(|p| chart.shows(p.x)).map(|p| {
        let text = format!("peak {}", bytes_label(p.bytes));
        let w = text_width(&text);
        // On the side with room, over the point; else under it; then
        // the other side.
        let end = p.x > width * 0.7;
        let candidates = [
            (p.x, p.y + 6.0 + LABEL_ASCENT, end),
            (p.x, p.y - 6.0, !end),
            (p.x, p.y + 6.0 + LABEL_ASCENT, !end),
        ];
        let usual = (p.x, p.y - 6.0, end);
        let label = place(text, w, (usual, &candidates), &placed, (width, height));
        placed.push(label.bounds);
        label
    });
    let pinned = pinned.and_then(|c| c.peak.as_ref()).map(|p| {
        let text = format!("pinned {}", bytes_label(p.bytes));
        let w = text_width(&text);
        let above = (p.y - 3.0).max(LABEL_ASCENT);
        let below = p.y + 3.0 + LABEL_ASCENT;
        // Under the span labels' rows, when the ruler runs through them.
        let under_spans = taken
            .iter()
            .filter(|b| b.y0 < p.y + LABEL_DESCENT && b.y1 > above - LABEL_ASCENT)
            .map(|b| b.y1 + LABEL_ASCENT + 1.0)
            .fold(below, f64::max);
        let (right, left) = (width - 2.0, 2.0);
        let candidates = [
            (right, below, true),
            (left, above, false),
            (left, below, false),
            (right, under_spans, true),
            (left, under_spans, false),
        ];
        place(
            text,
            w,
            ((right, above, true), &candidates),
            &placed,
            (width, height),
        )
    });
    PeakLabels { current, pinned }
}

/// Where a label may go: its anchor's x, its baseline, and whether the
/// words end at x.
type Spot = (f64, f64, bool);

/// The first of `usual` and then `others` (x, baseline, end) whose box
/// stays in the plot (a label may rise above it by its own height, where
/// the change is written) and meets none of `taken`; else the one that
/// overlaps least, the earlier on a tie.
fn place(
    text: String,
    width: f64,
    (usual, others): (Spot, &[Spot]),
    taken: &[LabelBox],
    (plot_width, plot_height): (f64, f64),
) -> PlacedLabel {
    let boxed = |&(x, y, end): &Spot| (x, y, end, LabelBox::of_text(x, y, width, end));
    let inside = |b: &LabelBox| {
        b.x0 >= -1.0 && b.x1 <= plot_width + 1.0 && b.y1 <= plot_height + LABEL_DESCENT
    };
    let overlap = |b: &LabelBox| taken.iter().map(|t| b.overlap_area(t)).sum::<f64>();
    let candidates = || std::iter::once(&usual).chain(others).map(boxed);
    let clear = candidates().find(|(.., b)| inside(b) && overlap(b) == 0.0);
    let (x, y, end, bounds) = clear.unwrap_or_else(|| {
        candidates().fold(boxed(&usual), |best, next| {
            if overlap(&next.3) < overlap(&best.3) {
                next
            } else {
                best
            }
        })
    });
    PlacedLabel {
        text,
        x,
        y,
        end,
        bounds,
    }
}
