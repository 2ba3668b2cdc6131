//! What the chart marks of a training step: the stretches (backward,
//! grad modes, recomputation) and the instants (forward, backward, step,
//! zero_grad), placed on a chart's axis.

use super::{MemoryChart, MemoryRecord};

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

impl MemoryChart {
    /// Each kind's marks, placed; one closer than `gap` to the last one
    /// drawn of its kind joins it.
    pub(super) fn markers_of(&self, record: &MemoryRecord, gap: f64) -> Vec<Markers> {
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
    pub(super) fn spans_of(&self, record: &MemoryRecord) -> Vec<Span> {
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
