//! Zoom of the memory view: which stretch of the run its horizontal axis
//! shows, from the whole run down to one training step or a few events,
//! as fractions of the run's extent (events or time), so the wheel, a
//! drag and the keys only move two numbers and the chart is drawn anew
//! for the stretch shown (`MemoryChart::of_ledger_zoomed`).
//!
//! The memory view and the training charts show one stretch of the run:
//! [`SharedZoom`] holds it in events applied, and each view reads it on
//! its own axis, the memory view's events or time
//! ([`SharedZoom::events_zoom`], [`SharedZoom::time_zoom`]) and the
//! charts' steps ([`StepStretches`]); zooming either sets it, so zooming
//! the memory view to a step shows that step's loss, and zooming the
//! charts moves the memory view.

use crate::log::EventList;

/// The stretch shown: from `start` to `end`, fractions of the axis'
/// extent, `0 <= start < end <= 1`.
///
/// ```
/// use gradscope_trace::memory_zoom::Zoom;
/// // Twice as close about the middle of the view: the middle half.
/// let z = Zoom::WHOLE.zoom_at(2.0, 0.5);
/// assert_eq!((z.start, z.end), (0.25, 0.75));
/// // What was under the pointer stays under it.
/// let z = Zoom::WHOLE.zoom_at(4.0, 0.2);
/// assert!((z.fraction_at(0.2) - 0.2).abs() < 1e-12);
/// // Panned past the end, it stops there.
/// assert_eq!(z.pan(10.0).end, 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zoom {
    /// The left edge.
    pub start: f64,
    /// The right edge.
    pub end: f64,
}

impl Default for Zoom {
    fn default() -> Self {
        Self::WHOLE
    }
}

/// The narrowest stretch: a millionth of the run (one event of a
/// 112,000-event loop is about nine).
pub const MIN_WIDTH: f64 = 1e-6;
/// How much one zoom step (a wheel notch, a key) narrows or widens.
pub const ZOOM_STEP: f64 = 1.5;
/// How far one arrow key pans, in widths of the stretch shown.
pub const PAN_STEP: f64 = 0.2;

impl Zoom {
    /// The whole run.
    pub const WHOLE: Zoom = Zoom {
        start: 0.0,
        end: 1.0,
    };

    /// The stretch from `start` to `end`, made valid: ordered, within the
    /// run, at least [`MIN_WIDTH`] wide.
    pub fn new(start: f64, end: f64) -> Zoom {
        let (start, end) = if start <= end {
            (start, end)
        } else {
            (end, start)
        };
        let (start, end) = (start.clamp(0.0, 1.0), end.clamp(0.0, 1.0));
        if !(start.is_finite() && end.is_finite()) {
            return Zoom::WHOLE;
        }
        let width = (end - start).max(MIN_WIDTH);
        let start = start.min(1.0 - width);
        Zoom {
            start,
            end: start + width,
        }
    }

    /// How much of the run is shown.
    pub fn width(&self) -> f64 {
        self.end - self.start
    }

    /// Whether the whole run is shown.
    pub fn is_whole(&self) -> bool {
        self.start <= 0.0 && self.end >= 1.0
    }

    /// The fraction of the run at `view` (0 the left edge, 1 the right).
    pub fn fraction_at(&self, view: f64) -> f64 {
        self.start + view * self.width()
    }

    /// Where the run's fraction `f` is in the view (outside 0..1 when not
    /// shown).
    pub fn view_at(&self, f: f64) -> f64 {
        (f - self.start) / self.width()
    }

    /// `factor` times closer (below 1: farther) about the view's point
    /// `at` (0..1), which stays where it is; never wider than the run.
    pub fn zoom_at(self, factor: f64, at: f64) -> Zoom {
        if !(factor.is_finite() && factor > 0.0) {
            return self;
        }
        let at = at.clamp(0.0, 1.0);
        let pivot = self.fraction_at(at);
        let width = (self.width() / factor).clamp(MIN_WIDTH, 1.0);
        let start = (pivot - at * width).clamp(0.0, 1.0 - width);
        Zoom {
            start,
            end: start + width,
        }
    }

    /// Moved by `by` widths of the stretch (negative: left), stopping at
    /// the run's ends.
    pub fn pan(self, by: f64) -> Zoom {
        let width = self.width();
        let start = (self.start + by * width).clamp(0.0, 1.0 - width);
        Zoom {
            start,
            end: start + width,
        }
    }
}

/// The stretch of the run the memory view and the training charts both
/// show, in events applied (position `p`: `p` events applied; between
/// two whole numbers, part way through an event's stretch of the axis),
/// so that a view over a run still recording, or a view a few events
/// behind another, shows the same events.
///
/// ```
/// use gradscope_trace::memory_zoom::{SharedZoom, Zoom};
/// // The memory view of a 200-event run, zoomed to its second quarter.
/// let shared = SharedZoom::of_events(Zoom::new(0.25, 0.5), 200);
/// assert_eq!(shared, SharedZoom::Events { start: 50.0, end: 100.0 });
/// // The same events, once the run has recorded 400.
/// assert_eq!(shared.events_zoom(400), Zoom::new(0.125, 0.25));
/// assert_eq!(SharedZoom::of_events(Zoom::WHOLE, 200), SharedZoom::Whole);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum SharedZoom {
    /// The whole run, however long it grows.
    #[default]
    Whole,
    /// From `start` to `end` events applied.
    Events {
        /// The left edge.
        start: f64,
        /// The right edge.
        end: f64,
    },
}

impl SharedZoom {
    /// What a view whose axis spans `events` events shows at `zoom`.
    pub fn of_events(zoom: Zoom, events: usize) -> SharedZoom {
        if zoom.is_whole() || events == 0 {
            return SharedZoom::Whole;
        }
        let n = events as f64;
        SharedZoom::Events {
            start: zoom.start * n,
            end: zoom.end * n,
        }
    }

    /// The zoom of a view whose axis spans `events` events.
    pub fn events_zoom(self, events: usize) -> Zoom {
        match self {
            SharedZoom::Events { start, end } if events > 0 => {
                let n = events as f64;
                Zoom::new(start / n, end / n)
            }
            _ => Zoom::WHOLE,
        }
    }

    /// What a view on the time axis, `end_time_us` microseconds wide,
    /// shows at `zoom`, over the events of `log`: each edge at the
    /// position whose time it is ([`time_at`] run backwards: the first
    /// position that reaches it).
    pub fn of_time<L: EventList + ?Sized>(zoom: Zoom, log: &L, end_time_us: u64) -> SharedZoom {
        if zoom.is_whole() || end_time_us == 0 || log.count() == 0 {
            return SharedZoom::Whole;
        }
        let at = |f: f64| position_at_time(log, f * end_time_us as f64);
        SharedZoom::Events {
            start: at(zoom.start),
            end: at(zoom.end),
        }
    }

    /// The zoom of a view on the time axis, `end_time_us` microseconds
    /// wide, over the events of `log`.
    pub fn time_zoom<L: EventList + ?Sized>(self, log: &L, end_time_us: u64) -> Zoom {
        match self {
            SharedZoom::Events { start, end } if end_time_us > 0 => {
                let t = end_time_us as f64;
                Zoom::new(time_at(log, start) / t, time_at(log, end) / t)
            }
            _ => Zoom::WHOLE,
        }
    }
}

/// The time (microseconds) at `position` on the time axis: 0 before any
/// event, then the time of the last event applied, going straight from
/// one event's time to the next between whole positions (as the time
/// axis places the cursor: at the time of the last event applied).
pub fn time_at<L: EventList + ?Sized>(log: &L, position: f64) -> f64 {
    let n = log.count();
    let position = position.clamp(0.0, n as f64);
    let whole = position.floor() as usize;
    let at = |p: usize| {
        p.checked_sub(1)
            .and_then(|i| log.event(i))
            .map_or(0.0, |e| e.time_us as f64)
    };
    let (t0, t1) = (at(whole), at((whole + 1).min(n)));
    t0 + (position - whole as f64) * (t1 - t0).max(0.0)
}

/// The first position at which [`time_at`] reaches `time` (the run's
/// end when it never does): a binary search, so a zoom on a 100,000-event
/// run costs a few dozen event reads.
fn position_at_time<L: EventList + ?Sized>(log: &L, time: f64) -> f64 {
    let n = log.count();
    let at = |p: usize| time_at(log, p as f64);
    if time <= 0.0 {
        return 0.0;
    }
    // The first whole position whose time reaches `time`.
    let (mut lo, mut hi) = (0, n);
    if at(n) < time {
        return n as f64;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if at(mid) < time {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let (t0, t1) = (at(lo.saturating_sub(1)), at(lo));
    if lo == 0 || t1 <= t0 {
        return lo as f64;
    }
    (lo - 1) as f64 + (time - t0) / (t1 - t0)
}

/// Where each training step lies among the run's events, so that the
/// training charts' zoom (fractions of the steps: step `k` of `n` is
/// `k/n..(k+1)/n`, as `training_charts::zoomed_steps` reads it) and a
/// [`SharedZoom`] convert both ways: step `k` is the events from where it
/// began to where the next began (the last to the run's end), and within
/// a step the two axes go in proportion. The events before the first step
/// (the program's setup) read as where that step begins.
///
/// ```
/// use gradscope_trace::memory_zoom::{SharedZoom, StepStretches, Zoom};
/// // Four steps of a 100-event run, beginning at events 10, 30, 50 and 70.
/// let steps = StepStretches::new(&[10, 30, 50, 70], 100, 4);
/// // The memory view shows events 30 to 50: the charts show the second step.
/// let shared = SharedZoom::Events { start: 30.0, end: 50.0 };
/// assert_eq!(steps.steps_zoom(shared), Zoom::new(0.25, 0.5));
/// // The charts show the last two steps: the memory view, events 50 to 100.
/// assert_eq!(steps.shared(Zoom::new(0.5, 1.0)), SharedZoom::Events { start: 50.0, end: 100.0 });
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepStretches {
    /// `steps + 1` positions, rising: where each step begins, then the end.
    bounds: Vec<f64>,
}

impl StepStretches {
    /// The stretches of steps that began at the events `begins` (each
    /// step's first event: `TrainingSeries::begins`) in a run of `events`
    /// events, on charts that span `steps` steps. Charts that span more
    /// steps than the run made (a longer pinned run shares their axis)
    /// give the steps past its end the run's mean step length.
    pub fn new(begins: &[usize], events: usize, steps: usize) -> StepStretches {
        let own = begins.len();
        let steps = steps.max(own);
        if steps == 0 {
            return StepStretches::default();
        }
        let mut bounds = Vec::with_capacity(steps + 1);
        bounds.push(begins.first().map_or(0.0, |&b| b as f64));
        // Each bound at least an event past the one before: the two axes
        // then go both ways (a view behind the charts' log may not hold
        // a step's first event yet).
        let mut push = |bound: f64| {
            let last = bounds.last().copied().unwrap_or(0.0);
            bounds.push(bound.max(last + 1.0));
        };
        for &begin in begins.iter().skip(1) {
            push(begin as f64);
        }
        if own > 0 {
            push(events as f64);
        }
        let last = bounds.last().copied().unwrap_or(0.0);
        let mean = if own > 0 {
            last / own as f64
        } else {
            (events.max(1) as f64) / steps as f64
        };
        while bounds.len() <= steps {
            let last = bounds.last().copied().unwrap_or(0.0);
            bounds.push(last + mean);
        }
        StepStretches { bounds }
    }

    /// How many steps the charts span.
    pub fn steps(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    /// The charts' zoom that shows the events `shared` does.
    pub fn steps_zoom(&self, shared: SharedZoom) -> Zoom {
        match shared {
            SharedZoom::Events { start, end } if self.steps() > 0 => {
                Zoom::new(self.fraction_at(start), self.fraction_at(end))
            }
            _ => Zoom::WHOLE,
        }
    }

    /// The events the charts show at `zoom`.
    pub fn shared(&self, zoom: Zoom) -> SharedZoom {
        if zoom.is_whole() || self.steps() == 0 {
            return SharedZoom::Whole;
        }
        SharedZoom::Events {
            start: self.position_at(zoom.start),
            end: self.position_at(zoom.end),
        }
    }

    /// The fraction of the steps at event position `position`.
    fn fraction_at(&self, position: f64) -> f64 {
        let n = self.steps();
        let Some(&last) = self.bounds.last() else {
            return 0.0;
        };
        if position >= last {
            return 1.0;
        }
        if position <= self.bounds[0] {
            return 0.0;
        }
        // The step whose stretch holds `position`.
        let k = self.bounds.partition_point(|&b| b <= position).max(1) - 1;
        let (b0, b1) = (self.bounds[k], self.bounds[k + 1]);
        let within = ((position - b0) / (b1 - b0)).clamp(0.0, 1.0);
        (k as f64 + within) / n as f64
    }

    /// The event position at the steps' fraction `fraction`.
    fn position_at(&self, fraction: f64) -> f64 {
        let n = self.steps();
        let at = fraction.clamp(0.0, 1.0) * n as f64;
        let k = (at.floor() as usize).min(n.saturating_sub(1));
        match (self.bounds.get(k), self.bounds.get(k + 1)) {
            (Some(&b0), Some(&b1)) => b0 + (at - k as f64) * (b1 - b0),
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_keeps_the_point_under_the_pointer() {
        let mut z = Zoom::WHOLE;
        for _ in 0..20 {
            z = z.zoom_at(ZOOM_STEP, 0.3);
            assert!((z.fraction_at(0.3) - 0.3).abs() < 1e-9, "{z:?}");
        }
        assert!(z.width() < 1e-3);
        // Out again as far as the whole run, not past it.
        for _ in 0..40 {
            z = z.zoom_at(1.0 / ZOOM_STEP, 0.3);
        }
        assert_eq!(z, Zoom::WHOLE);
        assert!(z.is_whole());
    }

    #[test]
    fn zoom_stops_at_its_narrowest_and_the_run_ends() {
        let z = Zoom::WHOLE.zoom_at(1e9, 1.0);
        assert!((z.width() - MIN_WIDTH).abs() < 1e-15 && z.end == 1.0);
        let z = Zoom::new(0.4, 0.6);
        let left = z.pan(-5.0);
        assert!(
            left.start == 0.0 && (left.end - 0.2).abs() < 1e-12,
            "{left:?}"
        );
        let panned = z.pan(PAN_STEP);
        assert!((panned.start - 0.44).abs() < 1e-12);
        assert!((z.view_at(0.5) - 0.5).abs() < 1e-12);
        // Made valid: ordered, inside the run, not empty.
        assert_eq!(Zoom::new(0.9, 0.1), Zoom::new(0.1, 0.9));
        assert_eq!(Zoom::new(-1.0, 2.0), Zoom::WHOLE);
        let thin = Zoom::new(1.0, 1.0);
        assert!(thin.end == 1.0 && (thin.width() - MIN_WIDTH).abs() < 1e-15);
        assert_eq!(Zoom::new(f64::NAN, 0.5), Zoom::WHOLE);
    }

    fn close(a: Zoom, b: Zoom) -> bool {
        (a.start - b.start).abs() < 1e-9 && (a.end - b.end).abs() < 1e-9
    }

    #[test]
    fn shared_zoom_round_trips_through_steps() {
        // Steps beginning at events 0, 4, 20 and 21 of 40: unequal stretches.
        let steps = StepStretches::new(&[0, 4, 20, 21], 40, 4);
        assert_eq!(steps.steps(), 4);
        let mut zoom = Zoom::WHOLE;
        for k in 0..30 {
            zoom = zoom
                .zoom_at(ZOOM_STEP, 0.37)
                .pan(if k % 2 == 0 { 0.3 } else { -0.2 });
            let back = steps.steps_zoom(steps.shared(zoom));
            assert!(close(back, zoom), "{zoom:?} came back as {back:?}");
        }
        // Within a step, in proportion: half of step 1 (events 4 to 20).
        assert_eq!(
            steps.shared(Zoom::new(0.25, 0.375)),
            SharedZoom::Events {
                start: 4.0,
                end: 12.0
            }
        );
        // The first step from where it began.
        let first = SharedZoom::Events {
            start: 0.0,
            end: 4.0,
        };
        assert_eq!(steps.steps_zoom(first), Zoom::new(0.0, 0.25));
        // Setup before the first step reads as where it begins: the
        // charts show the first step, and zoomed from the charts the
        // memory view starts at it.
        let late = StepStretches::new(&[6, 10], 20, 2);
        let setup = SharedZoom::Events {
            start: 1.0,
            end: 3.0,
        };
        assert_eq!(late.steps_zoom(setup), Zoom::new(0.0, MIN_WIDTH));
        assert_eq!(
            late.shared(Zoom::new(0.0, 0.5)),
            SharedZoom::Events {
                start: 6.0,
                end: 10.0
            }
        );
    }

    #[test]
    fn shared_zoom_past_the_runs_steps() {
        // A pinned run of 6 steps shares the charts with this 3-step one
        // of 30 events: the steps past its end are 10 events each.
        let steps = StepStretches::new(&[2, 10, 20], 30, 6);
        assert_eq!(
            steps.shared(Zoom::new(0.5, 1.0)),
            SharedZoom::Events {
                start: 30.0,
                end: 60.0
            }
        );
        // So the memory view of this run, 30 events, shows its end.
        assert_eq!(steps.shared(Zoom::new(0.5, 1.0)).events_zoom(30).end, 1.0);
        // A run with no steps on charts of 4 steps: even stretches.
        let none = StepStretches::new(&[], 8, 4);
        assert_eq!(
            none.shared(Zoom::new(0.25, 0.5)),
            SharedZoom::Events {
                start: 2.0,
                end: 4.0
            }
        );
        // No steps at all: nothing to zoom.
        assert_eq!(
            StepStretches::new(&[], 8, 0).shared(Zoom::new(0.2, 0.4)),
            SharedZoom::Whole
        );
        // A view behind the charts' log (a step began at event 12 of a
        // 10-event view): the bounds still rise.
        let behind = StepStretches::new(&[0, 12], 10, 2);
        assert_eq!(
            behind.steps_zoom(SharedZoom::Events {
                start: 0.0,
                end: 12.0
            }),
            Zoom::new(0.0, 0.5)
        );
    }

    #[test]
    fn shared_zoom_on_the_time_axis() {
        use crate::event::{Event, EventKind};
        // Events at 100, 100, 300 and 700 us.
        let log: Vec<Event> = [100, 100, 300, 700]
            .into_iter()
            .enumerate()
            .map(|(i, time_us)| Event {
                seq: i as u64,
                time_us,
                line: None,
                kind: EventKind::BackwardEnded,
            })
            .collect();
        let log = log.as_slice();
        assert_eq!(time_at(log, 0.0), 0.0);
        assert_eq!(time_at(log, 0.5), 50.0);
        assert_eq!(time_at(log, 2.0), 100.0);
        assert_eq!(time_at(log, 3.5), 500.0);
        // 200 us to 500 us of 700: half way through events 2 and 3.
        let zoom = Zoom::new(200.0 / 700.0, 500.0 / 700.0);
        let shared = SharedZoom::of_time(zoom, log, 700);
        assert_eq!(
            shared,
            SharedZoom::Events {
                start: 2.5,
                end: 3.5
            }
        );
        assert!(close(shared.time_zoom(log, 700), zoom));
        // The same events on the event axis: 2.5 to 3.5 of 4.
        assert_eq!(shared.events_zoom(4), Zoom::new(0.625, 0.875));
        // Time zooms the keys reach come back as they went.
        let mut zoom = Zoom::WHOLE;
        for _ in 0..12 {
            zoom = zoom.zoom_at(ZOOM_STEP, 0.8).pan(-PAN_STEP);
            let back = SharedZoom::of_time(zoom, log, 700).time_zoom(log, 700);
            assert!(close(back, zoom), "{zoom:?} came back as {back:?}");
        }
        assert_eq!(
            SharedZoom::of_time(Zoom::WHOLE, log, 700),
            SharedZoom::Whole
        );
        assert_eq!(SharedZoom::Whole.time_zoom(log, 700), Zoom::WHOLE);
    }
}
