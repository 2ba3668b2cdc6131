//! The `__torch_function__` protocol for types that are no `Tensor`:
//! each case of `tests/fixtures/torch_function.json` (recorded from real
//! PyTorch, each in a fresh interpreter, by
//! `tests/fixtures/record_torch_function.py`) prints what PyTorch printed:
//! the arguments and types a handler is given, the order handlers are
//! called in, PyTorch's errors when all decline, and the one-time warning
//! for a handler written as a plain method. Each case is one program of
//! one runtime, so the warning's "once" starts over with each.

#![allow(clippy::panic)]

use gradscope_python::Runtime;

#[test]
fn torch_function_protocol_matches_pytorch() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/torch_function.json"))
            .unwrap_or_else(|e| panic!("torch_function.json: {e}"));
    let prelude = fixture["prelude"].as_str().unwrap_or_default();
    let cases = fixture["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() >= 6, "only {} cases", cases.len());
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
