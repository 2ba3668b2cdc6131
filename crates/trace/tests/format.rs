//! Tensor printing against PyTorch's `str()`, byte for byte, over the corpus
//! recorded by `tests/fixtures/record_format.py`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_trace::format::{Elements, PrintOptions, TensorRepr, size_str, tensor_str};
use serde_json::Value;

const FIXTURE: &str = include_str!("../../../tests/fixtures/format.json");

fn cases() -> serde_json::Map<String, Value> {
    let all: Value = serde_json::from_str(FIXTURE).unwrap();
    all["cases"].as_object().unwrap().clone()
}

fn float(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) if s == "nan" => f64::NAN,
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        other => panic!("not a float: {other}"),
    }
}

fn options(v: &Value) -> PrintOptions {
    let mut options = PrintOptions::default();
    for (key, value) in v.as_object().unwrap() {
        let n = || value.as_u64().unwrap() as usize;
        match key.as_str() {
            "precision" => options.precision = n(),
            "threshold" => options.threshold = n(),
            "edgeitems" => options.edgeitems = n(),
            "linewidth" => options.linewidth = n(),
            "sci_mode" => options.sci_mode = value.as_bool(),
            other => panic!("unknown print option {other}"),
        }
    }
    options
}

/// Prints one recorded case as gradscope would.
fn print(case: &Value) -> String {
    let values = case["values"].as_array().unwrap();
    let shape: Vec<usize> = case["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    let dtype = case["dtype"].as_str().unwrap();
    // serde_json's default float parsing can miss by an ulp; float32 values
    // are exact once rounded back to f32.
    let floats: Vec<f64> = match dtype {
        "float32" => values.iter().map(|v| f64::from(float(v) as f32)).collect(),
        "float64" => values.iter().map(float).collect(),
        _ => vec![],
    };
    let ints: Vec<i64> = values.iter().filter_map(Value::as_i64).collect();
    let bools: Vec<bool> = values.iter().filter_map(Value::as_bool).collect();
    let elements = match dtype {
        "float32" | "float64" => Elements::Float(&floats),
        "int64" => Elements::Int(&ints),
        "bool" => Elements::Bool(&bools),
        other => panic!("unexpected dtype {other}"),
    };
    TensorRepr::new(elements, &shape, dtype)
        .with_grad(
            case["requires_grad"].as_bool().unwrap(),
            case["grad_fn"].as_str(),
        )
        .to_string_with(&options(&case["options"]))
}

#[test]
fn tensor_repr_matches_pytorch() {
    let cases = cases();
    let mut failures = vec![];
    let mut count = 0;
    for (name, case) in &cases {
        if name == "sizes" {
            continue;
        }
        count += 1;
        let expected = case["str"].as_str().unwrap();
        let actual = print(case);
        if actual != expected {
            failures.push(format!("{name}:\n{actual}\n--- PyTorch ---\n{expected}"));
        }
    }
    assert!(count >= 60, "only {count} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn tensor_str_is_the_float32_repr() {
    let case = &cases()["matrix_int_mode"];
    let values: Vec<f64> = case["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(float)
        .collect();
    assert_eq!(tensor_str(&values, &[2, 2]), case["str"].as_str().unwrap());
}

#[test]
fn size_str_matches_pytorch() {
    for case in cases()["sizes"].as_array().unwrap() {
        let shape: Vec<usize> = case["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(size_str(&shape), case["str"].as_str().unwrap());
    }
}

#[test]
fn tensor_repr_short_of_elements_does_not_panic() {
    let short = TensorRepr::new(Elements::Float(&[1.0]), &[2, 2], "float32");
    assert!(short.to_string().starts_with("tensor("));
}
