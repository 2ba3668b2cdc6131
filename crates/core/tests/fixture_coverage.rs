//! Every op in the op table has a recorded PyTorch case: for each variant
//! of every op enum (`gradscope_core::gradcheck::variants()`, which an
//! exhaustive `match` and the unary table keep complete), the node PyTorch names it
//! (`ExpBackward0`) appears in a fixture the tests here check, or the op
//! is listed below with the reason it has none.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use std::collections::BTreeMap;

use gradscope_core::gradcheck::{cases, check, variant, variants};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

/// The fixtures the core's tests check values and nodes against.
const FIXTURES: &[&str] = &[
    include_str!("../../../tests/fixtures/autograd.json"),
    include_str!("../../../tests/fixtures/autograd_api.json"),
    include_str!("../../../tests/fixtures/elementwise.json"),
    include_str!("../../../tests/fixtures/inplace_views.json"),
    include_str!("../../../tests/fixtures/nn.json"),
    include_str!("../../../tests/fixtures/optim.json"),
    include_str!("../../../tests/fixtures/reduce.json"),
    include_str!("../../../tests/fixtures/shape.json"),
];

/// Ops with no recorded case, each with the reason (the test fails when
/// one of them gains a case, so the list stays true).
const NO_FIXTURE: &[(&str, &str)] = &[
    (
        "UnaryOp::ToDtype",
        "no recorded case: gradcheck's `to (float64 -> float32 -> float64)` rows check it",
    ),
    (
        "UnaryOp::ToDevice",
        "needs a GPU: gradcheck --device webgpu's `to (webgpu -> cpu -> webgpu)` row checks it",
    ),
    (
        "ViewOp::SliceBackward",
        "a double-backward node: the fixtures record second derivatives' values, not their nodes; gradcheck's `slice_backward (double backward)` row checks it",
    ),
    (
        "ViewOp::SelectBackward",
        "a double-backward node: the fixtures record second derivatives' values, not their nodes; gradcheck's `select_backward (double backward)` row checks it",
    ),
    (
        "ViewOp::DiagonalBackward",
        "a double-backward node: the fixtures record second derivatives' values, not their nodes; gradcheck's `diagonal_backward (double backward)` row checks it",
    ),
    (
        "NnOp::AvgPool2dBackward",
        "a double-backward node: the fixtures record second derivatives' values, not their nodes; gradcheck's `avg_pool2d_backward (double backward)` row checks it",
    ),
    (
        "ViewOp::Diagonal",
        "no recorded case yet: gradcheck's `diagonal` rows check it",
    ),
    (
        "IndexOp::Scatter",
        "no recorded case yet: gradcheck's `scatter` rows check it",
    ),
];

every_target! {
    fn every_op_has_a_fixture_case_or_a_reason() {
        // An op of each variant, from the gradcheck table's graphs.
        let mut ops = BTreeMap::new();
        for row in cases().iter().map(check) {
            for op in row.op.iter().chain(&row.graph_ops) {
                ops.entry(variant(op)).or_insert_with(|| op.clone());
            }
        }
        let mut missing = vec![];
        for name in variants() {
            let node = ops.get(name).map(|op| op.node_name());
            let recorded = node.is_some_and(|node| {
                let quoted = format!("\"{node}\"");
                FIXTURES.iter().any(|f| f.contains(&quoted))
            });
            if !recorded {
                missing.push((name, node.unwrap_or("(no gradcheck row reaches it)")));
            }
        }
        let unexplained: Vec<_> = missing
            .iter()
            .filter(|(name, _)| !NO_FIXTURE.iter().any(|(n, _)| n == name))
            .collect();
        assert!(unexplained.is_empty(), "ops with no fixture case and no reason: {unexplained:?}");
        // A reason for an op that has a case now is stale.
        for (name, _) in NO_FIXTURE {
            assert!(missing.iter().any(|(n, _)| n == name), "{name} has a fixture case now");
        }
    }
}
