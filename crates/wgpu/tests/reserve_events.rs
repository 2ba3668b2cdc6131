//! The trace hears the GPU caching allocator's reserve (`DeviceReserved`)
//! when it changes, so the memory view can draw reserved beside allocated
//! bytes: growing as GPU ops allocate, unchanged while cached blocks are
//! reused, and falling to the live bytes after `empty_cache`.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::engine::{gpu, open};
use gradscope_core::device as engine;
use gradscope_core::{Tensor, trace};
use gradscope_trace::EventKind;

fn reserves(events: &[gradscope_trace::Event]) -> Vec<u64> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::DeviceReserved { device, bytes } => {
                assert_eq!(device, "webgpu");
                Some(*bytes)
            }
            _ => None,
        })
        .collect()
}

#[test]
fn reserve_changes_are_traced() {
    if !open() {
        return;
    }
    let (_, events) = trace::record(|| {
        let x = gpu(&common::tensor(&[256, 256], 1));
        for _ in 0..3 {
            // Each product is dropped before the next: its block is reused.
            let y = x.mul(&x).unwrap();
            drop(y);
        }
        drop(x);
        engine::empty_cache();
        // A later op on the GPU reports nothing new unless the reserve moves.
        let small = gpu(&Tensor::ones(&[2]));
        drop(small.add(&small).unwrap());
    });
    let seen = reserves(&events);
    assert!(seen.len() >= 2, "{seen:?}");
    // Consecutive reports differ: only changes are traced.
    assert!(seen.windows(2).all(|w| w[0] != w[1]), "{seen:?}");
    let peak = *seen.iter().max().unwrap();
    assert!(
        peak >= 2 * 256 * 256 * 4,
        "two 256x256 float32 buffers: {seen:?}"
    );
    // empty_cache gave the cached blocks back: the reserve fell.
    assert!(seen.iter().any(|&b| b < peak), "{seen:?}");
}
