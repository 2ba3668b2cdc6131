//! Fixture programs held to what real PyTorch printed for them, one test
//! per fixture file (`tests/fixtures/NAME.json`, recorded by
//! `tests/fixtures/record_NAME.py`), in one test binary: each binary links
//! the interpreter again, seconds of every cold build.

#![allow(clippy::panic)]

mod compare;

use gradscope_python::Runtime;

/// Runs each case of a fixture (`{"prelude", "cases": [{"name", "source",
/// "output"}]}`) on one runtime, the prelude before each, and fails with
/// every case whose printed output differs from PyTorch's or that raised.
fn check_cases(json: &str, file: &str, at_least: usize) {
    let fixture: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{file}: {e}"));
    let prelude = fixture["prelude"].as_str().unwrap_or_default();
    let cases = fixture["cases"].as_array().cloned().unwrap_or_default();
    assert!(
        cases.len() >= at_least,
        "{file}: only {} cases",
        cases.len()
    );
    let mut rt = Runtime::new();
    let mut failures = vec![];
    for case in &cases {
        let text = |key: &str| case[key].as_str().unwrap_or_default().to_string();
        let out = rt.run(&format!("{prelude}{}\n", text("source")));
        if out.error.is_some() || out.stdout != text("output") {
            failures.push(format!(
                "{}:\n--- expected\n{}--- got\n{}{}",
                text("name"),
                text("output"),
                out.stdout,
                out.error
                    .map(|e| format!("{}: {}", e.type_name, e.message))
                    .unwrap_or_default()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `torch.testing.assert_close` (and the deprecated `assert_allclose`):
/// each case of `tests/fixtures/testing.json` (recorded from real PyTorch
/// by `tests/fixtures/record_testing.py`) prints what PyTorch printed: `ok`,
/// or the exception's type and its full message (mismatch counts, greatest
/// differences and their indices, tolerances, the failing item's path).
#[test]
fn assert_close_matches_pytorch() {
    check_cases(
        include_str!("../../../tests/fixtures/testing.json"),
        "testing.json",
        30,
    );
}

/// `torch.fx.replace_pattern` (the subgraph rewriter):
/// each case of `tests/fixtures/fx_rewrite.json` (recorded from real
/// PyTorch by `tests/fixtures/record_fx_rewrite.py`) replaces the same
/// matches (non-overlapping, self-contained, placeholders standing for the
/// same value wherever used, literals compared) and leaves the module with
/// the same generated code and results as PyTorch's.
#[test]
fn replace_pattern_matches_pytorch() {
    check_cases(
        include_str!("../../../tests/fixtures/fx_rewrite.json"),
        "fx_rewrite.json",
        7,
    );
}

/// The `__torch_function__` protocol for types that are no `Tensor`:
/// each case of `tests/fixtures/torch_function.json` (recorded from real
/// PyTorch, each in a fresh interpreter, by
/// `tests/fixtures/record_torch_function.py`) prints what PyTorch printed:
/// the arguments and types a handler is given, the order handlers are
/// called in, PyTorch's errors when all decline, and the one-time warning
/// for a handler written as a plain method. Each case is one program of
/// one runtime, so the warning's "once" starts over with each.
#[test]
fn torch_function_protocol_matches_pytorch() {
    check_cases(
        include_str!("../../../tests/fixtures/torch_function.json"),
        "torch_function.json",
        6,
    );
}

/// The `grad_fn`s of recurrent layers' outputs, as a program prints them:
/// `tests/fixtures/rnn_nodes.json` (recorded from real PyTorch's CPU
/// kernels by `tests/fixtures/record_rnn_nodes.py`) holds a program that
/// prints, for each configuration, the node of the layer output and of the
/// final states (`MkldnnRnnLayerBackward0` for a float32 or bfloat16 LSTM
/// layer, composed ops otherwise), a backward pass through an LSTM, and a
/// bfloat16 `linear` with a bias (one float32 product and sum rounded
/// once); gradscope prints the same, numbers within the corpus tolerance.
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
