//! Views folded over a recorded trace incrementally. Every view is a pure
//! function of the trace up to an event index; while a run records, the
//! next position is almost always further along the same log, so a view
//! carries on from where it stopped and costs only the new events, not the
//! whole trace (100k events for a long training loop) each frame.

use crate::event::Event;
use crate::log::EventLog;

/// A view built by applying events one by one, in trace order.
pub trait Fold: Default {
    /// Applies the event at index `index` of the trace.
    fn apply(&mut self, index: usize, event: &Event);
}

/// A [`Fold`] and how far along which log it is: [`Follow::at`] gives the
/// same value as folding the log's first `position` events from scratch,
/// replaying from the start only when the position went back or the log is
/// another run's.
///
/// ```
/// use gradscope_trace::{Event, EventKind, EventLog};
/// use gradscope_trace::follow::{Fold, Follow};
/// #[derive(Default)]
/// struct Count(usize);
/// impl Fold for Count {
///     fn apply(&mut self, _: usize, _: &Event) { self.0 += 1 }
/// }
/// let ev = |seq| Event { seq, time_us: 0, line: None, kind: EventKind::BackwardEnded };
/// let mut log = EventLog::default();
/// log.push(vec![ev(0), ev(1)]);
/// let mut count = Follow::<Count>::default();
/// assert_eq!(count.at(&log, 2).0, 2);
/// log.push(vec![ev(2)]);
/// assert_eq!(count.at(&log, 3).0, 3);
/// assert_eq!(count.at(&log, 1).0, 1);
/// ```
#[derive(Debug, Default)]
pub struct Follow<F> {
    fold: F,
    /// The log folded so far (its batches are shared, not copied).
    seen: EventLog,
    applied: usize,
}

impl<F: Fold> Follow<F> {
    /// The view after the first `position` events of `log` (at most all).
    pub fn at(&mut self, log: &EventLog, position: usize) -> &F {
        let position = position.min(log.len());
        if position < self.applied || !log.extends(&self.seen) {
            self.fold = F::default();
            self.applied = 0;
        }
        for (k, event) in log
            .iter_from(self.applied)
            .take(position - self.applied)
            .enumerate()
        {
            self.fold.apply(self.applied + k, event);
        }
        self.applied = position;
        if self.seen.len() != log.len() || !self.seen.extends(log) {
            self.seen = log.clone();
        }
        &self.fold
    }

    /// The view as last computed.
    pub fn get(&self) -> &F {
        &self.fold
    }

    /// How many events the view reflects.
    pub fn applied(&self) -> usize {
        self.applied
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::EventKind;

    /// The indices and seqs applied, in order.
    #[derive(Debug, Default, PartialEq)]
    struct Seen(Vec<(usize, u64)>);

    impl Fold for Seen {
        fn apply(&mut self, index: usize, event: &Event) {
            self.0.push((index, event.seq));
        }
    }

    fn events(range: std::ops::Range<u64>) -> Vec<Event> {
        range
            .map(|seq| Event {
                seq,
                time_us: seq,
                line: None,
                kind: EventKind::BackwardEnded,
            })
            .collect()
    }

    fn scratch(log: &EventLog, position: usize) -> Seen {
        let mut seen = Seen::default();
        for (i, e) in log.iter().take(position).enumerate() {
            seen.apply(i, e);
        }
        seen
    }

    #[test]
    fn follow_equals_folding_from_scratch() {
        let mut log = EventLog::default();
        let mut follow = Follow::<Seen>::default();
        let mut next = 0;
        for (size, position) in [(3, 2), (0, 3), (4, 7), (1, 8), (5, 4), (2, 15), (0, 99)] {
            log.push(events(next..next + size));
            next += size;
            assert_eq!(
                follow.at(&log, position),
                &scratch(&log, position),
                "at {position}"
            );
            assert_eq!(follow.applied(), position.min(log.len()));
        }
    }

    #[test]
    fn follow_starts_over_for_another_run() {
        let mut first = EventLog::default();
        first.push(events(0..5));
        let mut follow = Follow::<Seen>::default();
        follow.at(&first, 5);
        let mut second = EventLog::default();
        second.push(events(100..102));
        second.push(events(102..108));
        assert_eq!(follow.at(&second, 7), &scratch(&second, 7));
        assert_eq!(follow.get().0.first(), Some(&(0, 100)));
    }
}
