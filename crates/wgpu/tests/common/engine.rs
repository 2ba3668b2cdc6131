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

/// The losses of three training steps of a two-layer classifier (8 samples,
/// 12 features, 16 hidden, 4 classes; biases when `bias`) on `device`, with
/// the optimizer `optimizer` makes over its parameters. On the GPU each step
/// is checked to run as kernels with nothing read back but the loss.
pub fn mlp_losses(
    device: Device,
    bias: bool,
    optimizer: &dyn Fn(Vec<Tensor>) -> Box<dyn gradscope_core::optim::Optimizer>,
) -> Vec<f64> {
    use gradscope_core::ops::nn_loss::NllLossOptions;
    let place = |t: Tensor| match device {
        Device::Cpu => t,
        Device::WebGpu => gpu(&t),
    };
    let scaled = |shape: &[usize], seed, by: f64| {
        place(super::tensor(shape, seed).mul(&Tensor::scalar(by)).unwrap()).requires_grad_(true)
    };
    let (w1, w2) = (scaled(&[16, 12], 50, 0.2), scaled(&[4, 16], 52, 0.2));
    let biases = bias.then(|| (scaled(&[16], 51, 0.1), scaled(&[4], 53, 0.1)));
    let x = place(super::tensor(&[8, 12], 54));
    let target = Tensor::from_vec(vec![0i64, 3, 1, 2, 2, 0, 3, 1], &[8]).unwrap();
    let mut params = vec![w1.clone(), w2.clone()];
    params.extend(biases.iter().flat_map(|(b1, b2)| [b1.clone(), b2.clone()]));
    let mut opt = optimizer(params);
    let (b1, b2) = (biases.as_ref().map(|b| &b.0), biases.as_ref().map(|b| &b.1));
    let mut losses = vec![];
    for _ in 0..3 {
        let mut step = || {
            opt.zero_grad(true).unwrap();
            let h = x.linear(&w1, b1).unwrap().relu().unwrap();
            let loss = h
                .linear(&w2, b2)
                .unwrap()
                .cross_entropy(&target, &NllLossOptions::default())
                .unwrap();
            loss.backward().unwrap();
            opt.step().unwrap();
            loss
        };
        let loss = match device {
            Device::Cpu => step(),
            Device::WebGpu => on_device("training step", step),
        };
        losses.push(loss.item().unwrap());
    }
    losses
}

/// Fails unless the GPU's losses follow the CPU's within float32 rounding.
pub fn assert_losses_match(got: &[f64], want: &[f64]) {
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
}
