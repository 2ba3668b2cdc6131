//! Helpers shared by the core's integration tests: the `every_target!`
//! macro (each test runs natively and in headless Chromium), fixture
//! loading, tolerances and gradcheck shorthands.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gradscope_core::Tensor;
use gradscope_core::autograd::gradcheck::{GradcheckOptions, gradcheck};
use serde_json::Value;

/// Declares tests that run natively and, compiled to wasm, in the browser.
#[macro_export]
macro_rules! every_target {
    ($(fn $name:ident() $body:block)*) => {$(
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn $name() $body
    )*};
}

/// One case of a fixture file's `cases`, parsed from JSON embedded at
/// compile time (wasm has no file system): pass `include_str!` of the file.
pub fn case(json: &str, name: &str) -> Value {
    let all: Value = serde_json::from_str(json).expect("fixture parses");
    let case = all["cases"][name].clone();
    assert!(!case.is_null(), "fixture has no case {name}");
    case
}

/// Every number in a (nested) JSON array, row-major.
pub fn floats(v: &Value) -> Vec<f64> {
    fn walk(v: &Value, out: &mut Vec<f64>) {
        match v {
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Number(n) => out.push(n.as_f64().expect("number")),
            Value::String(s) if s == "nan" => out.push(f64::NAN),
            Value::String(s) if s == "inf" => out.push(f64::INFINITY),
            Value::String(s) if s == "-inf" => out.push(f64::NEG_INFINITY),
            other => panic!("not a number: {other}"),
        }
    }
    let mut out = vec![];
    walk(v, &mut out);
    out
}

/// A JSON array of integers as a shape.
pub fn shape(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("shape")
        .iter()
        .map(|d| d.as_u64().expect("dim") as usize)
        .collect()
}

/// Tolerances by dtype: float32 results PyTorch computes in the same order
/// agree to a few ulps; float64 tighter.
pub fn assert_close_f32(actual: &[f32], expected: &[f64]) {
    assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
    for (a, e) in actual.iter().zip(expected) {
        let a = f64::from(*a);
        let ok = (a.is_nan() && e.is_nan()) || a == *e || (a - e).abs() <= 1e-6 + 1e-5 * e.abs();
        assert!(ok, "{actual:?} vs {expected:?}");
    }
}

/// As [`assert_close_f32`] for float64.
pub fn assert_close_f64(actual: &[f64], expected: &[f64]) {
    assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
    for (a, e) in actual.iter().zip(expected) {
        let ok = (a.is_nan() && e.is_nan()) || a == e || (a - e).abs() <= 1e-12 + 1e-10 * e.abs();
        assert!(ok, "{actual:?} vs {expected:?}");
    }
}

/// A float64 leaf requiring grad, for gradcheck.
pub fn leaf64(values: &[f64], shape: &[usize]) -> Tensor {
    Tensor::from_vec(values.to_vec(), shape)
        .unwrap()
        .requires_grad_(true)
}

/// Asserts `f`'s backward matches finite differences at `inputs`.
pub fn assert_gradcheck(
    f: impl Fn(&[Tensor]) -> gradscope_core::Result<Tensor>,
    inputs: &[Tensor],
) {
    if let Err(err) = gradcheck(f, inputs, GradcheckOptions::default()) {
        panic!("{err}");
    }
}

/// A float32 leaf of `values` that requires grad.
pub fn leaf(values: &[f32]) -> Tensor {
    Tensor::from_vec(values.to_vec(), &[values.len()])
        .unwrap()
        .requires_grad_(true)
}

/// A wrapped Python number, the `2` of `x * 2`.
pub fn s(v: f64) -> Tensor {
    Tensor::scalar(v)
}

/// The class name of `t`'s `grad_fn`.
pub fn name(t: &Tensor) -> String {
    t.grad_fn().expect("has a grad_fn").name().to_string()
}

/// The class names of `t.grad_fn.next_functions` (`None` where an input
/// needs no gradient).
pub fn next_names(t: &Tensor) -> Vec<Option<String>> {
    t.grad_fn()
        .expect("has a grad_fn")
        .next_functions()
        .iter()
        .map(|n| n.as_ref().map(|n| n.name().to_string()))
        .collect()
}

/// `t.grad` as float32 values.
pub fn grad(t: &Tensor) -> Vec<f32> {
    t.grad().expect("has a grad").to_vec::<f32>()
}
