//! Stepping through a recorded trace by statement or by op.
//!
//! A *position* is how many events have been applied: 0 is before the
//! program ran, `len` is the whole trace. Every view is drawn at a position,
//! so stepping is only a matter of choosing the next one.

use crate::event::{Event, EventKind};
use crate::log::EventList;

/// How far one step goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepBy {
    /// One op the program called, or one node's backward.
    Op,
    /// One program line's events.
    Statement,
}

/// An event that starts one op step: an op the program called, or a node's
/// backward. The ops a backward formula calls belong to its node's step;
/// `inside` says whether a backward is running before the event.
fn is_op(event: &Event, inside: bool) -> bool {
    match event.kind {
        EventKind::OpCalled { .. } => !inside,
        EventKind::NodeExecuted { .. } => true,
        _ => false,
    }
}

/// Whether a backward is running after `event`, given whether one was before it.
fn inside_after(event: &Event, inside: bool) -> bool {
    match event.kind {
        EventKind::BackwardBegan { .. } => true,
        EventKind::BackwardEnded => false,
        _ => inside,
    }
}

/// Whether a backward is running after the first `position` events.
fn inside_at<L: EventList + ?Sized>(events: &L, position: usize) -> bool {
    (0..position.min(events.count()))
        .rev()
        .find_map(|i| match events.event(i).map(|e| &e.kind) {
            Some(EventKind::BackwardBegan { .. }) => Some(true),
            Some(EventKind::BackwardEnded) => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

/// An event that finishes the op before it: the node it created, the bytes it
/// saved or released, the gradient it accumulated, the hooks it fired.
fn is_aftermath(event: &Event) -> bool {
    matches!(
        event.kind,
        EventKind::NodeCreated { .. }
            | EventKind::StorageRecategorised { .. }
            | EventKind::SavedReleased { .. }
            | EventKind::GradAccumulated { .. }
            | EventKind::HookFired { .. }
    )
}

/// The position just after the op event at `index` and its aftermath.
fn op_end<L: EventList + ?Sized>(events: &L, index: usize) -> usize {
    let mut end = index + 1;
    while events.event(end).is_some_and(is_aftermath) {
        end += 1;
    }
    end
}

/// The position after the next op (forward op or backward node) from
/// `position`, with what that op created, saved or released; the end of the
/// trace when no op is left.
///
/// ```
/// use gradscope_trace::{Event, EventKind};
/// use gradscope_trace::step::{next_op, previous_op};
/// let ev = |seq, kind| Event { seq, time_us: 0, line: None, kind };
/// let op = || EventKind::OpCalled { op: "add".into(), shape: vec![] };
/// let trace = [ev(0, op()), ev(1, EventKind::SavedReleased { node: 1 }), ev(2, op())];
/// assert_eq!(next_op(&trace[..], 0), 2);
/// assert_eq!(next_op(&trace[..], 2), 3);
/// assert_eq!(previous_op(&trace[..], 3), 2);
/// ```
pub fn next_op<L: EventList + ?Sized>(events: &L, position: usize) -> usize {
    let mut inside = inside_at(events, position);
    for i in position..events.count() {
        let Some(event) = events.event(i) else { break };
        if is_op(event, inside) {
            return op_end(events, i);
        }
        inside = inside_after(event, inside);
    }
    events.count()
}

/// The last position before `position` that [`next_op`] stops at, or 0.
pub fn previous_op<L: EventList + ?Sized>(events: &L, position: usize) -> usize {
    let position = position.min(events.count());
    // Walking back: whether a backward was running after event `i`.
    let mut after = inside_at(events, position);
    for i in (0..position).rev() {
        let Some(event) = events.event(i) else { break };
        let before = match event.kind {
            EventKind::BackwardBegan { .. } => false,
            EventKind::BackwardEnded => true,
            _ => after,
        };
        if is_op(event, before) {
            let end = op_end(events, i);
            if end < position {
                return end;
            }
        }
        after = before;
    }
    0
}

/// The position after the next statement from `position`: the run of
/// consecutive events that carry the same program line as the next event.
///
/// ```
/// use gradscope_trace::{Event, EventKind};
/// use gradscope_trace::step::{next_statement, previous_statement};
/// let ev = |seq, line| Event { seq, time_us: 0, line: Some(line), kind: EventKind::BackwardEnded };
/// let trace = [ev(0, 2), ev(1, 2), ev(2, 3), ev(3, 5), ev(4, 5)];
/// assert_eq!(next_statement(&trace[..], 0), 2);
/// assert_eq!(next_statement(&trace[..], 2), 3);
/// assert_eq!(previous_statement(&trace[..], 5), 3);
/// ```
pub fn next_statement<L: EventList + ?Sized>(events: &L, position: usize) -> usize {
    let Some(line) = events.event(position).map(|e| e.line) else {
        return events.count();
    };
    let mut end = position + 1;
    while events.event(end).is_some_and(|e| e.line == line) {
        end += 1;
    }
    end
}

/// The start of the statement that ends at or contains `position - 1`: where
/// stepping back by a statement lands.
pub fn previous_statement<L: EventList + ?Sized>(events: &L, position: usize) -> usize {
    let position = position.min(events.count());
    let Some(line) = position
        .checked_sub(1)
        .and_then(|i| events.event(i))
        .map(|e| e.line)
    else {
        return 0;
    };
    let mut start = position - 1;
    while start > 0 && events.event(start - 1).is_some_and(|e| e.line == line) {
        start -= 1;
    }
    start
}

/// The program line of the last event applied at `position` that has one
/// (what the editor highlights while stepping).
pub fn line_at<L: EventList + ?Sized>(events: &L, position: usize) -> Option<u32> {
    (0..position.min(events.count()))
        .rev()
        .find_map(|i| events.event(i).and_then(|e| e.line))
}

/// Where each pass's backward begins (outside any other backward): the
/// positions stepping by pass stops at, each pass's graph built whole and
/// holding what it saved, about to be used and freed.
fn pass_stops<L: EventList + ?Sized>(events: &L) -> impl Iterator<Item = usize> + '_ {
    let mut depth = 0usize;
    (0..events.count()).filter(move |&i| match events.event(i).map(|e| &e.kind) {
        Some(EventKind::BackwardBegan { .. }) => {
            depth += 1;
            depth == 1
        }
        Some(EventKind::BackwardEnded) => {
            depth = depth.saturating_sub(1);
            false
        }
        _ => false,
    })
}

/// The position where the next pass's backward begins after `position`
/// (see [`crate::GraphAt::one_pass`]): a training loop's next step, its
/// graph built; the end of the trace when no pass is left.
///
/// ```
/// use gradscope_trace::{Event, EventKind};
/// use gradscope_trace::step::{next_pass, previous_pass};
/// let pass = [
///     EventKind::OpCalled { op: "mul".into(), shape: vec![] },
///     EventKind::BackwardBegan { root: 1, retain_graph: false },
///     EventKind::BackwardEnded,
/// ];
/// let trace = Event::numbered(pass.iter().chain(&pass).cloned());
/// assert_eq!(next_pass(&trace[..], 0), 1);
/// assert_eq!(next_pass(&trace[..], 1), 4);
/// assert_eq!(next_pass(&trace[..], 4), 6);
/// assert_eq!(previous_pass(&trace[..], 6), 4);
/// assert_eq!(previous_pass(&trace[..], 4), 1);
/// assert_eq!(previous_pass(&trace[..], 1), 0);
/// ```
pub fn next_pass<L: EventList + ?Sized>(events: &L, position: usize) -> usize {
    pass_stops(events)
        .find(|&stop| stop > position)
        .unwrap_or(events.count())
}

/// The position where the last pass's backward before `position` begins,
/// or 0.
pub fn previous_pass<L: EventList + ?Sized>(events: &L, position: usize) -> usize {
    pass_stops(events)
        .take_while(|&stop| stop < position)
        .last()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Category;

    fn ev(seq: u64, line: Option<u32>, kind: EventKind) -> Event {
        Event {
            seq,
            time_us: seq,
            line,
            kind,
        }
    }

    fn alloc() -> EventKind {
        EventKind::StorageAllocated {
            storage: 1,
            bytes: 16,
            device: "cpu".into(),
            category: Category::Other,
        }
    }

    fn op() -> EventKind {
        EventKind::OpCalled {
            op: "mul".into(),
            shape: vec![2],
        }
    }

    fn node() -> EventKind {
        EventKind::NodeCreated {
            node: 1,
            name: "MulBackward0".into(),
            sequence_nr: 0,
            next: vec![],
            saved: vec![],
            leaf: None,
        }
    }

    /// Two forward ops on lines 2 and 3, then backward on line 4.
    fn trace() -> Vec<Event> {
        let kinds = [
            (2, alloc()),
            (2, op()),
            (2, node()),
            (
                2,
                EventKind::StorageRecategorised {
                    storage: 1,
                    category: Category::SavedForBackward,
                },
            ),
            (3, alloc()),
            (3, op()),
            (3, node()),
            (
                4,
                EventKind::BackwardBegan {
                    root: 1,
                    retain_graph: false,
                },
            ),
            (4, EventKind::NodeExecuted { node: 1 }),
            (4, EventKind::SavedReleased { node: 1 }),
            (4, EventKind::BackwardEnded),
        ];
        kinds
            .into_iter()
            .enumerate()
            .map(|(i, (line, kind))| ev(i as u64, Some(line), kind))
            .collect()
    }

    #[test]
    fn step_op_forward_takes_node_and_saved_with_it() {
        let t = trace();
        let stops: Vec<usize> =
            std::iter::successors(Some(0), |&p| (p < t.len()).then(|| next_op(&t[..], p)))
                .collect();
        assert_eq!(stops, [0, 4, 7, 10, 11]);
    }

    #[test]
    fn step_op_back_retraces_forward_stops() {
        let t = trace();
        assert_eq!(previous_op(&t[..], 11), 10);
        assert_eq!(previous_op(&t[..], 10), 7);
        assert_eq!(previous_op(&t[..], 8), 7);
        assert_eq!(previous_op(&t[..], 7), 4);
        assert_eq!(previous_op(&t[..], 4), 0);
        assert_eq!(previous_op(&t[..], 0), 0);
        assert_eq!(previous_op(&t[..], 99), 10);
    }

    #[test]
    fn step_op_in_backward_goes_node_by_node() {
        // Backward's formulas call ops; stepping by op visits nodes instead.
        let kinds = [
            op(),
            EventKind::BackwardBegan {
                root: 1,
                retain_graph: false,
            },
            alloc(),
            op(),
            EventKind::NodeExecuted { node: 2 },
            EventKind::SavedReleased { node: 2 },
            op(),
            EventKind::NodeExecuted { node: 1 },
            EventKind::BackwardEnded,
            op(),
        ];
        let t: Vec<Event> = kinds
            .into_iter()
            .enumerate()
            .map(|(i, k)| ev(i as u64, None, k))
            .collect();
        let stops: Vec<usize> =
            std::iter::successors(Some(0), |&p| (p < t.len()).then(|| next_op(&t[..], p)))
                .collect();
        assert_eq!(stops, [0, 1, 6, 8, 10]);
        assert_eq!(previous_op(&t[..], 10), 8);
        assert_eq!(previous_op(&t[..], 8), 6);
        assert_eq!(previous_op(&t[..], 7), 6);
        assert_eq!(previous_op(&t[..], 6), 1);
        assert_eq!(previous_op(&t[..], 1), 0);
    }

    #[test]
    fn step_statement_by_line() {
        let t = trace();
        assert_eq!(next_statement(&t[..], 0), 4);
        assert_eq!(next_statement(&t[..], 4), 7);
        assert_eq!(next_statement(&t[..], 7), 11);
        assert_eq!(next_statement(&t[..], 11), 11);
        assert_eq!(next_statement(&t[..], 5), 7);
        assert_eq!(previous_statement(&t[..], 11), 7);
        assert_eq!(previous_statement(&t[..], 7), 4);
        assert_eq!(previous_statement(&t[..], 6), 4);
        assert_eq!(previous_statement(&t[..], 4), 0);
        assert_eq!(previous_statement(&t[..], 0), 0);
    }

    #[test]
    fn step_line_at_position() {
        let t = trace();
        assert_eq!(line_at(&t[..], 0), None);
        assert_eq!(line_at(&t[..], 4), Some(2));
        assert_eq!(line_at(&t[..], 5), Some(3));
        assert_eq!(line_at(&t[..], 100), Some(4));
    }

    #[test]
    fn step_empty_trace() {
        let empty: &[Event] = &[];
        assert_eq!(next_op(empty, 0), 0);
        assert_eq!(previous_op(empty, 0), 0);
        assert_eq!(next_statement(empty, 0), 0);
        assert_eq!(previous_statement(empty, 3), 0);
    }

    #[test]
    fn step_pass_stops_where_each_outer_backward_begins() {
        // Two passes; the second's backward runs a nested one (a hook's
        // autograd.grad), which is no stop of its own.
        let began = || EventKind::BackwardBegan {
            root: 1,
            retain_graph: false,
        };
        let t: Vec<Event> = Event::numbered([
            op(),
            began(),
            EventKind::BackwardEnded,
            op(),
            began(),
            began(),
            EventKind::BackwardEnded,
            EventKind::BackwardEnded,
            op(),
        ]);
        let stops: Vec<usize> =
            std::iter::successors(Some(0), |&p| (p < t.len()).then(|| next_pass(&t[..], p)))
                .collect();
        assert_eq!(stops, [0, 1, 4, 9]);
        assert_eq!(previous_pass(&t[..], 9), 4);
        assert_eq!(previous_pass(&t[..], 5), 4);
        assert_eq!(previous_pass(&t[..], 4), 1);
        assert_eq!(previous_pass(&t[..], 1), 0);
        let empty: &[Event] = &[];
        assert_eq!((next_pass(empty, 0), previous_pass(empty, 0)), (0, 0));
    }
}
