//! Zoom of the memory view: which stretch of the run its horizontal axis
//! shows, from the whole run down to one training step or a few events,
//! as fractions of the run's extent (events or time), so the wheel, a
//! drag and the keys only move two numbers and the chart is drawn anew
//! for the stretch shown (`MemoryChart::of_ledger_zoomed`).

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
}
