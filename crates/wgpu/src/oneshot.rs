//! A one-value channel whose receiver is a future: how a `map_async`
//! callback hands its result to the `async fn` waiting for it, natively and
//! in the browser alike, without an executor-specific dependency.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

struct Slot<T> {
    value: Option<T>,
    waker: Option<Waker>,
    sender_gone: bool,
}

type Shared<T> = Arc<Mutex<Slot<T>>>;

fn lock<T>(shared: &Shared<T>) -> MutexGuard<'_, Slot<T>> {
    // A poisoned slot still holds a valid value or none; nothing to repair.
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The sending half: used once, by the callback.
pub(crate) struct Sender<T>(Shared<T>);

/// The receiving half: resolves to the value, or to `None` if the sender was
/// dropped without sending.
pub(crate) struct Receiver<T>(Shared<T>);

/// A connected sender and receiver.
pub(crate) fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Mutex::new(Slot {
        value: None,
        waker: None,
        sender_gone: false,
    }));
    (Sender(shared.clone()), Receiver(shared))
}

impl<T> Sender<T> {
    /// Hands `value` to the receiver and wakes it.
    pub(crate) fn send(self, value: T) {
        lock(&self.0).value = Some(value);
        // Drop wakes the receiver.
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let waker = {
            let mut slot = lock(&self.0);
            slot.sender_gone = true;
            slot.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl<T> Future for Receiver<T> {
    type Output = Option<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let mut slot = lock(&self.0);
        if let Some(value) = slot.value.take() {
            Poll::Ready(Some(value))
        } else if slot.sender_gone {
            Poll::Ready(None)
        } else {
            slot.waker = Some(cx.waker().clone());
            Poll::Pending
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn oneshot_delivers_value() {
        let (tx, rx) = channel();
        tx.send(7);
        assert_eq!(pollster::block_on(rx), Some(7));
    }

    #[test]
    fn oneshot_dropped_sender_resolves_none() {
        let (tx, rx) = channel::<i32>();
        let waiter = std::thread::spawn(move || pollster::block_on(rx));
        drop(tx);
        assert_eq!(waiter.join().ok().flatten(), None);
    }
}
