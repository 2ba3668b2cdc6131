//! The training charts: loss and gradient norms per step, read from the
//! trace, and placed in a plot box (linear or log scale) so the page only
//! writes the SVG.
//!
//! A step is one `backward()` that wrote gradients into `.grad` (the
//! outermost, when one runs inside another; `autograd.grad`, which leaves
//! `.grad` alone, is not a step). Its loss is the value of the output
//! backward started from
//! ([`EventKind::BackwardRoot`], when that output has one element); its
//! gradient norms are the `.grad` norms the engine reported while it ran
//! ([`EventKind::GradValue`]): one per leaf that received a gradient, and
//! their joint 2-norm, as `clip_grad_norm_` computes it. The lessons'
//! measurements read the same events (`gradscope-lessons`' `measure`).
//! NaN and infinite values are kept and marked, never dropped: a NaN loss
//! is what a learner most needs to see.

use std::collections::BTreeMap;

use crate::event::{Event, EventKind, TensorId};
use crate::follow::Fold;
use crate::memory_chart::{MemoryChart, Span};
use crate::memory_zoom::Zoom;
use crate::svg::{push_command, push_rect};

/// One value at one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The step, from 0.
    pub step: usize,
    /// The value; may be NaN or infinite.
    pub value: f64,
}

/// One leaf's gradient norm at each step that gave it a gradient.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSeries {
    /// The leaf.
    pub tensor: TensorId,
    /// Its shape.
    pub shape: Vec<usize>,
    /// The legend's name: the parameter's `named_parameters()` name
    /// (`fc1.weight [16, 1]`), or the program's name for a leaf (`w [3]`);
    /// `param 2 [16, 1]` for one never named (leaves numbered in the
    /// order they first got a gradient).
    pub label: String,
    /// The norm of its `.grad` after each step.
    pub points: Vec<Point>,
}

/// The per-step series of a whole trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainingSeries {
    /// The index of the event at which each step's backward began.
    /// (A step counts from when its backward ends; a backward that has not
    /// ended is not one yet, unless the trace ends inside it.)
    pub starts: Vec<usize>,
    /// The index of the event at which each step began: the first graph
    /// node of the forward pass its backward ran through (made since the
    /// last backward), or its backward when no node was made since. The
    /// memory view and the charts share a zoom through these
    /// ([`crate::memory_zoom::StepStretches`]).
    pub begins: Vec<usize>,
    /// The loss of each step whose backward began at a one-element output.
    pub loss: Vec<Point>,
    /// The joint 2-norm of the gradients of each step that made some.
    pub grad_norm: Vec<Point>,
    /// One series per leaf, in the order they first got a gradient.
    pub params: Vec<ParamSeries>,
}

impl TrainingSeries {
    /// The series of `events` (a whole trace, or its start).
    ///
    /// ```
    /// use gradscope_trace::{Event, EventKind};
    /// use gradscope_trace::training_charts::TrainingSeries;
    /// let ev = |seq, kind| Event { seq, time_us: 0, line: None, kind };
    /// let trace = [
    ///     ev(0, EventKind::BackwardRoot { numel: 1, value: Some(0.5) }),
    ///     ev(1, EventKind::BackwardBegan { root: 1, retain_graph: false }),
    ///     ev(2, EventKind::GradValue { tensor: 7, shape: vec![2], norm: 3.0, values: vec![] }),
    ///     ev(3, EventKind::BackwardEnded),
    /// ];
    /// let series = TrainingSeries::of(&trace);
    /// assert_eq!((series.steps(), series.loss[0].value, series.grad_norm[0].value), (1, 0.5, 3.0));
    /// ```
    pub fn of<'a>(events: impl IntoIterator<Item = &'a Event>) -> Self {
        let mut builder = TrainingBuilder::default();
        for (i, event) in events.into_iter().enumerate() {
            builder.apply(i, event);
        }
        builder.series()
    }

    /// Counts the backward `running` (begun at event `start`, its forward
    /// at `begin`, with loss `loss`) as a step if it wrote gradients into `.grad`: `autograd.grad`, which
    /// only returns them, is not a training step (lesson 3 calls it beside
    /// every `loss.backward()`).
    fn finish_step(
        &mut self,
        running: Option<Running>,
        grads: &[(TensorId, Vec<usize>, f64)],
        names: &BTreeMap<TensorId, String>,
    ) {
        let Some(Running { start, begin, loss }) = running else {
            return;
        };
        if grads.is_empty() {
            return;
        }
        let step = self.starts.len();
        self.starts.push(start);
        self.begins.push(begin);
        if let Some(value) = loss {
            self.loss.push(Point { step, value });
        }
        let mut squares = 0.0;
        for (tensor, shape, norm) in grads {
            let (tensor, norm) = (*tensor, *norm);
            squares += norm * norm;
            let point = Point { step, value: norm };
            match self.params.iter_mut().find(|p| p.tensor == tensor) {
                Some(param) => param.points.push(point),
                None => {
                    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
                    let name = names
                        .get(&tensor)
                        .cloned()
                        .unwrap_or_else(|| format!("param {}", self.params.len() + 1));
                    self.params.push(ParamSeries {
                        tensor,
                        shape: shape.to_vec(),
                        label: format!("{name} [{}]", dims.join(", ")),
                        points: vec![point],
                    });
                }
            }
        }
        self.grad_norm.push(Point {
            step,
            value: squares.sqrt(),
        });
    }

    /// How many steps began.
    pub fn steps(&self) -> usize {
        self.starts.len()
    }

    /// How many steps had begun after `position` events: the cursor's step
    /// is one less.
    pub fn steps_at(&self, position: usize) -> usize {
        self.starts.partition_point(|&start| start < position)
    }
}

/// [`TrainingSeries`] built as events are applied, so a live run's charts
/// cost the new events only.
///
/// ```
/// use gradscope_trace::{Event, EventKind};
/// use gradscope_trace::training_charts::TrainingBuilder;
/// use gradscope_trace::follow::Fold;
/// let ev = |seq, kind| Event { seq, time_us: 0, line: None, kind };
/// let mut builder = TrainingBuilder::default();
/// builder.apply(0, &ev(0, EventKind::BackwardBegan { root: 1, retain_graph: false }));
/// builder.apply(1, &ev(1, EventKind::GradValue { tensor: 7, shape: vec![2], norm: 3.0, values: vec![] }));
/// // Cut short inside its backward, the step still shows.
/// assert_eq!(builder.series().steps(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainingBuilder {
    series: TrainingSeries,
    /// The loss of the next backward, if its root had one element.
    root: Option<f64>,
    depth: usize,
    /// The outermost backward running.
    running: Option<Running>,
    /// The first graph node made outside a backward since the last step:
    /// where the next step's forward began.
    forward: Option<usize>,
    /// Its gradients so far: (leaf, shape, norm), one per leaf.
    grads: Vec<(TensorId, Vec<usize>, f64)>,
    /// Leaves' names: a parameter's `named_parameters()` name, else the
    /// program's first name for it.
    names: BTreeMap<TensorId, String>,
}

/// The outermost backward running: the event it began at, the event its
/// step began at (its forward's first node), and its loss.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Running {
    start: usize,
    begin: usize,
    loss: Option<f64>,
}

impl Fold for TrainingBuilder {
    fn apply(&mut self, index: usize, event: &Event) {
        match &event.kind {
            EventKind::NodeCreated { .. } if self.depth == 0 && self.forward.is_none() => {
                self.forward = Some(index);
            }
            EventKind::BackwardRoot { numel, value } => {
                self.root = value.filter(|_| *numel == 1);
            }
            EventKind::BackwardBegan { .. } => {
                self.depth += 1;
                if self.depth == 1 {
                    self.running = Some(Running {
                        start: index,
                        begin: self.forward.unwrap_or(index),
                        loss: self.root,
                    });
                    self.grads.clear();
                }
                self.root = None;
            }
            EventKind::GradValue {
                tensor,
                shape,
                norm,
                ..
            } if self.depth > 0 => match self.grads.iter_mut().find(|g| g.0 == *tensor) {
                Some(g) => g.2 = *norm,
                None => self.grads.push((*tensor, shape.clone(), *norm)),
            },
            EventKind::BackwardEnded if self.depth > 0 => {
                self.depth -= 1;
                if self.depth == 0 {
                    // A backward that wrote no `.grad` (`autograd.grad`)
                    // is not a step: the next one's forward is this one's.
                    if !self.grads.is_empty() {
                        self.forward = None;
                    }
                    self.series
                        .finish_step(self.running.take(), &self.grads, &self.names);
                }
            }
            EventKind::TensorNamed {
                tensor,
                node: None,
                name,
                parameter,
                ..
            } => {
                let name = parameter.as_ref().unwrap_or(name);
                self.names.entry(*tensor).or_insert_with(|| name.clone());
            }
            _ => {}
        }
    }
}

impl TrainingBuilder {
    /// The series so far; a backward still running counts as a step (the
    /// trace may end inside it: the program raised there).
    pub fn series(&self) -> TrainingSeries {
        let mut series = self.series.clone();
        series.finish_step(self.running, &self.grads, &self.names);
        series
    }
}

/// How values map to heights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    /// Evenly, from zero (or the lowest value, when negative).
    #[default]
    Linear,
    /// By powers of ten; values at or below zero cannot be placed.
    Log,
}

/// A value that cannot sit on the line, marked at the box's edge.
#[derive(Clone, Debug, PartialEq)]
pub struct OffMark {
    /// Where the mark goes.
    pub x: f64,
    /// The top edge for NaN and +inf, the bottom for -inf and (on a log
    /// scale) values at or below zero.
    pub y: f64,
    /// The step.
    pub step: usize,
    /// `NaN`, `inf`, `-inf` or `≤ 0`.
    pub label: &'static str,
}

/// One series placed in the box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlotLine {
    /// An SVG path (`d`); it breaks where values cannot be placed.
    pub path: String,
    /// The placed points, for markers, when there are few enough to mark
    /// each ([`MAX_MARKED`]); else empty.
    pub points: Vec<(f64, f64)>,
    /// Values that could not be placed.
    pub off: Vec<OffMark>,
}

/// A label on the value axis.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueTick {
    /// Vertical position.
    pub y: f64,
    /// The value, as `0.5`, `2`, `1e-3`.
    pub label: String,
}

/// A half unit of width while thinning: its key, and its lowest and
/// highest point (as placed: lowest has the greatest y).
type Bucket = (i64, (f64, f64), (f64, f64));

/// Series with more points than this get no markers (they would merge).
pub const MAX_MARKED: usize = 60;

/// Some series over the same steps, placed in a `width` by `height` box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plot {
    /// One per series, in the order given.
    pub lines: Vec<PlotLine>,
    /// Labels on the value axis, bottom first.
    pub ticks: Vec<ValueTick>,
    /// Box width.
    pub width: f64,
    /// Box height.
    pub height: f64,
    /// How many steps the horizontal axis spans.
    pub steps: usize,
    scale: Scale,
    /// The axis' ends: values (linear) or powers of ten (log).
    lo: f64,
    hi: f64,
}

impl Plot {
    /// Places `series` (all over `steps` steps) in a `width` by `height`
    /// box on `scale`; the value axis covers every placeable value.
    ///
    /// ```
    /// use gradscope_trace::training_charts::{Plot, Point, Scale};
    /// let loss = [Point { step: 0, value: 1.0 }, Point { step: 1, value: f64::NAN }];
    /// let plot = Plot::of(&[&loss], 2, Scale::Log, 100.0, 50.0);
    /// assert_eq!(plot.lines[0].off[0].label, "NaN");
    /// ```
    pub fn of(series: &[&[Point]], steps: usize, scale: Scale, width: f64, height: f64) -> Self {
        let placeable = |v: f64| v.is_finite() && (scale == Scale::Linear || v > 0.0);
        let values = series
            .iter()
            .flat_map(|s| s.iter())
            .map(|p| p.value)
            .filter(|&v| placeable(v));
        let (min, max) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let mut plot = Plot {
            width,
            height,
            steps,
            scale,
            ..Self::default()
        };
        let ticks: Vec<f64>;
        match scale {
            Scale::Linear => {
                let (lo, hi) = if min > max {
                    (0.0, 1.0)
                } else {
                    (min.min(0.0), max.max(0.0))
                };
                let step = nice_step(if hi > lo { (hi - lo) / 4.0 } else { 1.0 });
                plot.lo = (lo / step).floor() * step;
                plot.hi = ((hi / step).ceil() * step).max(plot.lo + step);
                let count = ((plot.hi - plot.lo) / step).round() as usize;
                ticks = (0..=count).map(|k| plot.lo + k as f64 * step).collect();
            }
            Scale::Log => {
                let (lo, hi) = if min > max {
                    (0.0, 1.0)
                } else {
                    (min.log10().floor(), max.log10().ceil())
                };
                plot.lo = lo;
                plot.hi = if hi > lo { hi } else { lo + 1.0 };
                let decades = (plot.hi - plot.lo) as usize;
                let every = decades.div_ceil(5).max(1);
                ticks = (0..=decades)
                    .filter(|k| k % every == 0)
                    .map(|k| 10f64.powf(plot.lo + k as f64))
                    .collect();
            }
        }
        plot.ticks = ticks
            .into_iter()
            .map(|v| ValueTick {
                y: plot.y(v),
                label: value_label(v),
            })
            .collect();
        plot.lines = series.iter().map(|s| plot.line(s)).collect();
        plot
    }

    /// The horizontal position of a step.
    pub fn step_x(&self, step: usize) -> f64 {
        if self.steps <= 1 {
            return self.width / 2.0;
        }
        step.min(self.steps - 1) as f64 / (self.steps - 1) as f64 * self.width
    }

    fn y(&self, value: f64) -> f64 {
        let at = match self.scale {
            Scale::Linear => value,
            Scale::Log => value.log10(),
        };
        self.height - (at - self.lo) / (self.hi - self.lo) * self.height
    }

    /// The path of one series, at most about two vertices per unit of
    /// width: each half unit keeps its lowest and highest point, so spikes
    /// (a loss blowing up) survive the thinning.
    fn line(&self, points: &[Point]) -> PlotLine {
        let mut line = PlotLine::default();
        let thin = points.len() > 2 * self.width.max(1.0) as usize;
        let mut kept: Vec<(f64, f64)> = Vec::new();
        let mut segment: Vec<(f64, f64)> = Vec::new();
        let mut bucket: Option<Bucket> = None;
        let flush = |bucket: &mut Option<Bucket>, segment: &mut Vec<(f64, f64)>| {
            if let Some((_, a, b)) = bucket.take() {
                // Lowest and highest in the order they came (higher y is lower).
                let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
                segment.push(first);
                if second != first {
                    segment.push(second);
                }
            }
        };
        let mut path = String::new();
        let mut end_segment = |segment: &mut Vec<(f64, f64)>, kept: &mut Vec<(f64, f64)>| {
            for (k, (x, y)) in segment.iter().enumerate() {
                push_command(&mut path, if k == 0 { 'M' } else { 'L' }, &[(*x, *y)]);
            }
            kept.append(segment);
        };
        for p in points {
            let x = self.step_x(p.step);
            let v = p.value;
            let placeable = v.is_finite() && (self.scale == Scale::Linear || v > 0.0);
            if !placeable {
                flush(&mut bucket, &mut segment);
                end_segment(&mut segment, &mut kept);
                let (y, label) = if v.is_nan() {
                    (0.0, "NaN")
                } else if v == f64::INFINITY {
                    (0.0, "inf")
                } else if v == f64::NEG_INFINITY {
                    (self.height, "-inf")
                } else {
                    (self.height, "≤ 0")
                };
                line.off.push(OffMark {
                    x,
                    y,
                    step: p.step,
                    label,
                });
                continue;
            }
            let point = (x, self.y(v));
            if !thin {
                segment.push(point);
                continue;
            }
            let key = (x * 2.0).floor() as i64;
            match &mut bucket {
                Some((k, lowest, highest)) if *k == key => {
                    if point.1 > lowest.1 {
                        *lowest = point;
                    }
                    if point.1 < highest.1 {
                        *highest = point;
                    }
                }
                _ => {
                    flush(&mut bucket, &mut segment);
                    bucket = Some((key, point, point));
                }
            }
        }
        flush(&mut bucket, &mut segment);
        end_segment(&mut segment, &mut kept);
        line.path = path;
        if points.len() <= MAX_MARKED {
            line.points = kept;
        }
        line
    }
}

/// The smallest 1, 2 or 5 times a power of ten that is at least `rough`.
fn nice_step(rough: f64) -> f64 {
    if !(rough.is_finite() && rough > 0.0) {
        return 1.0;
    }
    let scale = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * scale)
        .find(|&s| s >= rough * (1.0 - 1e-9))
        .unwrap_or(10.0 * scale)
}

/// A value as the axes and legends print it: up to three significant
/// digits, `1e-5` style when very small or large.
pub fn value_label(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if !v.is_finite() {
        return if v.is_nan() {
            "NaN".into()
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let magnitude = v.abs().log10().floor();
    if !(-3.0..5.0).contains(&magnitude) {
        let text = format!("{v:.2e}");
        // `1.00e-5` -> `1e-5`, `2.50e6` -> `2.5e6`.
        return match text.split_once('e') {
            Some((mantissa, exp)) => {
                let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
                format!("{mantissa}e{exp}")
            }
            None => text,
        };
    }
    let decimals = (2.0 - magnitude).max(0.0) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// How a line looks: its colour, dash and marker, so lines differ for
/// readers who cannot tell the colours apart (and in grey print).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineStyle {
    /// From Okabe and Ito's palette.
    pub colour: &'static str,
    /// An SVG `stroke-dasharray`; empty for solid.
    pub dash: &'static str,
    /// The marker at each point.
    pub marker: Marker,
}

/// A point's marker shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
}

/// Okabe and Ito's colours that read on white (their yellow does not).
pub const PALETTE: [&str; 7] = [
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000",
];

const DASHES: [&str; 4] = ["", "6 3", "2 2", "8 3 2 3"];
const MARKERS: [Marker; 4] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
];

/// The style of the `k`th line: 7 colours and 4 dash patterns, so the
/// first 28 lines all differ in colour and dash together, and neighbours
/// differ in both.
pub fn line_style(k: usize) -> LineStyle {
    LineStyle {
        colour: PALETTE[k % PALETTE.len()],
        dash: DASHES[k % DASHES.len()],
        marker: MARKERS[k % MARKERS.len()],
    }
}

/// One kind of span as the memory chart draws it: a single path of
/// rectangles, and labels where they fit.
#[derive(Clone, Debug, PartialEq)]
pub struct SpanLayer {
    /// The kind's label (`backward`, `no_grad`, a `record_function` name).
    pub label: String,
    /// Rectangles, `Mx0,0.0Hx1VheightHx0Z` each ([`push_rect`]), a pixel wide at least.
    pub path: String,
    /// How many rectangles (stretches after [`merge_spans`]).
    pub stretches: usize,
    /// How many spans of the trace they stand for.
    pub count: usize,
    /// Where a stretch that is one span, wide enough, prints its label:
    /// `(x, y)`, at its depth's row.
    pub labels: Vec<(f64, f64)>,
}

/// The memory chart's spans as one [`SpanLayer`] per kind, in the order
/// the kinds first appear: a lesson's 150 backward passes and 150 `no_grad`
/// validations were 600 elements the page re-placed on every memory update
/// as the axis grew; as layers they are a few paths. `label_width(label)`
/// is how wide a label prints; a label goes only on a single span at least
/// that wide (plus a margin), as many narrow ones would print over each other.
pub fn span_layers(
    spans: &[Span],
    height: f64,
    gap: f64,
    label_width: impl Fn(&str) -> f64,
) -> Vec<SpanLayer> {
    let mut layers: Vec<SpanLayer> = Vec::new();
    for (span, count) in merge_spans(spans, gap) {
        let label = span.kind.label();
        let at = match layers.iter().position(|l| l.label == label) {
            Some(at) => at,
            None => {
                layers.push(SpanLayer {
                    label: label.to_string(),
                    path: String::new(),
                    stretches: 0,
                    count: 0,
                    labels: Vec::new(),
                });
                layers.len() - 1
            }
        };
        let layer = &mut layers[at];
        let right = span.x0 + (span.x1 - span.x0).max(1.0);
        push_rect(&mut layer.path, (span.x0, 0.0), (right, height));
        layer.stretches += 1;
        layer.count += count;
        if count == 1 && span.x1 - span.x0 >= label_width(label) + 6.0 {
            layer
                .labels
                .push((span.x0 + 3.0, 10.0 + 11.0 * span.depth as f64));
        }
    }
    layers
}

/// Where a memory budget of `bytes` sits on `chart`, or `None` when it is
/// above the chart's top (the page says so in words instead).
pub fn budget_y(chart: &MemoryChart, bytes: u64) -> Option<f64> {
    if chart.top_bytes == 0 || bytes > chart.top_bytes {
        return None;
    }
    Some(chart.height - bytes as f64 / chart.top_bytes as f64 * chart.height)
}

/// The memory chart's spans with neighbours of the same kind and depth
/// joined where less than `gap` apart, each with how many it joins: a
/// training loop's thousand backward passes in a few hundred pixels draw as
/// a few tinted stretches rather than thousands of elements the browser
/// must lay out every frame, and look the same.
pub fn merge_spans(spans: &[Span], gap: f64) -> Vec<(Span, usize)> {
    let mut merged: Vec<(Span, usize)> = Vec::new();
    for span in spans {
        let last = merged
            .iter_mut()
            .rev()
            .find(|(m, _)| m.kind == span.kind && m.depth == span.depth);
        match last {
            Some((m, count)) if span.x0 - m.x1 < gap => {
                m.x1 = m.x1.max(span.x1);
                *count += 1;
            }
            _ => merged.push((span.clone(), 1)),
        }
    }
    merged
}

/// The steps a zoom shows of a run of `steps` steps: the steps whose
/// stretch of the run (step `k` spans `k/steps..(k+1)/steps`) meets the
/// zoom's, never fewer than one. The memory view's [`Zoom`] moves over the
/// run the same way, so the same keys and wheel zoom both.
///
/// ```
/// use gradscope_trace::memory_zoom::Zoom;
/// use gradscope_trace::training_charts::zoomed_steps;
/// assert_eq!(zoomed_steps(200, Zoom::WHOLE), 0..200);
/// assert_eq!(zoomed_steps(200, Zoom::new(0.25, 0.5)), 50..100);
/// // Closer than one step: that step alone.
/// assert_eq!(zoomed_steps(200, Zoom::new(0.5001, 0.5002)), 100..101);
/// ```
pub fn zoomed_steps(steps: usize, zoom: Zoom) -> std::ops::Range<usize> {
    if steps == 0 {
        return 0..0;
    }
    let n = steps as f64;
    // A hair inside each edge, so a zoom ending exactly where a step
    // begins does not show that step.
    let first = ((zoom.start * n + 1e-9).floor() as usize).min(steps - 1);
    let end = ((zoom.end * n - 1e-9).ceil() as usize).clamp(first + 1, steps);
    first..end
}

/// The zoom that shows step `step` (from 0) alone, of `steps`: what the
/// `s` key asks for at the cursor.
pub fn step_zoom(steps: usize, step: usize) -> Option<Zoom> {
    (step < steps).then(|| {
        let n = steps as f64;
        Zoom::new(step as f64 / n, (step + 1) as f64 / n)
    })
}

/// The points of `points` in `window`, their steps counted from its start,
/// so [`Plot::of`] over `window.len()` steps draws that stretch.
pub fn window_points(points: &[Point], window: &std::ops::Range<usize>) -> Vec<Point> {
    points
        .iter()
        .filter(|p| window.contains(&p.step))
        .map(|p| Point {
            step: p.step - window.start,
            value: p.value,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Category;
    use crate::memory_chart::Axis;

    fn trace(kinds: Vec<EventKind>) -> Vec<Event> {
        kinds
            .into_iter()
            .enumerate()
            .map(|(i, kind)| Event {
                seq: i as u64,
                time_us: i as u64,
                line: None,
                kind,
            })
            .collect()
    }

    fn grad(tensor: u64, norm: f64) -> EventKind {
        EventKind::GradValue {
            tensor,
            shape: vec![tensor as usize, 1],
            norm,
            values: vec![],
        }
    }

    /// One training step: loss, backward over two leaves, optimizer step.
    fn step(loss: Option<f64>, norms: [f64; 2]) -> Vec<EventKind> {
        vec![
            EventKind::BackwardRoot {
                numel: 1,
                value: loss,
            },
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            EventKind::GradAccumulated {
                tensor: 1,
                accumulated: false,
            },
            grad(1, norms[0]),
            grad(2, norms[1]),
            EventKind::BackwardEnded,
            EventKind::OptimizerStep {
                optimizer: "SGD".into(),
                updated: 2,
            },
        ]
    }

    fn values(points: &[Point]) -> Vec<(usize, f64)> {
        points.iter().map(|p| (p.step, p.value)).collect()
    }

    #[test]
    fn charts_series_per_step() {
        let mut kinds = step(Some(2.0), [3.0, 4.0]);
        kinds.extend(step(Some(1.0), [0.6, 0.8]));
        let t = trace(kinds);
        let series = TrainingSeries::of(&t);
        assert_eq!(series.steps(), 2);
        assert_eq!(series.starts, [1, 8]);
        assert_eq!(values(&series.loss), [(0, 2.0), (1, 1.0)]);
        // The joint norm: sqrt(3² + 4²) = 5, sqrt(0.6² + 0.8²) = 1.
        let norms = values(&series.grad_norm);
        assert_eq!(norms[0], (0, 5.0));
        assert!((norms[1].1 - 1.0).abs() < 1e-12);
        let labels: Vec<&str> = series.params.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels, ["param 1 [1, 1]", "param 2 [2, 1]"]);
        assert_eq!(values(&series.params[1].points), [(0, 4.0), (1, 0.8)]);
        assert_eq!(series.steps_at(0), 0);
        assert_eq!(series.steps_at(2), 1);
        assert_eq!(series.steps_at(t.len()), 2);
    }

    #[test]
    fn charts_name_parameters_as_named_parameters() {
        let named = |tensor, name: &str, parameter: Option<&str>| EventKind::TensorNamed {
            tensor,
            storage: tensor,
            node: None,
            name: name.into(),
            parameter: parameter.map(str::to_string),
        };
        let mut kinds = vec![
            named(1, "model.fc1.weight", Some("fc1.weight")),
            named(2, "w", None),
            // A later name of the same leaf keeps the first.
            named(2, "w2", None),
        ];
        kinds.extend(step(Some(2.0), [3.0, 4.0]));
        let series = TrainingSeries::of(&trace(kinds));
        let labels: Vec<&str> = series.params.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels, ["fc1.weight [1, 1]", "w [2, 1]"]);
    }

    #[test]
    fn charts_accumulating_grad_counts_its_last_norm() {
        // A leaf used twice gets two GradValue events in one backward: the
        // second is the norm of the sum, which is what `.grad` holds.
        let t = trace(vec![
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            grad(1, 1.0),
            grad(1, 2.0),
            EventKind::BackwardEnded,
        ]);
        let series = TrainingSeries::of(&t);
        assert_eq!(values(&series.grad_norm), [(0, 2.0)]);
        assert_eq!(values(&series.params[0].points), [(0, 2.0)]);
        // No BackwardRoot value: no loss point, the step still counts.
        assert!(series.loss.is_empty());
    }

    #[test]
    fn charts_autograd_grad_is_not_a_step() {
        // Lesson 3: autograd.grad(loss, ...) then loss.backward() each step.
        let mut kinds = Vec::new();
        for loss in [2.0, 1.0] {
            kinds.extend([
                EventKind::BackwardRoot {
                    numel: 1,
                    value: Some(loss),
                },
                EventKind::BackwardBegan {
                    root: 1,
                    retain_graph: true,
                },
                EventKind::GradCaptured {
                    input: 0,
                    shape: vec![1],
                    norm: 9.0,
                    values: vec![],
                },
                EventKind::BackwardEnded,
            ]);
            kinds.extend(step(Some(loss), [3.0, 4.0]));
        }
        let series = TrainingSeries::of(&trace(kinds));
        assert_eq!(values(&series.loss), [(0, 2.0), (1, 1.0)]);
        assert_eq!(values(&series.grad_norm), [(0, 5.0), (1, 5.0)]);
        // The steps begin at the backward() calls, not at autograd.grad.
        assert_eq!(series.starts, [5, 16]);
    }

    #[test]
    fn charts_nested_backward_is_one_step_and_non_scalar_roots_have_no_loss() {
        let t = trace(vec![
            EventKind::BackwardRoot {
                numel: 4,
                value: None,
            },
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: true,
            },
            EventKind::BackwardRoot {
                numel: 1,
                value: Some(9.0),
            },
            EventKind::BackwardBegan {
                root: 2,
                retain_graph: false,
            },
            grad(1, 1.0),
            EventKind::BackwardEnded,
            EventKind::BackwardEnded,
        ]);
        let series = TrainingSeries::of(&t);
        assert_eq!(series.steps(), 1);
        assert!(series.loss.is_empty());
        assert_eq!(values(&series.grad_norm), [(0, 1.0)]);
    }

    #[test]
    fn charts_keep_nan_and_cut_short_backward() {
        let mut kinds = step(Some(f64::NAN), [f64::NAN, 1.0]);
        kinds.extend(step(Some(f64::INFINITY), [1.0, 1.0]));
        // The program raised inside the third backward.
        kinds.extend(vec![
            EventKind::BackwardRoot {
                numel: 1,
                value: Some(3.0),
            },
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            grad(1, 7.0),
        ]);
        let series = TrainingSeries::of(&trace(kinds));
        assert!(series.loss[0].value.is_nan());
        assert_eq!(series.loss[1].value, f64::INFINITY);
        assert!(series.grad_norm[0].value.is_nan());
        assert_eq!(series.steps(), 3);
        assert_eq!(
            series.grad_norm[2],
            Point {
                step: 2,
                value: 7.0
            }
        );
    }

    #[test]
    fn charts_empty_trace() {
        let series = TrainingSeries::of(&[]);
        assert_eq!(series, TrainingSeries::default());
        let plot = Plot::of(&[&series.loss], 0, Scale::Log, 100.0, 50.0);
        assert!(plot.lines[0].path.is_empty());
        assert_eq!(plot.ticks.len(), 2);
    }

    fn pts(values: &[f64]) -> Vec<Point> {
        values
            .iter()
            .enumerate()
            .map(|(step, &value)| Point { step, value })
            .collect()
    }

    #[test]
    fn charts_linear_plot() {
        let loss = pts(&[4.0, 2.0, 1.0]);
        let plot = Plot::of(&[&loss], 3, Scale::Linear, 100.0, 40.0);
        // 0..4 in steps of 1.
        let labels: Vec<&str> = plot.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0", "1", "2", "3", "4"]);
        assert_eq!(plot.lines[0].path, "M0.0,0.0L50.0,20.0L100.0,30.0");
        assert_eq!(plot.lines[0].points.len(), 3);
        assert!(plot.lines[0].off.is_empty());
        assert_eq!(plot.step_x(1), 50.0);
    }

    #[test]
    fn charts_log_plot_and_off_scale_values() {
        let loss = pts(&[100.0, 1.0, 0.0, f64::NAN, 0.01, f64::NEG_INFINITY]);
        let plot = Plot::of(&[&loss], 6, Scale::Log, 100.0, 40.0);
        let labels: Vec<&str> = plot.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0.01", "0.1", "1", "10", "100"]);
        let line = &plot.lines[0];
        // Broken at 0 and NaN: two segments.
        assert_eq!(line.path, "M0.0,0.0L20.0,20.0M80.0,40.0");
        let off: Vec<(usize, &str, f64)> =
            line.off.iter().map(|m| (m.step, m.label, m.y)).collect();
        assert_eq!(off, [(2, "≤ 0", 40.0), (3, "NaN", 0.0), (5, "-inf", 40.0)]);
        // The same on a linear scale: zero is placed, NaN and -inf are not.
        let plot = Plot::of(&[&loss], 6, Scale::Linear, 100.0, 40.0);
        let labels: Vec<&str> = plot.lines[0].off.iter().map(|m| m.label).collect();
        assert_eq!(labels, ["NaN", "-inf"]);
    }

    #[test]
    fn charts_log_ticks_thin_over_many_decades() {
        let values = pts(&[1e-8, 1e4]);
        let plot = Plot::of(&[&values], 2, Scale::Log, 100.0, 40.0);
        let labels: Vec<&str> = plot.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["1e-8", "1e-5", "0.01", "10", "10000"]);
        assert!(plot.ticks.len() <= 6);
    }

    #[test]
    fn charts_negative_values_on_linear_scale() {
        let values = pts(&[-3.0, 1.0]);
        let plot = Plot::of(&[&values], 2, Scale::Linear, 100.0, 40.0);
        assert_eq!(plot.ticks.first().map(|t| t.label.as_str()), Some("-3"));
        assert_eq!(plot.ticks.last().map(|t| t.label.as_str()), Some("1"));
        assert_eq!(plot.lines[0].path, "M0.0,40.0L100.0,0.0");
    }

    #[test]
    fn charts_thin_long_series_keeping_spikes() {
        let mut values = vec![1.0; 20_000];
        values[12_345] = 50.0;
        let loss = pts(&values);
        let plot = Plot::of(&[&loss], loss.len(), Scale::Linear, 200.0, 40.0);
        let line = &plot.lines[0];
        let vertices = line.path.matches(['M', 'L']).count();
        assert!(vertices <= 2 * 401, "{vertices} vertices");
        let spike = format!(",{:.1}", plot.y(50.0));
        assert!(line.path.contains(&spike), "spike lost");
        assert!(line.points.is_empty(), "too many points to mark");
    }

    #[test]
    fn charts_single_step_sits_in_the_middle() {
        let loss = pts(&[1.0]);
        let plot = Plot::of(&[&loss], 1, Scale::Linear, 80.0, 40.0);
        assert_eq!(plot.lines[0].path, "M40.0,0.0");
    }

    #[test]
    fn charts_value_labels() {
        assert_eq!(value_label(0.0), "0");
        assert_eq!(value_label(0.5), "0.5");
        assert_eq!(value_label(2.0), "2");
        assert_eq!(value_label(1234.4), "1234");
        assert_eq!(value_label(0.012345), "0.0123");
        assert_eq!(value_label(1e-5), "1e-5");
        assert_eq!(value_label(2.5e6), "2.5e6");
        assert_eq!(value_label(f64::NAN), "NaN");
        assert_eq!(value_label(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn charts_line_styles_differ() {
        let mut seen = std::collections::HashSet::new();
        for k in 0..28 {
            let style = line_style(k);
            assert!(seen.insert((style.colour, style.dash)), "line {k} repeats");
            if k > 0 {
                let before = line_style(k - 1);
                assert_ne!(style.colour, before.colour);
                assert_ne!(style.dash, before.dash);
                assert_ne!(style.marker, before.marker);
            }
        }
    }

    #[test]
    fn charts_merge_narrow_spans() {
        use crate::memory_chart::SpanKind;
        let span = |kind: SpanKind, x0: f64, x1: f64| Span {
            kind,
            x0,
            x1,
            depth: 0,
        };
        let no_grad = || SpanKind::GradMode("no_grad".into());
        // Backward and no_grad alternate, 0.5 apart: each kind joins up.
        let spans = vec![
            span(SpanKind::Backward, 0.0, 0.2),
            span(no_grad(), 0.3, 0.4),
            span(SpanKind::Backward, 0.5, 0.7),
            span(no_grad(), 0.8, 0.9),
            span(SpanKind::Backward, 5.0, 6.0),
        ];
        let joined = merge_spans(&spans, 1.0);
        let merged: Vec<(&str, f64, f64, usize)> = joined
            .iter()
            .map(|(s, n)| (s.kind.label(), s.x0, s.x1, *n))
            .collect();
        assert_eq!(
            merged,
            [
                ("backward", 0.0, 0.7, 2),
                ("no_grad", 0.3, 0.9, 2),
                ("backward", 5.0, 6.0, 1),
            ]
        );
        // Wide apart, nothing joins.
        assert_eq!(merge_spans(&spans, 0.05).len(), 5);
        // Different depths never join.
        let nested = vec![
            span(SpanKind::Backward, 0.0, 1.0),
            Span {
                depth: 1,
                ..span(SpanKind::Backward, 1.0, 2.0)
            },
        ];
        assert_eq!(merge_spans(&nested, 1.0).len(), 2);
    }

    #[test]
    fn spans_drawn_as_one_layer_per_kind() {
        use crate::memory_chart::SpanKind;
        let span = |kind: SpanKind, x0: f64, x1: f64, depth: usize| Span {
            kind,
            x0,
            x1,
            depth,
        };
        let no_grad = || SpanKind::GradMode("no_grad".into());
        let spans = vec![
            span(SpanKind::Backward, 0.0, 0.2, 0),
            span(no_grad(), 0.3, 0.4, 0),
            span(SpanKind::Backward, 0.5, 0.7, 0),
            span(SpanKind::Backward, 10.0, 80.0, 0),
            span(no_grad(), 20.0, 30.0, 1),
        ];
        let layers = span_layers(&spans, 50.0, 1.0, |label| 6.0 * label.len() as f64);
        let summary: Vec<(&str, usize, usize, usize)> = layers
            .iter()
            .map(|l| (l.label.as_str(), l.stretches, l.count, l.labels.len()))
            .collect();
        // Two close passes join, and of backward's only the wide one is
        // labelled; "no_grad" (42 + 6) fits neither of its spans, at any depth.
        assert_eq!(summary, [("backward", 2, 3, 1), ("no_grad", 2, 2, 0)]);
        assert_eq!(layers[0].labels, [(13.0, 10.0)]);
        // A stretch narrower than a pixel is drawn a pixel wide.
        assert_eq!(
            layers[0].path,
            "M0.0,0.0H1.0V50.0H0.0ZM10.0,0.0H80.0V50.0H10.0Z"
        );
        assert!(span_layers(&[], 50.0, 1.0, |_| 0.0).is_empty());
    }

    #[test]
    fn charts_budget_line_on_memory_chart() {
        let t = trace(vec![EventKind::StorageAllocated {
            storage: 1,
            bytes: 600,
            device: "cpu".into(),
            category: Category::Other,
        }]);
        let chart = MemoryChart::of(&t, Axis::Events, 100.0, 50.0);
        assert_eq!(chart.top_bytes, 1000);
        assert_eq!(budget_y(&chart, 500), Some(25.0));
        assert_eq!(budget_y(&chart, 1000), Some(0.0));
        assert_eq!(budget_y(&chart, 1001), None);
    }

    #[test]
    fn training_zoom_windows_the_steps() {
        use crate::memory_zoom::Zoom;
        // Every zoom the keys can reach shows at least one step, within the run.
        let mut zoom = Zoom::WHOLE;
        for _ in 0..40 {
            zoom = zoom.zoom_at(1.5, 0.7);
            let w = zoomed_steps(7, zoom);
            assert!(!w.is_empty() && w.end <= 7, "{zoom:?}: {w:?}");
        }
        assert_eq!(zoomed_steps(7, zoom), 4..5);
        assert_eq!(zoomed_steps(0, Zoom::WHOLE), 0..0);
        assert_eq!(zoomed_steps(1, Zoom::new(0.9, 1.0)), 0..1);
        // Half the run: the steps in that half, and the one it cuts.
        assert_eq!(zoomed_steps(5, Zoom::new(0.0, 0.5)), 0..3);
        assert_eq!(zoomed_steps(4, Zoom::new(0.5, 1.0)), 2..4);
        // `s` at a step shows exactly that step.
        for k in 0..9 {
            let z = step_zoom(9, k).unwrap_or_default();
            assert_eq!(zoomed_steps(9, z), k..k + 1);
        }
        assert_eq!(step_zoom(9, 9), None);
        // The points in the window, counted from its start.
        let points: Vec<Point> = (0..6)
            .filter(|s| s % 2 == 0)
            .map(|step| Point {
                step,
                value: step as f64 * 10.0,
            })
            .collect();
        assert_eq!(
            window_points(&points, &(1..5)),
            [
                Point {
                    step: 1,
                    value: 20.0
                },
                Point {
                    step: 3,
                    value: 40.0
                }
            ]
        );
        assert!(window_points(&points, &(5..6)).is_empty());
    }

    fn node() -> EventKind {
        EventKind::NodeCreated {
            node: 1,
            name: "MulBackward0".into(),
            sequence_nr: 1,
            next: vec![],
            saved: vec![],
            leaf: None,
        }
    }

    /// `steps` steps of `optimizer.zero_grad(); loss = f(x);
    /// loss.backward(); optimizer.step()`, after two events of setup: a
    /// forward of two nodes, a backward giving one leaf its gradient.
    fn loop_trace(steps: usize) -> Vec<Event> {
        let mut kinds = vec![
            EventKind::OpCalled {
                op: "randn".into(),
                shape: vec![],
            },
            EventKind::OpCalled {
                op: "randn".into(),
                shape: vec![],
            },
        ];
        for k in 0..steps {
            kinds.extend([
                EventKind::ZeroGrad { set_to_none: true },
                node(),
                node(),
                EventKind::BackwardRoot {
                    numel: 1,
                    value: Some(1.0 / (k + 1) as f64),
                },
                EventKind::BackwardBegan {
                    root: 1,
                    retain_graph: false,
                },
                grad(1, 1.0),
                EventKind::BackwardEnded,
                EventKind::OptimizerStep {
                    optimizer: "SGD".into(),
                    updated: 1,
                },
            ]);
        }
        trace(kinds)
    }

    #[test]
    fn training_steps_begin_at_their_forward() {
        let series = TrainingSeries::of(&loop_trace(3));
        // Each step's first node (events 3, 11, 19), its backward 3 later.
        assert_eq!(series.begins, [3, 11, 19]);
        assert_eq!(series.starts, [6, 14, 22]);
        // `autograd.grad` between the forward and `backward()` writes no
        // `.grad`: the step still begins at the forward's first node; a
        // backward with no node made since begins its own step.
        let series = TrainingSeries::of(&trace(vec![
            node(),
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: true,
            },
            EventKind::BackwardEnded,
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: true,
            },
            grad(1, 1.0),
            EventKind::BackwardEnded,
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            grad(1, 2.0),
            EventKind::BackwardEnded,
        ]));
        assert_eq!((series.begins, series.starts), (vec![0, 6], vec![3, 6]));
    }

    #[test]
    fn training_zoom_is_the_memory_views() {
        use crate::memory_chart::MemoryRecord;
        use crate::memory_zoom::{SharedZoom, StepStretches};
        let events = loop_trace(5);
        let record = MemoryRecord::of(&events);
        let series = TrainingSeries::of(&events);
        let chart = MemoryChart::of_record(&record, Axis::Events, 400.0, 90.0);
        let steps = StepStretches::new(&series.begins, events.len(), series.steps());
        for k in 0..5 {
            // `s` in the memory view at the cursor in step k (its
            // backward's end): the charts show step k alone.
            let cursor = series.starts[k] + 2;
            let memory = chart.step_zoom(&record, cursor).unwrap_or_default();
            let shared = SharedZoom::of_events(memory, events.len());
            assert_eq!(
                zoomed_steps(5, steps.steps_zoom(shared)),
                k..k + 1,
                "{shared:?}"
            );
            // `s` in the charts at step k: the memory view shows the
            // events of that step, as its own `s` does.
            let charts = step_zoom(5, k).unwrap_or_default();
            let shown = steps.shared(charts).events_zoom(events.len());
            assert!(
                (shown.start - memory.start).abs() < 1e-12
                    && (shown.end - memory.end).abs() < 1e-12,
                "step {k}: {shown:?} against {memory:?}"
            );
        }
        // Both views at the whole run.
        assert_eq!(steps.shared(Zoom::WHOLE), SharedZoom::Whole);
        assert_eq!(steps.steps_zoom(SharedZoom::Whole), Zoom::WHOLE);
    }
}
