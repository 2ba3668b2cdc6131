//! Optimizers, clipping and schedulers against `torch.optim`, recorded by
//! `tests/fixtures/record_optim.py`: the same steps from the same weights.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

mod common;

use common::floats;
use gradscope_core::ledger::{self, Category};
use gradscope_core::optim::{
    Adam, AdamOptions, CosineAnnealingLr, LrScheduler, Optimizer, Sgd, SgdOptions, StepLr,
    clip_grad_norm_, clip_grad_value_,
};
use gradscope_core::{Error, Result, Tensor};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const FIXTURE: &str = include_str!("../../../tests/fixtures/optim.json");

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).unwrap()
}

fn f32s(v: &Value) -> Vec<f32> {
    floats(v).into_iter().map(|v| v as f32).collect()
}

fn tensor(v: &Value, shape: &[usize]) -> Tensor {
    Tensor::from_vec(f32s(v), shape).unwrap()
}

fn params() -> (Tensor, Tensor) {
    let inputs = &fixture()["inputs"];
    (
        tensor(&inputs["w"], &[2, 3]).requires_grad_(true),
        tensor(&inputs["b"], &[2]).requires_grad_(true),
    )
}

fn loss(w: &Tensor, b: &Tensor) -> Result<Tensor> {
    let inputs = &fixture()["inputs"];
    let (x, y) = (tensor(&inputs["x"], &[4, 3]), tensor(&inputs["y"], &[4, 2]));
    let d = x.matmul(&w.t()?)?.add(b)?.sub(&y)?;
    d.mul(&d)?.mean()
}

/// float32 updates in a different association order than PyTorch's fused
/// kernels: a few ulps per step, compounding over four steps.
fn assert_near(actual: &[f32], expected: &[f32], what: &str) {
    for (a, e) in actual.iter().zip(expected) {
        assert!(
            (a - e).abs() <= 1e-5 + 1e-5 * e.abs(),
            "{what}: {actual:?} vs {expected:?}"
        );
    }
}

fn check_run(case: &str, mut opt: impl Optimizer, w: &Tensor, b: &Tensor, zero: bool) {
    let steps = fixture()["cases"][case].as_array().unwrap().clone();
    for (i, step) in steps.iter().enumerate() {
        if zero {
            opt.zero_grad(true).unwrap();
        }
        loss(w, b).unwrap().backward().unwrap();
        opt.step().unwrap();
        assert_near(
            &w.to_vec::<f32>(),
            &f32s(&step["w"]),
            &format!("{case} step {i} w"),
        );
        assert_near(
            &b.to_vec::<f32>(),
            &f32s(&step["b"]),
            &format!("{case} step {i} b"),
        );
    }
}

test_device! {
    fn sgd_variants_match_pytorch() {
        let configs = [
            ("sgd", SgdOptions { lr: 0.1, ..Default::default() }),
            ("sgd_momentum", SgdOptions { lr: 0.05, momentum: 0.9, weight_decay: 0.01, ..Default::default() }),
            ("sgd_nesterov", SgdOptions { lr: 0.05, momentum: 0.9, nesterov: true, ..Default::default() }),
            ("sgd_dampening", SgdOptions { lr: 0.05, momentum: 0.5, dampening: 0.3, ..Default::default() }),
        ];
        for (case, options) in configs {
            let (w, b) = params();
            let opt = Sgd::new(vec![w.clone(), b.clone()], options).unwrap();
            check_run(case, opt, &w, &b, true);
        }
    }

    fn forgetting_zero_grad_accumulates_as_in_pytorch() {
        let (w, b) = params();
        let opt = Sgd::new(vec![w.clone(), b.clone()], SgdOptions { lr: 0.1, ..Default::default() }).unwrap();
        check_run("sgd_forgot_zero_grad", opt, &w, &b, false);
    }

    fn adam_and_adamw_match_pytorch() {
        let configs = [
            ("adam", AdamOptions { lr: 0.01, ..Default::default() }),
            ("adam_wd", AdamOptions { lr: 0.01, betas: (0.8, 0.99), weight_decay: 0.1, ..Default::default() }),
            ("adamw", AdamOptions { lr: 0.01, ..AdamOptions::adamw() }),
        ];
        for (case, options) in configs {
            let (w, b) = params();
            let opt = Adam::new(vec![w.clone(), b.clone()], options).unwrap();
            check_run(case, opt, &w, &b, true);
        }
    }

    fn adam_state_counts_as_optimizer_state() {
        let before = ledger::stats_on(common::device()).current(Category::OptimizerState);
        let (w, b) = params();
        let mut opt = Adam::new(vec![w.clone(), b.clone()], AdamOptions::default()).unwrap();
        loss(&w, &b).unwrap().backward().unwrap();
        opt.step().unwrap();
        // Two moments for each of 6 + 2 float32 parameters.
        assert_eq!(ledger::stats_on(common::device()).current(Category::OptimizerState) - before, 2 * 8 * 4);
        drop(opt);
        assert_eq!(ledger::stats_on(common::device()).current(Category::OptimizerState), before);
    }

    fn clipping_matches_pytorch() {
        let case = &fixture()["cases"]["clip_norm"];
        let (w, b) = params();
        loss(&w, &b).unwrap().mul(&Tensor::scalar(10.0)).unwrap().backward().unwrap();
        let total = clip_grad_norm_(&[w.clone(), b.clone()], 1.0, 2.0).unwrap();
        assert!((total - case["total"].as_f64().unwrap()).abs() < 1e-4, "{total}");
        assert_near(&w.grad().unwrap().to_vec::<f32>(), &f32s(&case["w_grad"]), "clip w");
        assert_near(&b.grad().unwrap().to_vec::<f32>(), &f32s(&case["b_grad"]), "clip b");

        let case = &fixture()["cases"]["clip_value"];
        let (w, b) = params();
        loss(&w, &b).unwrap().mul(&Tensor::scalar(10.0)).unwrap().backward().unwrap();
        clip_grad_value_(&[w.clone(), b.clone()], 0.5).unwrap();
        assert_near(&w.grad().unwrap().to_vec::<f32>(), &f32s(&case["w_grad"]), "clip value w");
        assert_near(&b.grad().unwrap().to_vec::<f32>(), &f32s(&case["b_grad"]), "clip value b");
    }

    fn schedulers_match_pytorch() {
        let p = Tensor::zeros(&[1]).requires_grad_(true);
        let mut opt = Sgd::new(vec![p.clone()], SgdOptions { lr: 0.1, ..Default::default() }).unwrap();
        let mut s = StepLr::new(&opt, 2, 0.5);
        let got: Vec<f64> = (0..6).map(|_| { s.step(&mut opt); s.last_lr() }).collect();
        common::assert_close_f64(&got, &floats(&fixture()["cases"]["step_lr"]));
        let mut opt = Sgd::new(vec![p], SgdOptions { lr: 0.1, ..Default::default() }).unwrap();
        let mut s = CosineAnnealingLr::new(&opt, 5, 0.01);
        let got: Vec<f64> = (0..5).map(|_| { s.step(&mut opt); s.last_lr() }).collect();
        let want = floats(&fixture()["cases"]["cosine_lr"]);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-12, "{got:?} vs {want:?}");
        }
    }

    fn optimizer_errors_match_pytorch() {
        assert_eq!(Sgd::new(vec![], SgdOptions::default()).unwrap_err().to_string(), "optimizer got an empty parameter list");
        let p = Tensor::zeros(&[1]).requires_grad_(true);
        let err = Sgd::new(vec![p], SgdOptions { nesterov: true, ..Default::default() }).unwrap_err();
        assert_eq!(err, Error::NesterovMomentum);
        assert_eq!(err.python_type(), "ValueError");
    }
}
