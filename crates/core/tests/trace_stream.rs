//! Streaming a recording: a page draws a long program as it runs, so the
//! events must arrive in batches, in order, with none lost or repeated.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use gradscope_core::{Tensor, trace};
use gradscope_trace::Event;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Runs a small graph forward and backward while streaming in batches of
/// `max_len`; returns the batches and what `stop_recording` returned.
fn stream(max_len: usize, every: Duration) -> (Vec<Vec<Event>>, Vec<Event>) {
    let batches: Rc<RefCell<Vec<Vec<Event>>>> = Rc::default();
    let sink = batches.clone();
    trace::start_streaming(Box::new(move |b| sink.borrow_mut().push(b)), max_len, every);
    program();
    let rest = trace::stop_recording();
    let batches = batches.borrow().clone();
    (batches, rest)
}

/// A small graph built, walked backward and dropped.
fn program() {
    let x = Tensor::ones(&[3]).requires_grad_(true);
    let mut y = x.clone();
    for _ in 0..10 {
        y = y.mul(&Tensor::scalar(1.5)).unwrap();
    }
    y.sum().unwrap().backward().unwrap();
}

fn seqs(events: &[Event]) -> Vec<u64> {
    events.iter().map(|e| e.seq).collect()
}

every_target! {
    fn streamed_batches_are_bounded_ordered_and_complete() {
        let (batches, rest) = stream(7, Duration::from_secs(3600));
        assert!(batches.len() > 2, "only {} batches", batches.len());
        assert!(batches.iter().all(|b| b.len() == 7), "a batch is not full");
        let all: Vec<Event> = batches.into_iter().flatten().chain(rest).collect();
        let expected: Vec<u64> = (0..all.len() as u64).collect();
        assert_eq!(seqs(&all), expected);
    }

    fn flush_sends_what_waits_and_stop_returns_the_rest() {
        let batches: Rc<RefCell<Vec<Vec<Event>>>> = Rc::default();
        let sink = batches.clone();
        trace::start_streaming(Box::new(move |b| sink.borrow_mut().push(b)), 1000, Duration::from_secs(3600));
        let x = Tensor::ones(&[2]).requires_grad_(true);
        let _y = x.mul(&x).unwrap();
        assert!(batches.borrow().is_empty());
        trace::flush();
        let sent = batches.borrow().concat();
        assert!(!sent.is_empty());
        trace::flush();
        assert_eq!(batches.borrow().len(), 1, "an empty flush sent a batch");
        let _z = x.add(&x).unwrap();
        let rest = trace::stop_recording();
        assert_eq!(rest.first().map(|e| e.seq), Some(sent.len() as u64));
    }

    fn plain_recording_is_unchanged_by_streaming() {
        let (batches, rest) = stream(5, Duration::from_secs(3600));
        let streamed: Vec<Event> = batches.into_iter().flatten().chain(rest).collect();
        let ((), recorded) = trace::record(program);
        let kinds = |e: &[Event]| e.iter().map(|e| format!("{:?}", e.kind)).collect::<Vec<_>>();
        // Tensor ids differ between runs; compare the kinds' names.
        let names = |e: &[Event]| kinds(e).into_iter().map(|k| k.split(['(', ' ', '{']).next().unwrap_or("").to_string()).collect::<Vec<_>>();
        assert_eq!(names(&streamed), names(&recorded));
    }
}
