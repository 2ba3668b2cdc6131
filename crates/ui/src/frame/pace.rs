//! When the heavy views (graph, memory timeline, charts) take the newest
//! trace while a run streams. They follow the trace incrementally, but each
//! update still rewrites much of their SVG, and the browser's layout and
//! paint of it cost more than the update itself; done every animation
//! frame for a fast training loop, it kept the main thread busy most of the
//! time. So while a run streams they update only after a pause [`FACTOR`]
//! times as long as their last update took, and at least [`MIN_PAUSE_MS`]:
//! cheap updates (a small program) happen every other frame, costly ones
//! take at most about a ninth of the main thread. An update that cost more
//! than [`CHEAP_MS`] makes its frame late (the browser's layout and paint
//! come on top), so the next waits at least [`COSTLY_PAUSE_MS`], about 21
//! frames: at most one frame in 20 carries one, and the frame-time p95
//! (issue 7: 16 ms) is not spent on them. The light parts (status, event
//! counter, console) follow every frame; when the run ends the heavy views
//! catch up, one an idle period, and a step or scrub after that shows at
//! once (see `views`).
//!
//! An update that is due is taken in an idle callback, between frames, in
//! an idle period long enough for what the last one cost
//! ([`Pacer::fits_idle`]): in the animation frame that handed the events
//! over it added its own work (the view, yew's diff, the DOM calls, about
//! half of its cost) to that frame's parsing, style, layout and paint.

/// The pause after an update, in multiples of what the update cost.
pub const FACTOR: f64 = 8.0;

/// The longest pause, in milliseconds, however costly the updates.
pub const MAX_PAUSE_MS: f64 = 1000.0;

/// The shortest pause, in milliseconds, however cheap the updates: the
/// browser's layout and paint of the views, which the cost does not
/// count, then falls on every other frame at most.
pub const MIN_PAUSE_MS: f64 = 30.0;

/// The most an update may cost (ms) and still count as cheap: with the
/// frame's parsing budget and the browser's layout and paint it fits in
/// one 16.7 ms frame.
pub const CHEAP_MS: f64 = 6.0;

/// The shortest pause after a costly update (ms): 21 frames at 60 Hz, so
/// under 5% of frames carry one.
pub const COSTLY_PAUSE_MS: f64 = 350.0;

/// An idle period this long (ms) is long enough for any view's update,
/// whatever the last one cost.
pub const IDLE_ENOUGH_MS: f64 = 8.0;

/// Idle periods passed over as too short, at most, before an update is
/// taken anyway.
pub const SHORT_PERIODS: u32 = 3;

/// The pacing of the heavy views' updates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pacer {
    /// When the views last took the newest trace (ms), if they did.
    last_at: Option<f64>,
    /// What that update cost (ms).
    cost_ms: f64,
}

impl Pacer {
    /// How long from `now` (ms) until the views are due while a run
    /// streams: 0 once they are.
    pub fn wait_ms(&self, now: f64) -> f64 {
        self.last_at
            .map_or(0.0, |at| (at + self.pause_ms() - now).max(0.0))
    }

    /// How long the views wait after their last update while a run streams.
    pub fn pause_ms(&self) -> f64 {
        let least = if self.cost_ms > CHEAP_MS {
            COSTLY_PAUSE_MS
        } else {
            MIN_PAUSE_MS
        };
        (FACTOR * self.cost_ms).clamp(least, MAX_PAUSE_MS)
    }

    /// Whether an idle period with `left_ms` to go (`None`: not known)
    /// should carry the next update, after `passed` shorter ones were
    /// passed over; `timed_out`: the page did not idle in time. A period
    /// shorter than the last update cost (up to [`IDLE_ENOUGH_MS`]) would
    /// run the update into the next frame.
    pub fn fits_idle(&self, left_ms: Option<f64>, timed_out: bool, passed: u32) -> bool {
        let short = left_ms.is_some_and(|left| left < self.cost_ms.min(IDLE_ENOUGH_MS));
        !short || timed_out || passed >= SHORT_PERIODS
    }

    /// The views took the newest trace at `at` (ms) and were drawn by `done`.
    pub fn updated(&mut self, at: f64, done: f64) {
        self.last_at = Some(at);
        self.cost_ms = (done - at).max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pace_cheap_updates_every_other_frame() {
        let mut pacer = Pacer::default();
        assert_eq!(pacer.wait_ms(0.0), 0.0);
        pacer.updated(0.0, 1.0);
        // 1 ms of work: due again after the shortest pause, two frames.
        assert!(pacer.wait_ms(16.7) > 0.0);
        assert_eq!(pacer.wait_ms(16.0), MIN_PAUSE_MS - 16.0);
        assert_eq!(pacer.wait_ms(33.4), 0.0);
    }

    #[test]
    fn pace_late_frames_are_one_in_twenty() {
        let mut pacer = Pacer::default();
        // Just cheap enough: every third frame or so.
        pacer.updated(0.0, CHEAP_MS);
        assert_eq!(pacer.wait_ms(8.0 * CHEAP_MS), 0.0);
        // Over it: the frame was late, and the next 20 frames carry none.
        pacer.updated(0.0, CHEAP_MS + 1.0);
        assert!(pacer.wait_ms(20.0 * 16.7) > 0.0);
        assert_eq!(pacer.wait_ms(21.0 * 16.7), 0.0);
        // Costlier still: FACTOR times the cost.
        pacer.updated(0.0, 50.0);
        assert_eq!(pacer.pause_ms(), 400.0);
    }

    #[test]
    fn pace_costly_updates_wait() {
        let mut pacer = Pacer::default();
        pacer.updated(100.0, 160.0);
        assert!(pacer.wait_ms(500.0) > 0.0);
        assert_eq!(pacer.wait_ms(580.0), 0.0);
        // However costly, at least once a second.
        pacer.updated(1000.0, 1900.0);
        assert!(pacer.wait_ms(1999.0) > 0.0);
        assert_eq!(pacer.wait_ms(2000.0), 0.0);
    }

    #[test]
    fn pace_updates_wait_for_an_idle_period_they_fit() {
        let mut pacer = Pacer::default();
        pacer.updated(0.0, 5.0);
        assert!(!pacer.fits_idle(Some(4.0), false, 0));
        assert!(pacer.fits_idle(Some(5.0), false, 0));
        // No deadline known (a timeout stood in), or the page never idled,
        // or enough periods passed over: now.
        assert!(pacer.fits_idle(None, false, 0));
        assert!(pacer.fits_idle(Some(1.0), true, 0));
        assert!(pacer.fits_idle(Some(1.0), false, SHORT_PERIODS));
        // However costly the last update, a period of IDLE_ENOUGH_MS fits.
        pacer.updated(0.0, 40.0);
        assert!(pacer.fits_idle(Some(IDLE_ENOUGH_MS), false, 0));
        assert!(!pacer.fits_idle(Some(IDLE_ENOUGH_MS - 0.5), false, 0));
    }
}
