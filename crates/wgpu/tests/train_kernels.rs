//! The kernels a training step needs, through the core's ops on `webgpu`
//! tensors against the same ops on the CPU: comparisons (whose masks stay
//! on the device), `where`, `softmax`/`log_softmax`, `nll_loss` (forward
//! and backward) and the Adam step, on contiguous, strided, broadcast,
//! size-0 and 0-dim inputs; each must run as a kernel, with no host
//! fallback and nothing read back before the test reads its result.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::assert_close;
use common::engine::{
    assert_losses_match, floats, gpu, mlp_losses, on_device, open, pair, recipes,
};
use gradscope_core::ops::compare::CompareOp;
use gradscope_core::ops::nn::Reduction;
use gradscope_core::ops::nn_loss::NllLossOptions;
use gradscope_core::optim::{Adam, AdamOptions, Optimizer};
use gradscope_core::{DType, Device, Tensor};

const OPS: [CompareOp; 6] = [
    CompareOp::Eq,
    CompareOp::Ne,
    CompareOp::Lt,
    CompareOp::Le,
    CompareOp::Gt,
    CompareOp::Ge,
];

#[test]
fn compare_masks_match_cpu_on_every_layout() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 1);
        let (y, yg) = pair(&recipe, 2);
        // A value of x itself, so `eq` holds somewhere and ties are met.
        let first = x.to_vec::<f64>().first().copied().unwrap_or(0.5);
        let scalar = Tensor::scalar(first);
        let operands = [(&y, &yg), (&x, &xg), (&scalar, &scalar)];
        for op in OPS {
            for (k, (other, other_gpu)) in operands.iter().enumerate() {
                let what = format!("{} {} against operand {k}", recipe.0, op.name());
                let want = x.compare(op, other).expect("cpu compare");
                let got = on_device(&what, || xg.compare(op, other_gpu).expect("gpu compare"));
                assert_eq!(got.dtype(), DType::Bool, "{what}");
                assert_eq!(got.device(), Device::WebGpu, "{what}");
                assert_eq!(got.shape(), want.shape(), "{what}");
                assert_eq!(got.to_vec::<bool>(), want.to_vec::<bool>(), "{what}");
            }
        }
    }
}

#[test]
fn compare_special_values_and_broadcast() {
    if !open() {
        return;
    }
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let a = Tensor::from_vec(vec![nan, inf, -inf, 0.0, -0.0, 1.0, nan], &[7]).unwrap();
    let b = Tensor::from_vec(vec![nan, inf, 1.0, -0.0, 0.0, nan, 2.0], &[7]).unwrap();
    // A column against a row: both operands broadcast (stride 0).
    let col = common::tensor(&[4, 1], 3);
    let row = common::tensor(&[1, 5], 4);
    for op in OPS {
        let what = format!("special {}", op.name());
        let got = on_device(&what, || gpu(&a).compare(op, &gpu(&b)).unwrap());
        assert_eq!(
            got.to_vec::<bool>(),
            a.compare(op, &b).unwrap().to_vec::<bool>(),
            "{what}"
        );
        let what = format!("broadcast {}", op.name());
        let got = on_device(&what, || gpu(&col).compare(op, &gpu(&row)).unwrap());
        assert_eq!(
            got.to_vec::<bool>(),
            col.compare(op, &row).unwrap().to_vec::<bool>(),
            "{what}"
        );
    }
}

#[test]
fn where_matches_cpu_on_every_layout() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 5);
        let (y, yg) = pair(&recipe, 6);
        let zero = Tensor::scalar(0.0);
        let what = format!("where {}", recipe.0);
        // The mask made on the device by a compare kernel.
        let want = x.where_cond(&x.gt(&zero).unwrap(), &y).unwrap();
        let got = on_device(&what, || {
            xg.where_cond(&xg.gt(&zero).unwrap(), &yg).unwrap()
        });
        assert_eq!(got.shape(), want.shape(), "{what}");
        assert_eq!(floats(&got), floats(&want), "{what}");
        // A scalar branch, and a mask kept on the CPU (PyTorch allows it).
        let mask = y.lt(&zero).unwrap();
        let want = x.where_cond(&mask, &zero).unwrap();
        let got = on_device(&what, || xg.where_cond(&mask, &zero).unwrap());
        assert_eq!(floats(&got), floats(&want), "{what} cpu mask");
        // A GPU bool storage holding only its host copy (isnan has no
        // kernel): its mask is uploaded.
        let want = x.where_cond(&y.isnan().unwrap(), &y).unwrap();
        let nan_mask = yg.isnan().unwrap();
        let got = xg.where_cond(&nan_mask, &yg).unwrap();
        assert_eq!(floats(&got), floats(&want), "{what} host mask");
    }
}

#[test]
fn where_broadcasts_condition_and_operands() {
    if !open() {
        return;
    }
    let cond = Tensor::from_vec(vec![true, false, true], &[3, 1]).unwrap();
    let a = common::tensor(&[1, 4], 7);
    let b = common::tensor(&[2, 1, 1], 8);
    let want = a.where_cond(&cond, &b).unwrap();
    let got = on_device("where broadcast", || {
        gpu(&a).where_cond(&gpu(&cond), &gpu(&b)).unwrap()
    });
    assert_eq!(got.shape(), &[2, 3, 4]);
    assert_eq!(floats(&got), floats(&want));
}

#[test]
fn relu_backward_stays_on_the_device() {
    if !open() {
        return;
    }
    let x = common::tensor(&[6, 5], 9).requires_grad_(true);
    let xg = gpu(&x.detach()).requires_grad_(true);
    x.relu().unwrap().sum().unwrap().backward().unwrap();
    on_device("relu backward", || {
        xg.relu().unwrap().sum().unwrap().backward().unwrap()
    });
    assert_eq!(floats(&xg.grad().unwrap()), floats(&x.grad().unwrap()));
}

#[test]
fn softmax_matches_cpu_on_every_layout_and_dim() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 10);
        for dim in 0..x.shape().len().max(1) as i64 {
            for log in [false, true] {
                let what = format!("{} dim {dim} log {log}", recipe.0);
                let run = |t: &Tensor| match log {
                    true => t.log_softmax(dim),
                    false => t.softmax(dim),
                };
                let want = run(&x).unwrap();
                let got = if x.numel() == 0 {
                    run(&xg).unwrap()
                } else {
                    on_device(&what, || run(&xg).unwrap())
                };
                assert_eq!(got.shape(), want.shape(), "{what}");
                assert_close(&what, &floats(&got), &floats(&want), 1e-5, 1e-6);
            }
        }
    }
}

#[test]
fn softmax_special_rows_short_and_long() {
    if !open() {
        return;
    }
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    // Rows: huge equal values, a NaN, all -inf, one -inf, and probabilities
    // e^-100 and e^-95 (subnormal in float32, which the CPU keeps).
    let short = Tensor::from_vec(
        vec![
            1000.0, 1000.0, nan, 1.0, -inf, -inf, -inf, 0.0, 0.0, 100.0, 5.0, 100.0,
        ],
        &[6, 2],
    )
    .unwrap();
    // Rows of 1000 go to the workgroup-per-row kernel; one holds a NaN.
    let mut long = common::values(3000, 11);
    long[1500] = nan;
    long[10] = 80.0;
    let long = Tensor::from_vec(long, &[3, 1000]).unwrap();
    for (name, x) in [("short", short), ("long", long)] {
        for log in [false, true] {
            let what = format!("{name} log {log}");
            let run = |t: &Tensor| match log {
                true => t.log_softmax(-1),
                false => t.softmax(-1),
            };
            let want = run(&x).unwrap();
            let got = on_device(&what, || run(&gpu(&x)).unwrap());
            // Subnormals compared exactly: no absolute slack.
            assert_close(&what, &floats(&got), &floats(&want), 1e-5, 0.0);
        }
    }
}

#[test]
fn log_softmax_backward_matches_cpu() {
    if !open() {
        return;
    }
    let x = common::tensor(&[4, 6], 12).requires_grad_(true);
    let xg = gpu(&x.detach()).requires_grad_(true);
    let weights = common::tensor(&[4, 6], 13);
    let loss = |x: &Tensor, w: &Tensor| x.log_softmax(1)?.mul(w)?.sum()?.backward();
    loss(&x, &weights).unwrap();
    on_device("log_softmax backward", || {
        loss(&xg, &gpu(&weights)).unwrap()
    });
    assert_close(
        "log_softmax grad",
        &floats(&xg.grad().unwrap()),
        &floats(&x.grad().unwrap()),
        1e-5,
        1e-6,
    );
}

/// An `nll_loss` case: name, log-probabilities over a base (the view is
/// taken alike of the base and of its GPU copy), targets (-100 ignored)
/// and the targets' shape.
type NllCase = (
    &'static str,
    Tensor,
    fn(&Tensor) -> Tensor,
    Vec<i64>,
    Vec<usize>,
);

fn nll_cases() -> Vec<NllCase> {
    let logp = |shape: &[usize], seed| common::tensor(shape, seed).log_softmax(1).unwrap();
    vec![
        (
            "batch",
            logp(&[6, 5], 20),
            |t| t.clone(),
            vec![0, 4, -100, 2, 2, 1],
            vec![6],
        ),
        (
            "batch_transposed",
            common::tensor(&[5, 6], 21).log_softmax(0).unwrap(),
            |t| t.transpose(0, 1).unwrap(),
            vec![1, 0, 3, -100, 4, 4],
            vec![6],
        ),
        (
            "classes_only",
            common::tensor(&[5], 22).log_softmax(0).unwrap(),
            |t| t.clone(),
            vec![3],
            vec![],
        ),
        (
            "classes_stepped",
            common::tensor(&[10], 28).log_softmax(0).unwrap(),
            |t| t.slice(0, None, None, 2).unwrap(),
            vec![4],
            vec![1],
        ),
        (
            "spatial",
            logp(&[2, 3, 2, 2], 23),
            |t| t.clone(),
            vec![0, 1, 2, -100, 2, 1, 0, 0],
            vec![2, 2, 2],
        ),
        (
            // Spatial dims that do not merge: the host path, still right.
            "spatial_permuted",
            logp(&[2, 3, 2, 2], 24),
            |t| t.permute(&[0, 1, 3, 2]).unwrap(),
            vec![2, 1, 0, 0, 1, 1, -100, 2],
            vec![2, 2, 2],
        ),
        (
            "empty_batch",
            logp(&[0, 4], 25),
            |t| t.clone(),
            vec![],
            vec![0],
        ),
        (
            "all_ignored",
            logp(&[2, 3], 26),
            |t| t.clone(),
            vec![-100, -100],
            vec![2],
        ),
    ]
}

#[test]
fn nll_loss_matches_cpu_forward_and_backward() {
    if !open() {
        return;
    }
    let weight = Tensor::from_vec(vec![0.5f32, 2.0, 1.0, 0.25, 3.0], &[5]).unwrap();
    for (name, base, view, targets, target_shape) in nll_cases() {
        let logp = view(&base);
        let logp_gpu = view(&gpu(&base));
        let classes = logp.shape()[usize::from(logp.shape().len() > 1)];
        let target = Tensor::from_vec(targets, &target_shape).unwrap();
        for reduction in [Reduction::Mean, Reduction::Sum, Reduction::None] {
            for weighted in [false, true] {
                let what = format!("{name} {reduction:?} weighted {weighted}");
                let options = |w: Option<Tensor>| NllLossOptions {
                    weight: w.map(|w| w.slice(0, Some(0), Some(classes as i64), 1).unwrap()),
                    reduction,
                    ..NllLossOptions::default()
                };
                let cpu_options = options(weighted.then(|| weight.clone()));
                let gpu_options = options(weighted.then(|| gpu(&weight)));
                let x = logp.detach().requires_grad_(true);
                let xg = logp_gpu.detach().requires_grad_(true);
                let want = x.nll_loss(&target, &cpu_options).unwrap();
                let got = xg.nll_loss(&target, &gpu_options).unwrap();
                assert_eq!(got.shape(), want.shape(), "{what}");
                assert_close(&what, &floats(&got), &floats(&want), 1e-5, 1e-6);
                // Backward through a weighted sum, so every loss counts.
                let seed = common::tensor(want.shape(), 27);
                want.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
                got.mul(&gpu(&seed))
                    .unwrap()
                    .sum()
                    .unwrap()
                    .backward()
                    .unwrap();
                assert_close(
                    &format!("{what} grad"),
                    &floats(&xg.grad().unwrap()),
                    &floats(&x.grad().unwrap()),
                    1e-5,
                    1e-6,
                );
            }
        }
    }
}

#[test]
fn nll_loss_runs_as_kernels_and_keeps_pytorch_errors() {
    if !open() {
        return;
    }
    let logp = common::tensor(&[4, 3], 30).log_softmax(1).unwrap();
    let target = Tensor::from_vec(vec![2i64, 0, 1, 1], &[4]).unwrap();
    let xg = gpu(&logp).requires_grad_(true);
    let loss = on_device("nll_loss", || {
        xg.nll_loss(&target, &NllLossOptions::default()).unwrap()
    });
    on_device("nll_loss backward", || loss.backward().unwrap());
    // An out-of-range target raises PyTorch's error, from the host check.
    let bad = Tensor::from_vec(vec![2i64, 0, 3, 1], &[4]).unwrap();
    let want = logp.nll_loss(&bad, &NllLossOptions::default()).unwrap_err();
    let got = xg.nll_loss(&bad, &NllLossOptions::default()).unwrap_err();
    assert_eq!(got.to_string(), want.to_string());
    assert!(got.to_string().contains("out of bounds"), "{got}");
}

#[test]
fn cross_entropy_matches_cpu() {
    if !open() {
        return;
    }
    let logits = common::tensor(&[8, 10], 31);
    let target = Tensor::from_vec(vec![0i64, 9, 3, 3, 7, 1, 5, 2], &[8]).unwrap();
    // Two leaves (a clone would share the handle, and its gradient flag).
    let x = logits.detach().requires_grad_(true);
    let xg = gpu(&logits).requires_grad_(true);
    let options = NllLossOptions::default();
    let want = x.cross_entropy(&target, &options).unwrap();
    let got = on_device("cross_entropy", || {
        xg.cross_entropy(&target, &options).unwrap()
    });
    want.backward().unwrap();
    on_device("cross_entropy backward", || got.backward().unwrap());
    assert_close("loss", &floats(&got), &floats(&want), 1e-5, 1e-6);
    assert_close(
        "grad",
        &floats(&xg.grad().unwrap()),
        &floats(&x.grad().unwrap()),
        1e-5,
        1e-7,
    );
}

/// Three Adam steps on `shape`, on `device`: the parameter's values and
/// version afterwards.
fn adam_run(shape: &[usize], options: AdamOptions, device: Device) -> (Vec<f32>, u64) {
    let init = common::tensor(shape, 40);
    let w = match device {
        Device::Cpu => init,
        Device::WebGpu => gpu(&init),
    }
    .requires_grad_(true);
    let mut opt = Adam::new(vec![w.clone()], options).unwrap();
    for _ in 0..3 {
        opt.zero_grad(true).unwrap();
        w.mul(&w)
            .unwrap()
            .sin()
            .unwrap()
            .sum()
            .unwrap()
            .backward()
            .unwrap();
        if device == Device::WebGpu {
            on_device("adam step", || opt.step().unwrap());
        } else {
            opt.step().unwrap();
        }
    }
    (floats(&w), w.version().unwrap())
}

#[test]
fn adam_step_matches_cpu() {
    if !open() {
        return;
    }
    let configs = [
        AdamOptions::default(),
        AdamOptions {
            lr: 0.01,
            betas: (0.8, 0.99),
            weight_decay: 0.1,
            ..Default::default()
        },
        AdamOptions::adamw(),
    ];
    for options in configs {
        for shape in [&[5, 7][..], &[300], &[]] {
            let what = format!("{shape:?} {options:?}");
            let (want, want_version) = adam_run(shape, options, Device::Cpu);
            let (got, got_version) = adam_run(shape, options, Device::WebGpu);
            assert_close(&what, &got, &want, 1e-5, 1e-6);
            assert_eq!(got_version, want_version, "{what}: version");
        }
    }
}

#[test]
fn adam_step_on_an_empty_parameter() {
    if !open() {
        return;
    }
    let w = gpu(&common::tensor(&[0, 3], 41)).requires_grad_(true);
    let mut opt = Adam::new(vec![w.clone()], AdamOptions::default()).unwrap();
    w.sum().unwrap().backward().unwrap();
    opt.step().unwrap();
    assert_eq!(w.shape(), &[0, 3]);
    assert!(floats(&w).is_empty());
}

/// A two-layer classifier's training step on the GPU: no host fallback and
/// nothing read back but the loss, whose values follow the CPU's.
#[test]
fn mlp_training_step_stays_on_the_device() {
    if !open() {
        return;
    }
    let adam = |params: Vec<Tensor>| -> Box<dyn Optimizer> {
        Box::new(Adam::new(params, AdamOptions::default()).unwrap())
    };
    let want = mlp_losses(Device::Cpu, true, &adam);
    let got = mlp_losses(Device::WebGpu, true, &adam);
    assert_losses_match(&got, &want);
}

#[test]
fn index_select_matches_cpu_on_every_layout_and_dim() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 60);
        for dim in 0..x.shape().len() {
            let size = x.shape()[dim] as i64;
            // Repeats, reversed order, and no indices at all.
            let orders: Vec<Vec<i64>> = match size {
                0 => vec![vec![]],
                _ => vec![
                    vec![size - 1, 0, size - 1],
                    (0..size).rev().collect(),
                    vec![],
                ],
            };
            for order in orders {
                let what = format!("{} dim {dim} {order:?}", recipe.0);
                let index = Tensor::from_vec(order.clone(), &[order.len()]).unwrap();
                let want = x.index_select(dim as i64, &index).unwrap();
                let run = || xg.index_select(dim as i64, &index).unwrap();
                let got = if want.numel() == 0 {
                    run()
                } else {
                    on_device(&what, run)
                };
                assert_eq!(got.shape(), want.shape(), "{what}");
                assert_eq!(floats(&got), floats(&want), "{what}");
            }
        }
    }
    // An index past the axis raises PyTorch's error, from the host check.
    let x = common::tensor(&[3, 4], 61);
    let bad = Tensor::from_vec(vec![0i64, 4], &[2]).unwrap();
    let want = x.index_select(1, &bad).unwrap_err();
    let got = gpu(&x).index_select(1, &bad).unwrap_err();
    assert_eq!(got.to_string(), want.to_string());
}

#[test]
fn embedding_matches_cpu_forward_and_backward() {
    if !open() {
        return;
    }
    let weight = common::tensor(&[7, 5], 62);
    let indices = Tensor::from_vec(vec![6i64, 0, 3, 3, 1, 6], &[2, 3]).unwrap();
    let w = weight.detach().requires_grad_(true);
    let wg = gpu(&weight).requires_grad_(true);
    let want = Tensor::embedding(&indices, &w, None).unwrap();
    let got = on_device("embedding", || {
        Tensor::embedding(&indices, &wg, None).unwrap()
    });
    assert_eq!(got.shape(), &[2, 3, 5]);
    assert_eq!(floats(&got), floats(&want));
    // The backward (index_add into zeros) runs as the put kernel; see
    // gather_kernels.rs for it staying on the device.
    let seed = common::tensor(&[2, 3, 5], 63);
    want.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
    got.mul(&gpu(&seed))
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_close(
        "embedding grad",
        &floats(&wg.grad().unwrap()),
        &floats(&w.grad().unwrap()),
        1e-6,
        1e-6,
    );
    // A transposed weight is read through its strides.
    let wt = common::tensor(&[5, 7], 64);
    let want = Tensor::embedding(&indices, &wt.transpose(0, 1).unwrap(), None).unwrap();
    let got = on_device("embedding transposed", || {
        Tensor::embedding(&indices, &gpu(&wt).transpose(0, 1).unwrap(), None).unwrap()
    });
    assert_eq!(floats(&got), floats(&want));
}
