//! The components told when a page-wide store changes: the pin
//! (`pin.rs`) and the zoom the memory view and the charts share
//! (`memory_panel/zoom.rs`) each keep one list of these, so a component
//! that reads the store re-renders when another one changes it.

use std::cell::RefCell;
use std::thread::LocalKey;

use yew::prelude::*;

/// Subscribed components, each by a number of its own.
#[derive(Default)]
pub struct Listeners {
    next: u32,
    list: Vec<(u32, Callback<()>)>,
}

/// Tells every component subscribed to `listeners`. The callbacks are
/// taken out first, so one that reads a store finds it unborrowed.
pub fn notify(listeners: &'static LocalKey<RefCell<Listeners>>) {
    let callbacks: Vec<Callback<()>> =
        listeners.with(|l| l.borrow().list.iter().map(|(_, c)| c.clone()).collect());
    for callback in callbacks {
        callback.emit(());
    }
}

/// Subscribes the calling component to `listeners` for its life: it
/// re-renders at each [`notify`].
#[hook]
pub fn use_listener(listeners: &'static LocalKey<RefCell<Listeners>>) {
    let update = use_force_update();
    use_effect_with((), move |()| {
        let id = listeners.with(|l| {
            let mut l = l.borrow_mut();
            l.next += 1;
            let id = l.next;
            l.list
                .push((id, Callback::from(move |()| update.force_update())));
            id
        });
        move || listeners.with(|l| l.borrow_mut().list.retain(|(i, _)| *i != id))
    });
}
