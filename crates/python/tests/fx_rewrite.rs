//! `torch.fx.replace_pattern` (the subgraph rewriter):
//! each case of `tests/fixtures/fx_rewrite.json` (recorded from real
//! PyTorch by `tests/fixtures/record_fx_rewrite.py`) replaces the same
//! matches (non-overlapping, self-contained, placeholders standing for the
//! same value wherever used, literals compared) and leaves the module with
//! the same generated code and results as PyTorch's.

#![allow(clippy::panic)]

use gradscope_python::Runtime;

#[test]
fn replace_pattern_matches_pytorch() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/fx_rewrite.json"))
            .unwrap_or_else(|e| panic!("fx_rewrite.json: {e}"));
    let prelude = fixture["prelude"].as_str().unwrap_or_default();
    let cases = fixture["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() >= 7, "only {} cases", cases.len());
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
