//! Tensor printing against PyTorch's `str()`, recorded by
//! `tests/fixtures/record_autograd.py`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should panic

use gradscope_trace::format::tensor_str;

#[test]
fn tensor_str_matches_pytorch() {
    let all: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/autograd.json")).unwrap();
    let cases = all["cases"]["repr"].as_array().unwrap();
    assert!(!cases.is_empty());
    for case in cases {
        let values: Vec<f64> = case["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let shape: Vec<usize> = case["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(tensor_str(&values, &shape), case["str"].as_str().unwrap());
    }
}
