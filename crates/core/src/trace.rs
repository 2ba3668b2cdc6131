//! Trace emission: the engine reports what it does to an optional subscriber.
//!
//! With no subscriber, [`emit`] costs one thread-local flag test and never
//! builds the event: callers pass a closure.

use std::cell::{Cell, RefCell};

use gradscope_trace::{Event, EventKind};
use web_time::Instant;

thread_local! {
    static LINE: Cell<Option<u32>> = const { Cell::new(None) };
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static SINK: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

struct Recorder {
    start: Instant,
    events: Vec<Event>,
}

/// Reports one event if someone is recording on this thread.
#[inline]
pub fn emit(kind: impl FnOnce() -> EventKind) {
    if is_recording() {
        SINK.with(|sink| {
            if let Some(rec) = sink.borrow_mut().as_mut() {
                let seq = rec.events.len() as u64;
                let time_us = rec.start.elapsed().as_micros() as u64;
                let line = LINE.with(Cell::get);
                rec.events.push(Event {
                    seq,
                    time_us,
                    line,
                    kind: kind(),
                });
            }
        });
    }
}

/// Whether someone is recording on this thread: the one branch every
/// emission point pays when no one is.
#[inline]
pub fn is_recording() -> bool {
    ACTIVE.with(Cell::get)
}

/// Sets the program line the Python runtime is running, which every event
/// and node created from now on carries (`None` outside a program).
pub fn set_current_line(line: Option<u32>) {
    LINE.with(|l| l.set(line));
}

/// The program line set by [`set_current_line`].
pub fn current_line() -> Option<u32> {
    LINE.with(Cell::get)
}

/// Starts recording events on this thread, dropping any earlier recording.
pub fn start_recording() {
    SINK.with(|sink| {
        *sink.borrow_mut() = Some(Recorder {
            start: Instant::now(),
            events: vec![],
        })
    });
    ACTIVE.with(|a| a.set(true));
}

/// Stops recording and returns what was recorded (empty if nothing was).
pub fn stop_recording() -> Vec<Event> {
    ACTIVE.with(|a| a.set(false));
    SINK.with(|sink| {
        sink.borrow_mut()
            .take()
            .map(|r| r.events)
            .unwrap_or_default()
    })
}

/// Runs `f` while recording, and returns its result with the events it caused.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Vec<Event>) {
    start_recording();
    let value = f();
    (value, stop_recording())
}
