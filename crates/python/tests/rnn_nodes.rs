//! The `grad_fn`s of recurrent layers' outputs, as a program prints them:
//! `tests/fixtures/rnn_nodes.json` (recorded from real PyTorch's CPU
//! kernels by `tests/fixtures/record_rnn_nodes.py`) holds a program that
//! prints, for each configuration, the node of the layer output and of the
//! final states (`MkldnnRnnLayerBackward0` for a float32 or bfloat16 LSTM
//! layer, composed ops otherwise), a backward pass through an LSTM, and a
//! bfloat16 `linear` with a bias (one float32 product and sum rounded
//! once); gradscope prints the same, numbers within the corpus tolerance.

#![allow(clippy::panic)]

mod compare;

use gradscope_python::Runtime;

#[test]
fn recurrent_output_nodes_match_pytorch() {
    compare::self_check();
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/rnn_nodes.json"))
            .unwrap_or_else(|e| panic!("rnn_nodes.json: {e}"));
    let program = fixture["program"].as_str().unwrap_or_default();
    let expected = fixture["output"].as_str().unwrap_or_default();
    assert!(expected.contains("MkldnnRnnLayerBackward0"), "{expected}");
    let out = Runtime::new().run(program);
    assert_eq!(out.error, None, "{}{}", out.stdout, out.stderr);
    if let Some(diff) = compare::compare(expected, &out.stdout) {
        panic!("{diff}\n--- expected\n{expected}--- got\n{}", out.stdout);
    }
}
