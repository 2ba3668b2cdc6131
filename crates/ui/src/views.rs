//! When the heavy views (graph, memory, charts) take the newest trace.
//!
//! While a run streams they take it at a pace their cost allows (see
//! `pace`), one at a time, in turn, and each in an idle callback
//! ([`give_turn`]): between frames, when the page has time, not in the
//! animation frame that handed the events over, which already carries
//! their parsing. Its style, layout and paint still fall in the next
//! frame, but the update's own work (the view, yew's diff, the DOM calls,
//! about half of it) no longer does. A turn that is not due yet is asked
//! for when it will be, so a program that goes quiet after a burst of
//! events still has its views catch up. When the run ends they catch up in
//! turn too, one an idle period (the page's status says "running" until
//! they have: the views are what a finished run shows). A new run brings
//! them all up to date at once, in the frame that asked, and so does a
//! step or scrub once they have caught up; one during a run, or while
//! they catch up, is taken in turn like the newest events. The page and
//! the widget draw their views through this one hook.

use std::cell::RefCell;
use std::rc::Rc;

use gradscope_trace::EventLog;
use gradscope_trace::playback::Playback;
use yew::prelude::*;

use crate::frame::pace::Pacer;

/// What each of `count` heavy views shows now (the trace and the position
/// in it), and whether they are still catching up with a run that ended.
#[hook]
pub fn use_views(
    playback: &Playback,
    running: bool,
    count: usize,
) -> (Vec<(EventLog, usize)>, bool) {
    let pacer = use_mut_ref(Pacer::default);
    let shown = use_mut_ref(Vec::<Option<(EventLog, usize)>>::new);
    let turn = use_mut_ref(|| 0usize);
    let turns = use_mut_ref(Turns::default);
    let redraw = use_force_update();
    let now = js_sys::Date::now();
    let position = playback.position();
    let len = playback.log().len();
    let restarted = shown
        .borrow()
        .iter()
        .flatten()
        .any(|(log, _)| !playback.log().extends(log));
    let complete = shown.borrow().len() == count && shown.borrow().iter().all(Option::is_some);
    let fresh = Some((playback.log().clone(), position));
    let given = std::mem::take(&mut turns.borrow_mut().given);
    let mut updated = false;
    let stale = |s: &Option<(EventLog, usize)>| {
        s.as_ref()
            .is_none_or(|(log, at)| log.len() != len || *at != position)
    };
    {
        let mut shown = shown.borrow_mut();
        let mut turn = turn.borrow_mut();
        if restarted || !complete {
            *shown = vec![fresh; count];
            updated = true;
        } else if running || shown.iter().flatten().any(|(log, _)| log.len() != len) {
            // Streaming, or the run's end: the next view behind, in turn.
            if given
                && let Some(i) = (0..count)
                    .map(|k| (*turn + k) % count)
                    .find(|&i| stale(&shown[i]))
            {
                shown[i] = fresh;
                *turn = (i + 1) % count;
                updated = true;
            }
        } else if shown.iter().any(stale) {
            *shown = vec![fresh; count];
            updated = true;
        }
    }
    // Every view is shown by now: behind is stale.
    let behind = shown.borrow().iter().any(stale);
    let catching_up = !running && behind;
    {
        let (pacer, turns) = (pacer.clone(), turns.clone());
        // Runs after the views are drawn: what their update cost, and the
        // next view's turn, once the pacer allows it while a run streams.
        use_effect(move || {
            if updated {
                pacer.borrow_mut().updated(now, js_sys::Date::now());
            }
            let mut t = turns.borrow_mut();
            // The run ended while a turn waited for the pacer: its wait is
            // over, the catch-up goes now.
            if !running && t.waiting.is_some() {
                t.waiting = None;
                t.asked = false;
            }
            if behind && !std::mem::replace(&mut t.asked, true) {
                let wait_ms = if running {
                    pacer.borrow().wait_ms(js_sys::Date::now())
                } else {
                    0.0
                };
                t.timers += 1;
                let timer = t.timers;
                t.waiting = Some(timer);
                drop(t);
                crate::frame::idle::after(wait_ms, move || {
                    // Unless the wait was called off (the run ended).
                    let mine = turns.borrow().waiting == Some(timer);
                    if mine {
                        turns.borrow_mut().waiting = None;
                        give_turn(turns, pacer, redraw, 0);
                    }
                });
            }
        });
    }
    let views = shown.borrow().iter().flatten().cloned().collect();
    (views, catching_up)
}

/// Whether the heavy views' next turn was asked for, and given.
#[derive(Default)]
struct Turns {
    asked: bool,
    given: bool,
    /// The timer a turn waits for (the pacer's pause), if it does.
    waiting: Option<u64>,
    /// Timers started so far: each wait's number.
    timers: u64,
}

/// The longest a turn waits for the page to idle (ms).
const TURN_WAIT_MS: u32 = 200;

/// Gives the heavy views their next turn in an idle period long enough
/// for it (see [`Pacer::fits_idle`]), and draws the caller again to take it.
fn give_turn(
    turns: Rc<RefCell<Turns>>,
    pacer: Rc<RefCell<Pacer>>,
    redraw: UseForceUpdateHandle,
    passed: u32,
) {
    crate::frame::idle::when_idle(Some(TURN_WAIT_MS), move |idle| {
        if !pacer
            .borrow()
            .fits_idle(idle.left_ms(), idle.timed_out(), passed)
        {
            return give_turn(turns, pacer, redraw, passed + 1);
        }
        let mut t = turns.borrow_mut();
        t.asked = false;
        t.given = true;
        drop(t);
        redraw.force_update();
    });
}
