//! Runs the programs of `tests/fixtures/numpy.json` (recorded from real
//! NumPy by `tests/fixtures/record_numpy.py`) through the runtime's `numpy`
//! and compares what they print byte for byte: values, dtypes, shapes,
//! printed arrays and scalars, errors (type and message), random streams.
//!
//! A case recorded with `"rel_tol"` compares its numbers within that
//! relative tolerance instead and the rest of its text exactly: NumPy's
//! float64 `power` runs SIMD code (SVML on AVX-512 machines) whose last bit
//! differs from C's `pow` for a few elements in a hundred, and a training
//! loop carries such a bit into its last printed digits.
//!
//! `cargo test -p gradscope-python --test numpy [NAME...]` runs every case,
//! or those whose names contain a NAME.

use std::path::Path;
use std::process::ExitCode;

use gradscope_python::{RunOutput, Runtime};

/// What the recorder writes for a run: stdout, then the exception if any.
fn render(out: &RunOutput) -> String {
    let mut text = out.stdout.clone();
    if let Some(err) = &out.error {
        text.push_str(&format!(
            "=== raised {} ===\n{}\n",
            err.type_name, err.message
        ));
    }
    text
}

/// The text with trailing spaces cut from the exception's lines: the runtime
/// reports `str(exc)` without them (NumPy's broadcast message ends in one).
fn normalised(text: &str) -> String {
    match text.find("=== raised ") {
        Some(at) => {
            let mut out = text[..at].to_string();
            for line in text[at..].lines() {
                out.push_str(line.trim_end());
                out.push('\n');
            }
            out
        }
        None => text.to_string(),
    }
}

/// Splits text into tokens at whitespace and brackets, keeping the separators
/// as tokens of their own so that layout still compares exactly.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_whitespace() || "[](),:".contains(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn same_within(expected: &str, got: &str, rel_tol: f64) -> bool {
    let (e, g) = (tokens(expected), tokens(got));
    e.len() == g.len()
        && e.iter().zip(&g).all(|(a, b)| {
            a == b
                || match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(x), Ok(y)) => (x - y).abs() <= rel_tol * x.abs().max(y.abs()),
                    _ => false,
                }
        })
}

fn first_difference(expected: &str, got: &str) -> String {
    for (i, (e, g)) in expected.lines().zip(got.lines()).enumerate() {
        if e != g {
            return format!("line {}:\n  numpy: {e}\n  ours:  {g}", i + 1);
        }
    }
    format!(
        "numpy printed {} lines, ours {}:\n--- numpy\n{expected}--- ours\n{got}",
        expected.lines().count(),
        got.lines().count()
    )
}

fn main() -> ExitCode {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/numpy.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(err) => {
            eprintln!("{}: {err}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let doc: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(err) => {
            eprintln!("{}: {err}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let cases = doc["cases"].as_array().cloned().unwrap_or_default();
    if cases.is_empty() {
        eprintln!("{}: no cases", path.display());
        return ExitCode::FAILURE;
    }
    let (mut passed, mut failed) = (0, Vec::new());
    for case in &cases {
        let name = case["name"].as_str().unwrap_or_default();
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let code = case["code"].as_str().unwrap_or_default();
        let expected = case["output"].as_str().unwrap_or_default();
        let mut runtime = Runtime::new();
        let got = normalised(&render(&runtime.run(code)));
        let expected = normalised(expected);
        let ok = match case["rel_tol"].as_f64() {
            Some(tol) => same_within(&expected, &got, tol),
            None => got == expected,
        };
        if ok {
            passed += 1;
        } else {
            eprintln!("FAIL {name}: {}", first_difference(&expected, &got));
            failed.push(name.to_string());
        }
    }
    println!(
        "numpy fixtures ({}): {passed} passed, {} failed",
        doc["numpy"].as_str().unwrap_or("?"),
        failed.len()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("failed: {}", failed.join(", "));
        ExitCode::FAILURE
    }
}
