//! The memory ledger: exact bytes by category as graphs are built, walked
//! and freed, and the budget's out-of-memory error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

mod common;

use gradscope_core::grad_mode::GradModeGuard;
use gradscope_core::ledger::{self, Category};
use gradscope_core::{Error, Tensor, trace};
use gradscope_trace::EventKind;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const N: usize = 256;
const BYTES: u64 = (N * 4) as u64;

every_target! {
    fn saved_bytes_are_the_saved_activations_and_zero_after_backward() {
        let base = ledger::saved_for_backward_bytes();
        let x = Tensor::ones(&[N]).requires_grad_(true);
        // mul saves x twice (one storage, counted once); exp saves its result.
        let y = x.mul(&x).unwrap();
        assert_eq!(ledger::saved_for_backward_bytes() - base, BYTES);
        let z = y.exp().unwrap();
        assert_eq!(ledger::saved_for_backward_bytes() - base, 2 * BYTES);
        let loss = z.sum().unwrap();
        loss.backward().unwrap();
        assert_eq!(ledger::saved_for_backward_bytes(), base);
        assert_eq!(x.grad().unwrap().storage().category(), Category::Gradient);
    }

    fn nothing_is_saved_under_no_grad() {
        let base = ledger::saved_for_backward_bytes();
        let x = Tensor::ones(&[N]).requires_grad_(true);
        let _guard = GradModeGuard::no_grad();
        let y = x.mul(&x).unwrap().exp().unwrap();
        assert_eq!(ledger::saved_for_backward_bytes(), base);
        assert!(y.grad_fn().is_none());
    }

    fn keeping_the_loss_keeps_its_graph_and_item_does_not() {
        let x = Tensor::ones(&[N]).requires_grad_(true);
        let step = || x.mul(&x).unwrap().exp().unwrap().sum().unwrap();
        let base = ledger::memory_allocated();
        let mut kept = vec![];
        let mut growth = vec![];
        for _ in 0..3 {
            kept.push(step());
            growth.push(ledger::memory_allocated() - base);
        }
        // Each kept loss holds its graph: memory grows by the same step each time.
        assert!(growth[0] > 0 && growth[1] == 2 * growth[0] && growth[2] == 3 * growth[0]);
        drop(kept);
        let mut total = 0.0;
        for _ in 0..3 {
            total += step().item().unwrap();
        }
        assert_eq!(ledger::memory_allocated(), base);
        assert_eq!(total, 3.0 * N as f64 * 1f64.exp() as f32 as f64);
    }

    fn roles_move_bytes_between_categories_and_back() {
        let before = ledger::stats();
        let w = Tensor::ones(&[N]).requires_grad_(true);
        w.set_memory_role(Some(Category::Parameter));
        let after = ledger::stats();
        assert_eq!(after.current(Category::Parameter) - before.current(Category::Parameter), BYTES);
        // The same role again (an optimizer given an nn.Parameter) moves nothing.
        let ((), events) = trace::record(|| w.set_memory_role(Some(Category::Parameter)));
        assert!(
            !events.iter().any(|e| matches!(e.kind, EventKind::StorageRecategorised { .. })),
            "{events:?}"
        );
        assert_eq!(ledger::stats().current, after.current);
        w.set_grad(Some(Tensor::zeros(&[N])));
        assert_eq!(ledger::stats().current(Category::Gradient) - before.current(Category::Gradient), BYTES);
        w.set_grad(None);
        assert_eq!(ledger::stats().current(Category::Gradient), before.current(Category::Gradient));
        drop(w);
        assert_eq!(ledger::stats().current, before.current);
    }

    fn trace_reports_recategorisation() {
        let ((), events) = trace::record(|| {
            let x = Tensor::ones(&[4]).requires_grad_(true);
            x.mul(&x).unwrap().sum().unwrap().backward().unwrap();
        });
        let moves: Vec<Category> = events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::StorageRecategorised { category, .. } => Some(category),
                _ => None,
            })
            .collect();
        // Saved by mul, released by backward, x.grad set, then x dropped
        // (its grad's storage leaves the gradient category before it is freed).
        let expected =
            [Category::SavedForBackward, Category::Other, Category::Gradient, Category::Other];
        assert_eq!(moves, expected);
    }

    fn budget_refuses_an_allocation_with_an_out_of_memory_error() {
        let base = ledger::memory_allocated();
        ledger::set_memory_budget(Some(base + 3 * BYTES));
        let x = Tensor::ones(&[N]).requires_grad_(true);
        let y = x.mul(&x).unwrap();
        let err = y.mul(&x).unwrap().exp().unwrap_err();
        ledger::set_memory_budget(None);
        assert!(matches!(err, Error::OutOfMemory { requested: BYTES, .. }));
        assert_eq!(err.python_type(), "OutOfMemoryError");
        assert!(err.to_string().starts_with("out of memory. Tried to allocate 1.00 KiB."), "{err}");
        // The refused allocation was never counted, and the engine goes on.
        assert!(ledger::memory_allocated() <= base + 3 * BYTES);
        assert!(y.exp().is_ok());
    }

    fn memory_summary_lists_every_category() {
        let summary = ledger::memory_summary();
        for c in Category::ALL {
            assert!(summary.contains(c.label()), "{summary}");
        }
        assert!(summary.contains("total"));
    }
}

every_target! {
    fn timeline_view_agrees_with_the_ledger() {
        let before = ledger::stats();
        let (kept, events) = trace::record(|| {
            let x = Tensor::ones(&[N]).requires_grad_(true);
            let loss = x.mul(&x).unwrap().exp().unwrap().sum().unwrap();
            (x, loss)
        });
        let last = gradscope_trace::memory::timeline(&events).pop().unwrap();
        let now = ledger::stats();
        for c in Category::ALL {
            assert_eq!(last.bytes[c as usize], now.current(c) - before.current(c), "{c:?}");
        }
        drop(kept);
    }
}
