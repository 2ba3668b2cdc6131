//! Freeing a finished run's trace while the page idles, a batch at a time.
//!
//! Run again, and the last run's trace is let go of: tens of thousands of
//! events, each with allocations of its own. Freed at once, that took 11 ms
//! of the main thread in the first frame of the digits lesson's second run
//! (profiled in Chromium's performance panel), and more after a longer run. [`bury`] keeps
//! the pieces instead and frees them from `requestIdleCallback`, while a
//! frame has time to spare.

use std::any::Any;
use std::cell::RefCell;
use std::collections::VecDeque;

/// Idle time left below which nothing more is freed until the next idle
/// period, in milliseconds: a batch of 4,096 events took about 1.5 ms.
#[cfg(target_arch = "wasm32")]
const MARGIN_MS: f64 = 2.0;

/// Where the browser has no `requestIdleCallback` (Safari), each timeout
/// frees for this long, in milliseconds.
#[cfg(target_arch = "wasm32")]
const SLICE_MS: f64 = 4.0;

thread_local! {
    static GRAVE: RefCell<VecDeque<Box<dyn Any>>> = RefCell::default();
}

/// Frees `pieces` one at a time while the page idles (natively, at once).
pub fn bury<T: 'static>(pieces: impl IntoIterator<Item = T>) {
    let was_empty = GRAVE.with(|grave| {
        let mut grave = grave.borrow_mut();
        let was_empty = grave.is_empty();
        grave.extend(pieces.into_iter().map(|p| Box::new(p) as Box<dyn Any>));
        was_empty
    });
    if was_empty {
        schedule();
    }
}

/// Frees pieces until `more` says to stop or none are left; says whether
/// any are left.
fn free_while(mut more: impl FnMut() -> bool) -> bool {
    loop {
        let Some(piece) = GRAVE.with(|grave| grave.borrow_mut().pop_front()) else {
            return false;
        };
        drop(piece);
        if !more() {
            return GRAVE.with(|grave| !grave.borrow().is_empty());
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn schedule() {
    free_while(|| true);
}

#[cfg(target_arch = "wasm32")]
fn schedule() {
    crate::frame::idle::when_idle(None, |idle| {
        let left = if idle.left_ms().is_some() {
            free_while(|| idle.left_ms().is_some_and(|left| left >= MARGIN_MS))
        } else {
            let until = js_sys::Date::now() + SLICE_MS;
            free_while(|| js_sys::Date::now() < until)
        };
        if left {
            schedule();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn what_is_buried_is_freed() {
        let buried = Rc::new(());
        bury([buried.clone(), buried.clone()]);
        // Natively nothing waits for an idle period.
        assert_eq!(Rc::strong_count(&buried), 1);
        assert!(GRAVE.with(|grave| grave.borrow().is_empty()));
    }

    #[test]
    fn a_slice_frees_a_piece_at_a_time_until_told_to_stop() {
        let buried = Rc::new(());
        GRAVE.with(|grave| {
            grave
                .borrow_mut()
                .extend((0..3).map(|_| Box::new(buried.clone()) as Box<dyn Any>));
        });
        let mut asked = 0;
        assert!(free_while(|| {
            asked += 1;
            asked < 2
        }));
        assert_eq!(Rc::strong_count(&buried), 2);
        assert!(!free_while(|| true));
        assert_eq!(Rc::strong_count(&buried), 1);
    }
}
