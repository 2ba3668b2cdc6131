//! The engine's ops on `webgpu` tensors: registering the device, the view
//! recipes applied alike to a CPU tensor and its GPU copy, and the check
//! that work ran as kernels.
// Test support: a failed expectation is a test failure, as in a #[test] body.
#![allow(dead_code, clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use std::rc::Rc;

use gradscope_core::device::{self as engine, KernelStats};
use gradscope_core::{Device, DeviceBackend, Tensor};

use super::device;

/// Registers the GPU with the engine on this thread; false (after the
/// visible skip line) when there is none and none is required.
pub fn open() -> bool {
    let Some(dev) = device() else { return false };
    engine::set_gpu(Rc::new(dev) as Rc<dyn DeviceBackend>);
    true
}

pub fn gpu(t: &Tensor) -> Tensor {
    t.to_device(Device::WebGpu).expect("to webgpu")
}

/// A view recipe: the base's shape and the view taken of it, applied alike
/// to the CPU base and its GPU copy (views compute nothing).
pub type Recipe = (&'static str, &'static [usize], fn(&Tensor) -> Tensor);

pub fn recipes() -> Vec<Recipe> {
    vec![
        ("contiguous", &[2, 3, 4], |t| t.clone()),
        ("transposed", &[5, 4], |t| t.transpose(0, 1).unwrap()),
        ("permuted_rank4", &[2, 3, 4, 5], |t| {
            t.permute(&[3, 1, 0, 2]).unwrap()
        }),
        ("sliced_steps", &[7, 8], |t| {
            t.slice(0, Some(1), Some(6), 2)
                .and_then(|v| v.slice(1, None, None, 3))
                .unwrap()
        }),
        ("expanded_stride0", &[3, 1], |t| {
            t.expand(&[2, 3, 4]).unwrap()
        }),
        ("size0", &[0, 3], |t| t.clone()),
        ("size0_view", &[4, 3], |t| {
            t.slice(0, Some(2), Some(2), 1).unwrap()
        }),
        ("size1_dims", &[1, 3, 1, 2], |t| t.clone()),
        ("rank0", &[], |t| t.clone()),
        ("large_transposed", &[300, 257], |t| {
            t.transpose(0, 1).unwrap()
        }),
    ]
}

/// The recipe's view of a CPU base and of its GPU copy.
pub fn pair(recipe: &Recipe, seed: u32) -> (Tensor, Tensor) {
    let base = super::tensor(recipe.1, seed);
    ((recipe.2)(&base), (recipe.2)(&gpu(&base)))
}

pub fn stats() -> KernelStats {
    engine::kernel_stats()
}

/// Runs `f` (GPU work only) and checks it launched kernels, fell back to
/// the host nowhere and read nothing back.
pub fn on_device<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let before = stats();
    let out = f();
    let after = stats();
    assert_eq!(
        after.host_fallbacks,
        before.host_fallbacks,
        "{what}: fell back to the host ({:?})",
        engine::host_fallbacks_by_op()
    );
    assert_eq!(after.downloads, before.downloads, "{what}: read back");
    assert!(after.kernels > before.kernels, "{what}: ran no kernel");
    out
}

pub fn floats(t: &Tensor) -> Vec<f32> {
    t.to_vec::<f32>()
}
