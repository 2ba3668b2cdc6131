//! `Display` of tensors built by the engine against PyTorch's `str(t)`,
//! recorded by `tests/fixtures/record_format.py`. Each test runs natively
//! and, compiled to wasm, in headless Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::Tensor;
use gradscope_core::display::Size;
use gradscope_trace::format::PrintOptions;
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

const FIXTURE: &str = include_str!("../../../tests/fixtures/format.json");

fn expected(name: &str) -> String {
    common::case(FIXTURE, name)["str"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The recorded tensor rebuilt as a leaf with the same values, shape,
/// dtype and `requires_grad`.
fn leaf(case: &Value) -> Tensor {
    let shape = common::shape(&case["shape"]);
    let values = case["values"].as_array().unwrap();
    let t = match case["dtype"].as_str().unwrap() {
        "float32" => {
            let v = common::floats(&case["values"]);
            Tensor::from_vec(v.iter().map(|&x| x as f32).collect(), &shape)
        }
        "float64" => Tensor::from_vec(common::floats(&case["values"]), &shape),
        "int64" => Tensor::from_vec(values.iter().map(|v| v.as_i64().unwrap()).collect(), &shape),
        "bool" => Tensor::from_vec(
            values.iter().map(|v| v.as_bool().unwrap()).collect(),
            &shape,
        ),
        other => panic!("unexpected dtype {other}"),
    };
    t.unwrap()
        .requires_grad_(case["requires_grad"].as_bool().unwrap())
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

fn x() -> Tensor {
    Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])
        .unwrap()
        .requires_grad_(true)
}

test_device! {
    fn display_leaves_match_pytorch() {
        let all: Value = serde_json::from_str(FIXTURE).unwrap();
        let mut count = 0;
        for (name, case) in all["cases"].as_object().unwrap() {
            if name == "sizes" || !case["grad_fn"].is_null() {
                continue;
            }
            count += 1;
            let t = leaf(case);
            let expected = case["str"].as_str().unwrap();
            if case["options"].as_object().unwrap().is_empty() {
                assert_eq!(t.to_string(), expected, "{name}");
                assert_eq!(t.repr(), expected, "{name}");
            } else {
                assert_eq!(t.repr_with(&options(&case["options"])), expected, "{name}");
            }
        }
        assert!(count >= 60, "only {count} cases");
    }

    fn display_requires_grad_suffix() {
        assert_eq!(x().to_string(), expected("leaf_requires_grad"));
        let scalar = Tensor::from_vec(vec![1.5f32], &[]).unwrap().requires_grad_(true);
        assert_eq!(scalar.to_string(), expected("leaf_scalar_requires_grad"));
        let double = Tensor::from_vec(vec![0.5f64, -1.0], &[2]).unwrap().requires_grad_(true);
        assert_eq!(double.to_string(), expected("leaf_float64_requires_grad"));
    }

    fn display_grad_fn_suffix() {
        let x = x();
        let mul = x.mul(&Tensor::scalar_int(2)).unwrap();
        assert_eq!(mul.to_string(), expected("grad_fn_mul"));
        let other = Tensor::from_vec(vec![0.5f32, 0.25, 0.125], &[3]).unwrap();
        assert_eq!(x.add(&other).unwrap().to_string(), expected("grad_fn_add"));
        assert_eq!(x.sum().unwrap().to_string(), expected("grad_fn_sum"));
        assert_eq!(x.mul(&x).unwrap().mean().unwrap().to_string(), expected("grad_fn_mean"));
        assert_eq!(mul.detach().to_string(), expected("detached"));
    }

    fn display_dtype_and_grad_fn_suffixes() {
        let y = Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap().requires_grad_(true);
        let y = y.mul(&Tensor::scalar_int(3)).unwrap();
        assert_eq!(y.to_string(), expected("grad_fn_float64"));
    }

    fn display_expanded_view() {
        let row = Tensor::from_vec(vec![1.5f32, -2.0], &[2]).unwrap();
        assert_eq!(row.expand(&[3, 2]).unwrap().to_string(), expected("expanded"));
    }

    #[cpu_only = "a wrapped number is a CPU float64 tensor, shown without its device only when the CPU is the default"]
    fn display_wrapped_number_is_float64() {
        assert_eq!(Tensor::scalar(2.5).to_string(), expected("scalar_float64"));
    }

    fn size_display_matches_pytorch() {
        let sizes = common::case(FIXTURE, "sizes");
        for case in sizes.as_array().unwrap() {
            let shape = common::shape(&case["shape"]);
            assert_eq!(Size(&shape).to_string(), case["str"].as_str().unwrap());
        }
    }
}
