//! In-place ops on `webgpu` tensors store their result by a kernel (the
//! scatter kernel writing into the tensor's own buffer), with no round trip
//! through the host: views of every recipe, version counters as on the CPU,
//! and SGD with momentum (whose update is in-place arithmetic) training on
//! the device.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::engine::{assert_losses_match, floats, gpu, mlp_losses, on_device, open, recipes};
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
    let sgd = |params: Vec<Tensor>| -> Box<dyn Optimizer> {
        let options = SgdOptions {
            lr: 0.1,
            momentum: 0.9,
            weight_decay: 1e-4,
            ..SgdOptions::default()
        };
        Box::new(Sgd::new(params, options).unwrap())
    };
    let want = mlp_losses(Device::Cpu, false, &sgd);
    let got = mlp_losses(Device::WebGpu, false, &sgd);
    assert_losses_match(&got, &want);
}
