//! In-place ops on `webgpu` tensors store their result by a kernel (the
//! scatter kernel writing into the tensor's own buffer), with no round trip
//! through the host: views of every recipe, version counters as on the CPU,
//! and SGD with momentum (whose update is in-place arithmetic) training on
//! the device.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::engine::{floats, gpu, on_device, open, recipes};
use gradscope_core::ops::nn_loss::NllLossOptions;
use gradscope_core::optim::{Optimizer, Sgd, SgdOptions};
use gradscope_core::{Device, Tensor};

#[test]
fn inplace_ops_on_views_store_on_the_device() {
    if !open() {
        return;
    }
    for (name, base_shape, view) in recipes() {
        if name == "expanded_stride0" {
            continue; // refused on both devices: its elements overlap
        }
        let base = common::tensor(base_shape, 110);
        let base_gpu = gpu(&base);
        let (x, xg) = (view(&base), view(&base_gpu));
        let other = common::tensor(x.shape(), 111);
        let other_gpu = gpu(&other);
        let before = (x.version().unwrap(), xg.version().unwrap());
        x.add_(&other).unwrap().mul_(&Tensor::scalar(2.0)).unwrap();
        on_device(name, || {
            xg.add_(&other_gpu)
                .unwrap()
                .mul_(&Tensor::scalar(2.0))
                .unwrap()
        });
        let after = (x.version().unwrap(), xg.version().unwrap());
        assert_eq!(after.0 - before.0, after.1 - before.1, "{name}: versions");
        // The base sees the writes through its view, elsewhere unchanged.
        assert_eq!(floats(&base_gpu), floats(&base), "{name}");
    }
}

#[test]
fn sgd_with_momentum_trains_on_the_device() {
    if !open() {
        return;
    }
    let target = Tensor::from_vec(vec![0i64, 3, 1, 2, 2, 0, 3, 1], &[8]).unwrap();
    let run = |device: Device| -> Vec<f64> {
        let place = |t: Tensor| match device {
            Device::Cpu => t,
            Device::WebGpu => gpu(&t),
        };
        let scaled = |shape: &[usize], seed| common::tensor(shape, seed).mul(&Tensor::scalar(0.2));
        let w1 = place(scaled(&[16, 12], 112).unwrap()).requires_grad_(true);
        let w2 = place(scaled(&[4, 16], 113).unwrap()).requires_grad_(true);
        let x = place(common::tensor(&[8, 12], 114));
        let options = SgdOptions {
            lr: 0.1,
            momentum: 0.9,
            weight_decay: 1e-4,
            ..SgdOptions::default()
        };
        let mut opt = Sgd::new(vec![w1.clone(), w2.clone()], options).unwrap();
        let mut losses = vec![];
        for _ in 0..3 {
            let mut step = || {
                opt.zero_grad(true).unwrap();
                let h = x.linear(&w1, None).unwrap().relu().unwrap();
                let loss = h
                    .linear(&w2, None)
                    .unwrap()
                    .cross_entropy(&target, &NllLossOptions::default())
                    .unwrap();
                loss.backward().unwrap();
                opt.step().unwrap();
                loss
            };
            let loss = match device {
                Device::Cpu => step(),
                Device::WebGpu => on_device("sgd step", step),
            };
            losses.push(loss.item().unwrap());
        }
        losses
    };
    let want = run(Device::Cpu);
    let got = run(Device::WebGpu);
    for (g, w) in got.iter().zip(&want) {
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
}
