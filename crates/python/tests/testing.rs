//! `torch.testing.assert_close` (and the deprecated `assert_allclose`):
//! each case of `tests/fixtures/testing.json` (recorded from real PyTorch
//! by `tests/fixtures/record_testing.py`) prints what PyTorch printed: `ok`,
//! or the exception's type and its full message (mismatch counts, greatest
//! differences and their indices, tolerances, the failing item's path).

#![allow(clippy::panic)]

use gradscope_python::Runtime;

#[test]
fn assert_close_matches_pytorch() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/testing.json"))
            .unwrap_or_else(|e| panic!("testing.json: {e}"));
    let prelude = fixture["prelude"].as_str().unwrap_or_default();
    let cases = fixture["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
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
