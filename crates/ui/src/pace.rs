//! When the heavy views (graph, memory timeline, charts) take the newest
//! trace while a run streams. Each of their updates recomputes over the
//! whole trace and rewrites much of their SVG; done every animation frame
//! for a fast training loop, it kept the main thread busy most of the time
//! (frames of 80 ms and more). So while a run streams they update only
//! after a pause [`FACTOR`] times as long as their last update took: cheap
//! updates (a small program) still happen every frame, costly ones take at
//! most about a ninth of the main thread. The light parts (status, event
//! counter, console) follow every frame, and everything is current the
//! moment the run ends or the learner steps.

/// The pause after an update, in multiples of what the update cost.
pub const FACTOR: f64 = 8.0;

/// The longest pause, in milliseconds, however costly the updates.
pub const MAX_PAUSE_MS: f64 = 1000.0;

/// The pacing of the heavy views' updates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pacer {
    /// When the views last took the newest trace (ms), if they did.
    last_at: Option<f64>,
    /// What that update cost (ms).
    cost_ms: f64,
}

impl Pacer {
    /// Whether the views should take the newest trace at `now` (ms):
    /// always unless a run is `streaming`, else once the pause is over.
    pub fn due(&self, now: f64, streaming: bool) -> bool {
        match self.last_at {
            Some(at) if streaming => now - at >= (FACTOR * self.cost_ms).min(MAX_PAUSE_MS),
            _ => true,
        }
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
    fn pace_cheap_updates_every_frame() {
        let mut pacer = Pacer::default();
        assert!(pacer.due(0.0, true));
        pacer.updated(0.0, 1.0);
        // 1 ms of work: due again 8 ms later, within one frame.
        assert!(!pacer.due(5.0, true));
        assert!(pacer.due(16.7, true));
    }

    #[test]
    fn pace_costly_updates_wait() {
        let mut pacer = Pacer::default();
        pacer.updated(100.0, 160.0);
        assert!(!pacer.due(500.0, true));
        assert!(pacer.due(580.0, true));
        // However costly, at least once a second.
        pacer.updated(1000.0, 1900.0);
        assert!(!pacer.due(1999.0, true));
        assert!(pacer.due(2000.0, true));
    }

    #[test]
    fn pace_not_streaming_is_always_current() {
        let mut pacer = Pacer::default();
        pacer.updated(0.0, 500.0);
        assert!(pacer.due(1.0, false));
    }
}
