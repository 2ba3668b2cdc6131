//! Ops the GPU computes by chaining kernels, through the core's ops on
//! `webgpu` tensors against the CPU: `mse_loss` (every reduction, forward
//! and backward), `prod`, `linalg.vector_norm` of orders 1, 2 and ±inf,
//! and a comparison's bool mask converted to float32; each must run as
//! kernels, with nothing read back.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::assert_close;
use common::engine::{floats, gpu, on_device, open, pair, recipes};
use gradscope_core::ops::nn::Reduction;
use gradscope_core::{DType, Tensor};

#[test]
fn mse_loss_matches_cpu_forward_and_backward() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 100);
        let target = common::tensor(x.shape(), 101);
        for reduction in [Reduction::None, Reduction::Mean, Reduction::Sum] {
            let what = format!("{} {reduction:?}", recipe.0);
            let leaf = x.detach().requires_grad_(true);
            let leaf_gpu = xg.detach().requires_grad_(true);
            let want = leaf.mse_loss(&target, reduction).unwrap();
            let got = on_device(&what, || {
                leaf_gpu.mse_loss(&gpu(&target), reduction).unwrap()
            });
            assert_eq!(got.shape(), want.shape(), "{what}");
            assert_close(&what, &floats(&got), &floats(&want), 1e-5, 1e-6);
            if x.numel() == 0 {
                continue;
            }
            want.sum().unwrap().backward().unwrap();
            let loss = got.sum().unwrap();
            on_device(&format!("{what} backward"), || loss.backward().unwrap());
            let (g, c) = (leaf_gpu.grad().unwrap(), leaf.grad().unwrap());
            assert_close(&what, &floats(&g), &floats(&c), 1e-5, 1e-6);
        }
    }
}

#[test]
fn prod_and_norms_match_cpu() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 102);
        let what = format!("{} prod", recipe.0);
        let want = x.prod().unwrap();
        let got = on_device(&what, || xg.prod().unwrap());
        assert_close(&what, &floats(&got), &floats(&want), 1e-5, 0.0);
        for dim in 0..x.shape().len() as i64 {
            let what = format!("{} prod dim {dim}", recipe.0);
            let want = x.prod_dim(dim, true).unwrap();
            let got = on_device(&what, || xg.prod_dim(dim, true).unwrap());
            assert_eq!(got.shape(), want.shape(), "{what}");
            assert_close(&what, &floats(&got), &floats(&want), 1e-5, 0.0);
        }
        for ord in [1.0, 2.0, f64::INFINITY, f64::NEG_INFINITY] {
            if x.numel() == 0 && ord.is_infinite() {
                continue;
            }
            let what = format!("{} norm {ord}", recipe.0);
            let want = x.norm(ord, None, false).unwrap();
            let got = on_device(&what, || xg.norm(ord, None, false).unwrap());
            assert_close(&what, &floats(&got), &floats(&want), 1e-5, 0.0);
            if let Some(last) = x.shape().len().checked_sub(1) {
                let dims = [last as i64];
                let what = format!("{what} dim {last} keepdim");
                let want = x.norm(ord, Some(&dims), true).unwrap();
                let got = on_device(&what, || xg.norm(ord, Some(&dims), true).unwrap());
                assert_eq!(got.shape(), want.shape(), "{what}");
                assert_close(&what, &floats(&got), &floats(&want), 1e-5, 0.0);
            }
        }
    }
}

#[test]
fn bool_masks_convert_to_float_on_the_device() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 103);
        let zero = Tensor::scalar(0.0);
        let want = x.gt(&zero).unwrap().to_dtype(DType::Float32).unwrap();
        let got = on_device(recipe.0, || {
            xg.gt(&zero).unwrap().to_dtype(DType::Float32).unwrap()
        });
        assert_eq!(got.dtype(), DType::Float32);
        assert_eq!(floats(&got), floats(&want), "{}", recipe.0);
        // A view of a mask is read through its strides.
        if x.shape().len() == 2 {
            let want = x
                .gt(&zero)
                .unwrap()
                .t()
                .unwrap()
                .to_dtype(DType::Float32)
                .unwrap();
            let got = xg
                .gt(&zero)
                .unwrap()
                .t()
                .unwrap()
                .to_dtype(DType::Float32)
                .unwrap();
            assert_eq!(floats(&got), floats(&want), "{} transposed", recipe.0);
        }
    }
}

#[test]
fn maximum_minimum_and_tensor_clamp_match_cpu_with_nans() {
    if !open() {
        return;
    }
    let nan = f32::NAN;
    let x = Tensor::from_vec(vec![1.0f32, nan, -2.0, 3.0, 0.0, -0.0, 5.0, nan], &[2, 4]).unwrap();
    let lo = Tensor::from_vec(vec![0.5f32, 0.5, nan, -1.0], &[4]).unwrap();
    let hi = Tensor::from_vec(vec![2.0f32, -3.0], &[2, 1]).unwrap();
    let (xg, log, hig) = (gpu(&x), gpu(&lo), gpu(&hi));
    let cases: [(&str, Tensor, Tensor); 5] = [
        (
            "maximum",
            x.maximum(&lo).unwrap(),
            on_device("maximum", || xg.maximum(&log).unwrap()),
        ),
        (
            "minimum",
            x.minimum(&hi).unwrap(),
            on_device("minimum", || xg.minimum(&hig).unwrap()),
        ),
        (
            "clamp both",
            x.clamp_tensor(Some(&lo), Some(&hi)).unwrap(),
            on_device("clamp both", || {
                xg.clamp_tensor(Some(&log), Some(&hig)).unwrap()
            }),
        ),
        (
            "clamp min",
            x.clamp_tensor(Some(&lo), None).unwrap(),
            on_device("clamp min", || xg.clamp_tensor(Some(&log), None).unwrap()),
        ),
        (
            "clamp max",
            x.clamp_tensor(None, Some(&hi)).unwrap(),
            on_device("clamp max", || xg.clamp_tensor(None, Some(&hig)).unwrap()),
        ),
    ];
    for (what, want, got) in cases {
        assert_eq!(got.shape(), want.shape(), "{what}");
        let (got, want) = (floats(&got), floats(&want));
        assert_close(what, &got, &want, 0.0, 0.0);
        for (g, w) in got.iter().zip(&want) {
            if !w.is_nan() {
                assert_eq!(g.to_bits(), w.to_bits(), "{what}: {got:?} vs {want:?}");
            }
        }
    }
}

#[test]
fn layer_norm_matches_cpu_forward_and_backward() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 104);
        let shape = x.shape().to_vec();
        if shape.is_empty() || x.numel() == 0 {
            continue;
        }
        // Over the last dimension, and over the last two where there are two.
        for dims in 1..=shape.len().min(2) {
            let normalized = &shape[shape.len() - dims..];
            let what = format!("{} layer_norm over {normalized:?}", recipe.0);
            let weight = common::tensor(normalized, 105);
            let bias = common::tensor(normalized, 106);
            let leaf = |t: &Tensor| t.detach().requires_grad_(true);
            let (xc, wc, bc) = (leaf(&x), leaf(&weight), leaf(&bias));
            let (xl, wl, bl) = (leaf(&xg), leaf(&gpu(&weight)), leaf(&gpu(&bias)));
            let want = xc
                .layer_norm(normalized, Some(&wc), Some(&bc), 1e-5)
                .unwrap();
            let got = on_device(&what, || {
                xl.layer_norm(normalized, Some(&wl), Some(&bl), 1e-5)
                    .unwrap()
            });
            assert_close(&what, &floats(&got), &floats(&want), 1e-4, 1e-5);
            let seed = common::tensor(&shape, 107);
            want.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
            let loss = got.mul(&gpu(&seed)).unwrap().sum().unwrap();
            on_device(&format!("{what} backward"), || loss.backward().unwrap());
            for (part, g, c) in [("x", &xl, &xc), ("weight", &wl, &wc), ("bias", &bl, &bc)] {
                let (g, c) = (floats(&g.grad().unwrap()), floats(&c.grad().unwrap()));
                assert_close(&format!("{what} {part} grad"), &g, &c, 1e-3, 1e-4);
            }
        }
    }
}

#[test]
fn bce_with_logits_matches_cpu_forward_and_backward() {
    if !open() {
        return;
    }
    // Logits from far negative to far positive, targets in [0, 1].
    let z: Vec<f32> = (0..24).map(|i| (i as f32 - 11.5) * 2.5).collect();
    let t: Vec<f32> = (0..24).map(|i| (i % 5) as f32 / 4.0).collect();
    let z = Tensor::from_vec(z, &[4, 6]).unwrap();
    let target = Tensor::from_vec(t, &[4, 6]).unwrap();
    let weight = common::tensor(&[6], 108).abs().unwrap();
    for reduction in [Reduction::None, Reduction::Mean, Reduction::Sum] {
        for weighted in [false, true] {
            let what = format!("{reduction:?} weighted={weighted}");
            let (zc, zg) = (
                z.detach().requires_grad_(true),
                gpu(&z).requires_grad_(true),
            );
            let (wc, wg) = (weight.expand(&[4, 6]).unwrap(), gpu(&weight));
            let wg = wg.expand(&[4, 6]).unwrap();
            let want = zc
                .binary_cross_entropy_with_logits(&target, weighted.then_some(&wc), None, reduction)
                .unwrap();
            let target_gpu = gpu(&target);
            let got = on_device(&what, || {
                zg.binary_cross_entropy_with_logits(
                    &target_gpu,
                    weighted.then_some(&wg),
                    None,
                    reduction,
                )
                .unwrap()
            });
            assert_close(&what, &floats(&got), &floats(&want), 1e-5, 1e-6);
            want.sum().unwrap().backward().unwrap();
            let loss = got.sum().unwrap();
            on_device(&format!("{what} backward"), || loss.backward().unwrap());
            let (g, c) = (floats(&zg.grad().unwrap()), floats(&zc.grad().unwrap()));
            assert_close(&format!("{what} grad"), &g, &c, 1e-5, 1e-6);
        }
    }
}

#[test]
fn batch_norm_matches_cpu_in_training_and_evaluation() {
    if !open() {
        return;
    }
    use gradscope_core::ops::nn_norm::BatchNormOptions;
    for shape in [vec![6, 3], vec![4, 3, 5], vec![2, 3, 4, 5]] {
        let x = common::tensor(&shape, 120);
        let weight = common::tensor(&[3], 121);
        let bias = common::tensor(&[3], 122);
        let options = |device_copy: &dyn Fn(&Tensor) -> Tensor, training: bool| BatchNormOptions {
            running_mean: Some(device_copy(&common::tensor(&[3], 123))),
            running_var: Some(device_copy(&common::tensor(&[3], 124).abs().unwrap())),
            weight: Some(device_copy(&weight).requires_grad_(true)),
            bias: Some(device_copy(&bias).requires_grad_(true)),
            training,
            momentum: 0.1,
            eps: 1e-5,
        };
        for training in [true, false] {
            let what = format!("{shape:?} training={training}");
            let (cpu_options, gpu_options) =
                (options(&|t| t.detach(), training), options(&gpu, training));
            let (xc, xg) = (
                x.detach().requires_grad_(true),
                gpu(&x).requires_grad_(true),
            );
            let want = xc.batch_norm(&cpu_options).unwrap();
            let got = on_device(&what, || xg.batch_norm(&gpu_options).unwrap());
            assert_close(&what, &floats(&got), &floats(&want), 1e-4, 1e-5);
            for (name, g, c) in [
                (
                    "running_mean",
                    &gpu_options.running_mean,
                    &cpu_options.running_mean,
                ),
                (
                    "running_var",
                    &gpu_options.running_var,
                    &cpu_options.running_var,
                ),
            ] {
                let (g, c) = (floats(g.as_ref().unwrap()), floats(c.as_ref().unwrap()));
                assert_close(&format!("{what} {name}"), &g, &c, 1e-5, 1e-6);
            }
            let seed = common::tensor(&shape, 125);
            want.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
            let loss = got.mul(&gpu(&seed)).unwrap().sum().unwrap();
            on_device(&format!("{what} backward"), || loss.backward().unwrap());
            let grads = [
                ("x", xg.grad(), xc.grad()),
                (
                    "weight",
                    gpu_options.weight.unwrap().grad(),
                    cpu_options.weight.unwrap().grad(),
                ),
                (
                    "bias",
                    gpu_options.bias.unwrap().grad(),
                    cpu_options.bias.unwrap().grad(),
                ),
            ];
            for (name, g, c) in grads {
                let (g, c) = (floats(&g.unwrap()), floats(&c.unwrap()));
                assert_close(&format!("{what} {name} grad"), &g, &c, 1e-3, 1e-4);
            }
        }
    }
}

#[test]
fn var_and_std_match_cpu() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 126);
        let rank = x.shape().len() as i64;
        let mut axis_sets: Vec<Option<Vec<i64>>> = vec![None];
        axis_sets.extend((0..rank).map(|d| Some(vec![d])));
        for dims in axis_sets {
            for (correction, keepdim) in [(1.0, false), (0.0, true)] {
                let what = format!("{} dims {dims:?} correction {correction}", recipe.0);
                let d = dims.as_deref();
                let want = x.var(d, correction, keepdim).unwrap();
                let got = on_device(&what, || xg.var(d, correction, keepdim).unwrap());
                assert_eq!(got.shape(), want.shape(), "{what}");
                assert_close(&what, &floats(&got), &floats(&want), 1e-4, 1e-6);
                let want = x.std(d, correction, keepdim).unwrap();
                let got = on_device(&what, || xg.std(d, correction, keepdim).unwrap());
                assert_close(&what, &floats(&got), &floats(&want), 1e-4, 1e-6);
            }
        }
    }
}
