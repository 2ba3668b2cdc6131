//! The pinned run: a finished run the learner keeps to compare the next
//! one with. The memory panel pins and unpins; it and the charts panel
//! draw the comparison. One store for the page, outside the app's state,
//! so that the panels share it without the app passing it down; each
//! component that reads it subscribes with [`use_pin`] and re-renders when
//! a run is pinned or unpinned.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use gradscope_trace::EventLog;
use gradscope_trace::memory_chart::MemoryRecord;
use gradscope_trace::training_charts::TrainingSeries;
use yew::prelude::*;

use crate::listeners::{self, Listeners, use_listener};
use crate::share::PinnedProgram;

/// A pinned run: its trace, and the views of it a comparison reads, made
/// once, the first time one is asked for.
#[derive(Clone, Debug)]
pub struct Pinned {
    /// Tells pins apart: a new pin (or the same run pinned further along)
    /// is another.
    id: u32,
    /// The run's trace (its batches shared with the log it came from).
    pub log: EventLog,
    /// The program that made it (as [`ran`] last noted), for a share link
    /// to carry the pair; `None` when the page did not run it.
    pub program: Option<Rc<PinnedProgram>>,
    views: Rc<OnceCell<(MemoryRecord, TrainingSeries)>>,
}

impl PartialEq for Pinned {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Pinned {
    /// The pinned run's memory record.
    pub fn record(&self) -> &MemoryRecord {
        &self.views().0
    }

    /// The pinned run's training series.
    pub fn series(&self) -> &TrainingSeries {
        &self.views().1
    }

    fn views(&self) -> &(MemoryRecord, TrainingSeries) {
        self.views.get_or_init(|| {
            (
                MemoryRecord::of(self.log.iter()),
                TrainingSeries::of(self.log.iter()),
            )
        })
    }

    /// Whether `log` is another run to compare with this one: not this
    /// run (nor this run recorded further, or the start of it, as the
    /// views see it while they catch up), and not empty.
    pub fn compares_with(&self, log: &EventLog) -> bool {
        !log.is_empty() && !log.extends(&self.log) && !self.log.extends(log)
    }
}

#[derive(Default)]
struct Store {
    pinned: Option<Pinned>,
    /// The program of the last run sent to the engine.
    last_run: Option<Rc<PinnedProgram>>,
    next_id: u32,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::default();
    static LISTENERS: RefCell<Listeners> = RefCell::default();
}

/// Tells every subscriber that the pin changed.
fn notify() {
    listeners::notify(&LISTENERS);
}

/// Notes the program of a run just sent to the engine: pinning that
/// run's trace pins this program with it.
pub fn ran(program: PinnedProgram) {
    STORE.with(|s| s.borrow_mut().last_run = Some(Rc::new(program)));
}

/// Pins `log`, the run shown, in place of any pinned before.
pub fn pin(log: &EventLog) {
    STORE.with(|s| {
        let mut store = s.borrow_mut();
        store.next_id += 1;
        store.pinned = Some(Pinned {
            id: store.next_id,
            log: log.clone(),
            program: store.last_run.clone(),
            views: Rc::default(),
        });
    });
    notify();
}

/// Unpins the pinned run.
pub fn unpin() {
    STORE.with(|s| s.borrow_mut().pinned = None);
    notify();
}

/// Keeps the pin on the run as it records: a run pinned before it
/// finished is pinned further along when `log` is that run with more
/// events. Nobody is told: until another run is shown, nothing compares.
pub fn follow(log: &EventLog) {
    STORE.with(|s| {
        let mut store = s.borrow_mut();
        let longer = store
            .pinned
            .as_ref()
            .is_some_and(|p| log.len() > p.log.len() && log.extends(&p.log));
        if longer {
            store.next_id += 1;
            let program = store.pinned.as_ref().and_then(|p| p.program.clone());
            store.pinned = Some(Pinned {
                id: store.next_id,
                log: log.clone(),
                program,
                views: Rc::default(),
            });
        }
    });
}

/// The pinned run, if any, read once (no subscription): what Share reads.
pub fn pinned() -> Option<Pinned> {
    STORE.with(|s| s.borrow().pinned.clone())
}

/// The pinned run, if any; the component re-renders when it changes.
#[hook]
pub fn use_pin() -> Option<Pinned> {
    use_listener(&LISTENERS);
    STORE.with(|s| s.borrow().pinned.clone())
}
