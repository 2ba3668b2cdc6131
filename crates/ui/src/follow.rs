//! Views folded over the trace, kept between renders: each render applies
//! only the events recorded since the last one (see
//! `gradscope_trace::follow`), so a long run's views cost the new events,
//! not the whole trace, per frame.

use std::cell::RefCell;
use std::rc::Rc;

use gradscope_trace::EventLog;
use gradscope_trace::follow::{Fold, Follow};
use yew::prelude::*;

/// The view `F` after the first `position` events of `log`.
#[hook]
pub fn use_follow<F: Fold + 'static>(log: &EventLog, position: usize) -> Rc<RefCell<Follow<F>>> {
    let follow = use_mut_ref(Follow::<F>::default);
    follow.borrow_mut().at(log, position);
    follow
}
