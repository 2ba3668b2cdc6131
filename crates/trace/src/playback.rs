//! A recorded trace and the position the views show: live (following the
//! run as batches arrive) or parked where the learner stepped or scrubbed.

use crate::event::Event;
use crate::log::EventLog;
use crate::step::{self, StepBy};

/// The trace so far and a position in it. The views at that position (graph,
/// memory, charts) are folded from the log by whoever draws them
/// ([`crate::follow::Follow`]), so a state holding this is cheap to clone.
///
/// ```
/// use gradscope_trace::{Event, EventKind};
/// use gradscope_trace::playback::Playback;
/// let ev = |seq| Event { seq, time_us: 0, line: Some(1), kind: EventKind::BackwardEnded };
/// let mut playback = Playback::default();
/// playback.push(vec![ev(0), ev(1)]);
/// playback.seek(1);
/// playback.push(vec![ev(2)]);
/// assert_eq!((playback.position(), playback.log().len()), (1, 3));
/// playback.seek(3);
/// assert!(playback.is_live());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Playback {
    log: EventLog,
    /// `None`: live, at the end; `Some(p)`: parked after `p` events.
    cursor: Option<usize>,
}

impl Playback {
    /// Every event recorded.
    pub fn log(&self) -> &EventLog {
        &self.log
    }

    /// Every event recorded, let go of by the playback.
    pub fn into_log(self) -> EventLog {
        self.log
    }

    /// How many events the views show.
    pub fn position(&self) -> usize {
        self.cursor.unwrap_or(self.log.len())
    }

    /// Whether the views follow the run as it records.
    pub fn is_live(&self) -> bool {
        self.cursor.is_none()
    }

    /// The program line of the position shown (for the transport).
    pub fn line(&self) -> Option<u32> {
        step::line_at(&self.log, self.position())
    }

    /// Appends one batch; a live view advances by that batch.
    pub fn push(&mut self, batch: Vec<Event>) {
        self.log.push(batch);
    }

    /// Shows the trace after `position` events; the end goes live again.
    pub fn seek(&mut self, position: usize) {
        let position = position.min(self.log.len());
        self.cursor = (position < self.log.len()).then_some(position);
    }

    /// Steps one op or statement forward or back.
    pub fn step(&mut self, by: StepBy, forward: bool) {
        let at = self.position();
        let to = match (by, forward) {
            (StepBy::Op, true) => step::next_op(&self.log, at),
            (StepBy::Op, false) => step::previous_op(&self.log, at),
            (StepBy::Statement, true) => step::next_statement(&self.log, at),
            (StepBy::Statement, false) => step::previous_statement(&self.log, at),
        };
        self.seek(to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::EventKind;
    use crate::follow::Follow;
    use crate::snapshot::GraphAt;

    fn ev(seq: u64, line: u32, kind: EventKind) -> Event {
        Event {
            seq,
            time_us: seq,
            line: Some(line),
            kind,
        }
    }

    fn node(id: u64) -> EventKind {
        EventKind::NodeCreated {
            node: id,
            name: "AddBackward0".into(),
            sequence_nr: id,
            next: vec![],
            saved: vec![],
            leaf: None,
        }
    }

    fn op() -> EventKind {
        EventKind::OpCalled {
            op: "add".into(),
            shape: vec![],
        }
    }

    /// Line 1: op + node 1; line 2: op + node 2; line 3: op + node 3.
    fn batches() -> Vec<Vec<Event>> {
        vec![
            vec![ev(0, 1, op()), ev(1, 1, node(1)), ev(2, 2, op())],
            vec![ev(3, 2, node(2)), ev(4, 3, op()), ev(5, 3, node(3))],
        ]
    }

    /// The graph at the playback's position, as the page follows it.
    fn nodes(follow: &mut Follow<GraphAt>, playback: &Playback) -> usize {
        let graph = follow.at(playback.log(), playback.position());
        assert_eq!(
            graph,
            &GraphAt::of(playback.log().iter().take(playback.position()))
        );
        graph.graph.nodes.len()
    }

    #[test]
    fn playback_live_graph_follows_batches() {
        let mut playback = Playback::default();
        let mut follow = Follow::default();
        for batch in batches() {
            playback.push(batch);
            nodes(&mut follow, &playback);
        }
        assert!(playback.is_live());
        assert_eq!(nodes(&mut follow, &playback), 3);
        assert_eq!(playback.line(), Some(3));
    }

    #[test]
    fn playback_parked_view_stays_while_recording() {
        let mut batches = batches().into_iter();
        let mut playback = Playback::default();
        let mut follow = Follow::default();
        playback.push(batches.next().unwrap_or_default());
        playback.step(StepBy::Statement, false);
        assert_eq!(playback.position(), 2);
        playback.push(batches.next().unwrap_or_default());
        assert_eq!(playback.position(), 2);
        assert_eq!(nodes(&mut follow, &playback), 1);
        playback.step(StepBy::Op, true);
        assert_eq!((playback.position(), playback.line()), (4, Some(2)));
        assert_eq!(nodes(&mut follow, &playback), 2);
        playback.step(StepBy::Statement, true);
        assert!(playback.is_live());
        assert_eq!(nodes(&mut follow, &playback), 3);
    }

    #[test]
    fn playback_seek_clamps() {
        let mut playback = Playback::default();
        let mut follow = Follow::default();
        for batch in batches() {
            playback.push(batch);
        }
        nodes(&mut follow, &playback);
        playback.seek(0);
        assert_eq!(nodes(&mut follow, &playback), 0);
        assert_eq!(playback.line(), None);
        playback.seek(99);
        assert!(playback.is_live());
        assert_eq!(playback.position(), 6);
        assert_eq!(nodes(&mut follow, &playback), 3);
    }
}
