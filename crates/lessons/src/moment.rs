//! Where in a run's trace a claim can be seen: the moment its measurement
//! comes from (a span's memory peak, its end, a backward inside it, a node,
//! the exception), found in the trace the learner's own run recorded, so
//! the page can move its views there.
//!
//! A claim's check runs the program as it needs (often under several
//! control values), and those runs are not the one the views show; what the
//! views can show is the same moment in the learner's run, which has the
//! same spans. [`Moment::position`] finds it there.

use gradscope_trace::memory::MemoryTracker;
use gradscope_trace::{Category, Event, EventKind};

/// The moment of a run a claim's measurement comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Where the first span of this name reached its highest live bytes.
    Peak(&'static str),
    /// Where the first span of this name held the most bytes saved for
    /// backward.
    SavedPeak(&'static str),
    /// Where the first span of this name held the most activation bytes
    /// (saved for backward and other, as [`crate::Phase::peak_activation`]).
    ActivationPeak(&'static str),
    /// The end of the first span of this name.
    End(&'static str),
    /// The end of the last span of this name.
    LastEnd(&'static str),
    /// The end of the last backward inside the first span of this name.
    Backward(&'static str),
    /// The end of the last backward inside the last span of this name.
    LastBackward(&'static str),
    /// The first graph node of this PyTorch name (`LogBackward0`).
    Node(&'static str),
    /// The end of a run that raised: where the exception stopped it.
    Raised,
}

impl Moment {
    /// The span this moment is in, if it is in one.
    pub fn span(&self) -> Option<&'static str> {
        match *self {
            Moment::Peak(s)
            | Moment::SavedPeak(s)
            | Moment::ActivationPeak(s)
            | Moment::End(s)
            | Moment::LastEnd(s)
            | Moment::Backward(s)
            | Moment::LastBackward(s) => Some(s),
            Moment::Node(_) | Moment::Raised => None,
        }
    }

    /// In words, for the page (`the peak of 'eval'`).
    pub fn describe(&self) -> String {
        match self {
            Moment::Peak(s) => format!("the memory peak of '{s}'"),
            Moment::SavedPeak(s) => format!("the saved-for-backward peak of '{s}'"),
            Moment::ActivationPeak(s) => format!("the activation peak of '{s}'"),
            Moment::End(s) => format!("the end of '{s}'"),
            Moment::LastEnd(s) => format!("the end of the last '{s}'"),
            Moment::Backward(s) => format!("the backward in '{s}'"),
            Moment::LastBackward(s) => format!("the backward in the last '{s}'"),
            Moment::Node(n) => format!("where {n} was created"),
            Moment::Raised => "where the exception was raised".into(),
        }
    }

    /// The trace position (events shown, as the transport's seek takes it)
    /// of this moment in `events`, a run that `raised` or not; `None` when
    /// the run has no such moment (no span of that name, no exception).
    ///
    /// ```
    /// use gradscope_lessons::Moment;
    /// use gradscope_trace::{Event, EventKind};
    /// let ev = |seq, kind| Event { seq, time_us: 0, line: None, kind };
    /// let events = [
    ///     ev(0, EventKind::RangeBegan { name: "eval".into() }),
    ///     ev(1, EventKind::RangeEnded { name: "eval".into() }),
    /// ];
    /// assert_eq!(Moment::End("eval").position(&events, false), Some(2));
    /// assert_eq!(Moment::End("train").position(&events, false), None);
    /// ```
    pub fn position<'e>(
        &self,
        events: impl IntoIterator<Item = &'e Event>,
        raised: bool,
    ) -> Option<usize> {
        let mut len = 0;
        let mut memory = MemoryTracker::default();
        let span = self.span();
        // Per span of the name, in order: the position found in it.
        let mut found: Vec<Option<usize>> = vec![];
        // Spans open now: whether each is one of the name.
        let mut open: Vec<bool> = vec![];
        let mut best = 0u64;
        let measure = |bytes: [u64; 5]| match self {
            Moment::SavedPeak(_) => bytes[Category::SavedForBackward as usize],
            Moment::ActivationPeak(_) => {
                bytes[Category::SavedForBackward as usize] + bytes[Category::Other as usize]
            }
            _ => bytes.iter().sum(),
        };
        for (i, event) in events.into_iter().enumerate() {
            len = i + 1;
            let changed = memory.apply(event);
            let inside = open.iter().any(|o| *o);
            match &event.kind {
                EventKind::RangeBegan { name } => {
                    let ours = Some(name.as_str()) == span && !inside;
                    if ours {
                        found.push(match self {
                            Moment::Peak(_) | Moment::SavedPeak(_) | Moment::ActivationPeak(_) => {
                                Some(len)
                            }
                            _ => None,
                        });
                        best = measure(memory.bytes());
                    }
                    open.push(ours);
                }
                EventKind::RangeEnded { .. } => {
                    let ours = open.pop().unwrap_or(false);
                    if ours
                        && matches!(self, Moment::End(_) | Moment::LastEnd(_))
                        && let Some(last) = found.last_mut()
                    {
                        *last = Some(len);
                    }
                }
                EventKind::BackwardEnded
                    if inside && matches!(self, Moment::Backward(_) | Moment::LastBackward(_)) =>
                {
                    if let Some(last) = found.last_mut() {
                        *last = Some(len);
                    }
                }
                EventKind::NodeCreated { name, .. }
                    if matches!(self, Moment::Node(n) if n == name) && found.is_empty() =>
                {
                    found.push(Some(len));
                }
                _ => {}
            }
            if changed
                && inside
                && matches!(
                    self,
                    Moment::Peak(_) | Moment::SavedPeak(_) | Moment::ActivationPeak(_)
                )
            {
                let now = measure(memory.bytes());
                if now > best {
                    best = now;
                    if let Some(last) = found.last_mut() {
                        *last = Some(len);
                    }
                }
            }
        }
        match self {
            Moment::Raised => (raised && len > 0).then_some(len),
            Moment::LastEnd(_) | Moment::LastBackward(_) => found.last().copied().flatten(),
            _ => found.first().copied().flatten(),
        }
    }
}
