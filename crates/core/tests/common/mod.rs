//! Helpers shared by the core's integration tests: the `every_target!`
//! macro (each test runs natively and in headless Chromium), the
//! `test_device!` macro (each fixture test also runs with the GPU as the
//! default device), fixture loading, tolerances and gradcheck shorthands.
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

/// Declares fixture tests that run on every device: each `fn name()`
/// becomes a module `name` with a test `cpu` (natively and in headless
/// Chromium) and a test `webgpu` (natively: wgpu on Vulkan, lavapipe in
/// CI). In the browser a test cannot read a GPU tensor back synchronously:
/// that needs the call entered through JSPI (`WebAssembly.promising`),
/// which `wasm-bindgen-test` does not do, so there is no browser `webgpu`
/// test; `gradscope-wgpu`'s `web_kernels` checks the kernels there. The body runs with that device as the default device
/// (`torch.set_default_device`), so the tensors it makes live there and
/// the ops it calls run there; it reads results back as PyTorch's `.cpu()`
/// would. Without a GPU adapter the `webgpu` test prints
/// `skipped: no adapter` and passes, unless `GRADSCOPE_REQUIRE_GPU` (or
/// `CI`) is set, when it fails. Cases a GPU cannot hold (float64, as on
/// PyTorch's MPS) are left out there by [`on_gpu`], with the reason.
///
/// A test the GPU cannot run says why instead: `#[cpu_only = "reason"]`
/// before its `fn` makes it a plain test on every target, CPU only.
#[macro_export]
macro_rules! test_device {
    () => {};
    (#[cpu_only = $why:literal] fn $name:ident() $body:block $($rest:tt)*) => {
        #[doc = $why]
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn $name() $body

        test_device! { $($rest)* }
    };
    (fn $name:ident() $body:block $($rest:tt)*) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            fn body() $body

            #[cfg_attr(not(target_arch = "wasm32"), test)]
            #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
            fn cpu() {
                body();
            }

            #[cfg(not(target_arch = "wasm32"))]
            #[test]
            fn webgpu() {
                if let Some(_device) = $crate::common::OnGpu::open() {
                    body();
                }
            }
        }

        test_device! { $($rest)* }
    };
}

/// The GPU as this thread's default device while it lives; the CPU again
/// after.
#[derive(Debug)]
pub struct OnGpu(());

#[cfg(not(target_arch = "wasm32"))]
impl OnGpu {
    /// Opens the GPU (natively: wgpu on Vulkan, lavapipe in CI), or says
    /// why not and returns `None` when no GPU is required.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open() -> Option<Self> {
        Self::opened(pollster::block_on(gradscope_wgpu::GpuDevice::new()))
    }

    fn opened(device: gradscope_core::Result<gradscope_wgpu::GpuDevice>) -> Option<Self> {
        use gradscope_core::device;
        match device {
            Ok(gpu) => {
                device::set_gpu(
                    std::rc::Rc::new(gpu) as std::rc::Rc<dyn gradscope_core::DeviceBackend>
                );
                device::set_default_device(gradscope_core::Device::WebGpu);
                Some(OnGpu(()))
            }
            Err(err) => {
                let required = option_env_set("GRADSCOPE_REQUIRE_GPU") || option_env_set("CI");
                assert!(
                    !required,
                    "a GPU is required (GRADSCOPE_REQUIRE_GPU or CI) but: {err}"
                );
                eprintln!("skipped: no adapter ({err})");
                None
            }
        }
    }
}

impl Drop for OnGpu {
    fn drop(&mut self) {
        gradscope_core::device::set_default_device(gradscope_core::Device::Cpu);
    }
}

/// Whether the environment variable `name` is set.
#[cfg(not(target_arch = "wasm32"))]
fn option_env_set(name: &str) -> bool {
    std::env::var_os(name).is_some()
}

/// Whether this test body runs with the GPU as its default device.
pub fn on_gpu() -> bool {
    gradscope_core::device::default_device() == gradscope_core::Device::WebGpu
}

/// The device this test body runs on (its default device).
pub fn device() -> gradscope_core::Device {
    gradscope_core::device::default_device()
}

/// Bytes graph nodes keep for backward on this body's device.
pub fn saved_bytes() -> u64 {
    use gradscope_core::ledger;
    ledger::stats_on(device()).current(gradscope_trace::Category::SavedForBackward)
}

/// Bytes live storages hold on this body's device.
pub fn allocated() -> u64 {
    gradscope_core::ledger::stats_on(device()).total
}

/// Why the device the body runs on cannot take a case of `dtype`, if it
/// cannot: the GPU refuses float64 as PyTorch's MPS does. Callers skip
/// such a case there; the CPU test checks it.
pub fn refused_here(dtype: gradscope_core::DType) -> Option<&'static str> {
    (on_gpu() && dtype == gradscope_core::DType::Float64)
        .then_some("float64, which the GPU refuses as PyTorch's MPS does (checked on the CPU)")
}

/// Why the device the body runs on cannot take a recorded case, if it
/// cannot: any `dtype` (or `*_dtype`) in it that [`refused_here`] refuses.
pub fn refused_case(case: &Value) -> Option<&'static str> {
    fn float64_in(v: &Value) -> bool {
        match v {
            Value::Object(map) => map.iter().any(|(key, value)| {
                (key.ends_with("dtype") && value == "float64") || float64_in(value)
            }),
            Value::Array(items) => items.iter().any(float64_in),
            _ => false,
        }
    }
    if float64_in(case) {
        refused_here(gradscope_core::DType::Float64)
    } else {
        None
    }
}

/// The reason `key` is listed in `differences` when the body runs on the
/// GPU: a recorded case the GPU computes differently, written down.
pub fn gpu_difference(differences: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    if !on_gpu() {
        return None;
    }
    differences
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, why)| *why)
}

/// Runs `f`, turning its panic into an `Err` natively so a test can go on
/// to its other cases and name every failure (wasm aborts at the first).
pub fn catch(f: impl FnOnce()) -> Result<(), ()> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|_| ())
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
