//! Float sums and means bit for bit as PyTorch computes them: its order of
//! additions (`cpu/cascade.rs`), recorded by
//! `tests/fixtures/record_sum_order.py` for rows shorter and longer than a
//! SIMD vector, past cascade levels, reduced dimensions inner and outer,
//! transposed inputs and several reduced dimensions, in float32 and float64.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::ops::random::manual_seed;
use gradscope_core::{DType, Tensor};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

const FIXTURE: &str = include_str!("../../../tests/fixtures/sum_order.json");

fn bits(t: &Tensor) -> Vec<u64> {
    match t.dtype() {
        DType::Float64 => t.to_vec::<f64>().iter().map(|v| v.to_bits()).collect(),
        _ => t
            .to_vec::<f32>()
            .iter()
            .map(|v| u64::from(v.to_bits()))
            .collect(),
    }
}

test_device! {
    #[cpu_only = "half its cases are float64, which the GPU refuses as PyTorch's MPS does; the float32 bits are the CPU's summation order"]
    fn sums_and_means_have_pytorchs_bits() {
        let all: Value = serde_json::from_str(FIXTURE).unwrap();
        let cases = all["cases"].as_array().unwrap();
        assert!(cases.len() >= 40);
        for case in cases {
            let shape: Vec<i64> = case["shape"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            let dtype = if case["dtype"] == "float64" { DType::Float64 } else { DType::Float32 };
            manual_seed(case["seed"].as_u64().unwrap());
            // float64 cases widen float32 draws, as the recorder does.
            let mut x = Tensor::randn(&shape, DType::Float32).unwrap().to_dtype(dtype).unwrap();
            if case["transposed"].as_bool().unwrap() {
                x = x.t().unwrap();
            }
            let (sum, mean) = match case["dims"].as_array() {
                None => (x.sum().unwrap(), x.mean().unwrap()),
                Some(dims) => {
                    let dims: Vec<i64> = dims.iter().map(|v| v.as_i64().unwrap()).collect();
                    (x.sum_dim(&dims, false).unwrap(), x.mean_dim(&dims, false).unwrap())
                }
            };
            let want = |key: &str| -> Vec<u64> {
                case[key].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
            };
            assert_eq!(bits(&sum), want("sum"), "sum of {case:?}");
            assert_eq!(bits(&mean), want("mean"), "mean of {case:?}");
        }
    }
}
