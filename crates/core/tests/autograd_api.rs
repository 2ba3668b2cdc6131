//! The autograd API against PyTorch: `autograd.grad`, hooks, `retain_grad`,
//! in-place ops and version counters, inference mode, checkpointing.
//! Recorded by `tests/fixtures/record_autograd_api.py`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use common::{assert_close_f32, floats};
use gradscope_core::autograd::grad;
use gradscope_core::grad_mode::GradModeGuard;
use gradscope_core::{Error, Tensor};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const FIXTURE: &str = include_str!("../../../tests/fixtures/autograd_api.json");

fn fixture(name: &str) -> Value {
    common::case(FIXTURE, name)
}

fn tensor(values: &[f64]) -> Tensor {
    let v: Vec<f32> = values.iter().map(|&v| v as f32).collect();
    let n = v.len();
    Tensor::from_vec(v, &[n]).unwrap()
}

fn error_message(name: &str) -> String {
    fixture("errors")[name]["message"]
        .as_str()
        .unwrap()
        .to_string()
}

fn only(grads: Vec<Option<Tensor>>) -> Tensor {
    grads.into_iter().next().flatten().expect("one gradient")
}

test_device! {
    fn grad_second_order_through_create_graph() {
        let case = fixture("grad_second_order");
        let x = tensor(&floats(&case["x"])).requires_grad_(true);
        let y = x.mul(&x).unwrap().mul(&x).unwrap().sum().unwrap();
        let g = only(grad(&[y], std::slice::from_ref(&x), None, None, true, false).unwrap());
        assert_close_f32(&g.to_vec::<f32>(), &floats(&case["g"]));
        let gg = only(grad(&[g.sum().unwrap()], std::slice::from_ref(&x), None, None, false, false).unwrap());
        assert_close_f32(&gg.to_vec::<f32>(), &floats(&case["gg"]));
        assert!(x.grad().is_none(), "autograd.grad leaves .grad alone");
    }

    fn grad_of_a_non_leaf_and_with_grad_outputs() {
        let a = tensor(&floats(&fixture("grad_non_leaf")["a"])).requires_grad_(true);
        let b = a.mul(&Tensor::scalar(3.0)).unwrap();
        let c = b.mul(&b).unwrap().sum().unwrap();
        let gb = only(grad(&[c], &[b], None, None, false, false).unwrap());
        assert_close_f32(&gb.to_vec::<f32>(), &floats(&fixture("grad_non_leaf")["gb"]));

        let a = tensor(&[1.0, -2.0]).requires_grad_(true);
        let out = a.mul(&Tensor::scalar(3.0)).unwrap();
        let go = [Some(tensor(&[0.5, 2.0]))];
        let ga = only(grad(&[out], &[a], Some(&go), None, false, false).unwrap());
        assert_close_f32(&ga.to_vec::<f32>(), &floats(&fixture("grad_outputs")["ga"]));
    }

    fn hooks_see_and_replace_gradients_in_order() {
        let case = fixture("hooks");
        let x = tensor(&[1.0, 2.0]).requires_grad_(true);
        let seen = Rc::new(RefCell::new(vec![]));
        let log = seen.clone();
        x.register_hook(Rc::new(move |g: &Tensor| {
            log.borrow_mut().push(g.to_vec::<f32>());
            Ok(None)
        }))
        .unwrap();
        x.register_hook(Rc::new(|g: &Tensor| g.mul(&Tensor::scalar(10.0)).map(Some))).unwrap();
        let y = x.mul(&Tensor::scalar(2.0)).unwrap();
        y.register_hook(Rc::new(|g: &Tensor| g.add(&Tensor::scalar(1.0)).map(Some))).unwrap();
        y.sum().unwrap().backward().unwrap();
        assert_close_f32(&x.grad().unwrap().to_vec::<f32>(), &floats(&case["x_grad"]));
        let first = &case["seen_by_first_leaf_hook"][0];
        assert_close_f32(&seen.borrow()[0], &floats(first));
    }

    fn hook_handle_removes_the_hook() {
        let x = tensor(&[1.0]).requires_grad_(true);
        let handle = x
            .register_hook(Rc::new(|g: &Tensor| g.mul(&Tensor::scalar(10.0)).map(Some)))
            .unwrap();
        handle.remove();
        x.mul(&Tensor::scalar(2.0)).unwrap().sum().unwrap().backward().unwrap();
        assert_eq!(x.grad().unwrap().to_vec::<f32>(), vec![2.0]);
    }

    fn retain_grad_keeps_a_non_leaf_gradient() {
        let case = fixture("retain_grad");
        let x = tensor(&[1.0, 2.0]).requires_grad_(true);
        let y = x.mul(&x).unwrap();
        y.retain_grad().unwrap();
        y.mul(&Tensor::scalar(3.0)).unwrap().sum().unwrap().backward().unwrap();
        assert_close_f32(&y.grad().unwrap().to_vec::<f32>(), &floats(&case["y_grad"]));
        assert_close_f32(&x.grad().unwrap().to_vec::<f32>(), &floats(&case["x_grad"]));
        assert!(y.retains_grad());
    }

    fn inplace_ops_rebase_history_and_bump_the_version() {
        let case = fixture("inplace_chain");
        let x = tensor(&[1.0, 2.0]).requires_grad_(true);
        let y = x.mul(&Tensor::scalar(2.0)).unwrap();
        y.mul_(&tensor(&[3.0, 4.0])).unwrap();
        y.add_(&Tensor::scalar(1.0)).unwrap();
        assert_close_f32(&y.to_vec::<f32>(), &floats(&case["y"]));
        assert_eq!(y.grad_fn().unwrap().name(), case["grad_fn"].as_str().unwrap());
        assert_eq!(y.storage().version(), case["version"].as_u64().unwrap());
        y.sum().unwrap().backward().unwrap();
        assert_close_f32(&x.grad().unwrap().to_vec::<f32>(), &floats(&case["x_grad"]));
    }

    fn inplace_mul_keeps_the_original_value_for_backward() {
        let case = fixture("inplace_mul_saves_original");
        let x = tensor(&[1.0, 2.0]).requires_grad_(true);
        let w = tensor(&[3.0, -1.0]).requires_grad_(true);
        let y = x.mul(&Tensor::scalar(1.0)).unwrap();
        y.mul_(&w).unwrap();
        y.sum().unwrap().backward().unwrap();
        assert_close_f32(&x.grad().unwrap().to_vec::<f32>(), &floats(&case["x_grad"]));
        assert_close_f32(&w.grad().unwrap().to_vec::<f32>(), &floats(&case["w_grad"]));
    }

    fn inplace_and_inference_errors_match_pytorch() {
        let a = Tensor::ones(&[2]).requires_grad_(true);
        let b = a.mul(&Tensor::scalar(2.0)).unwrap();
        let c = b.mul(&b).unwrap();
        b.add_(&Tensor::scalar(1.0)).unwrap();
        let err = c.sum().unwrap().backward().unwrap_err();
        assert_eq!(err.to_string(), error_message("modified_saved"));

        let err = Tensor::ones(&[2]).requires_grad_(true).add_(&Tensor::scalar(1.0)).unwrap_err();
        assert_eq!(err, Error::LeafInplace);
        assert_eq!(err.to_string(), error_message("leaf_inplace"));

        let t = {
            let _mode = GradModeGuard::inference_mode(true);
            Tensor::ones(&[2])
        };
        let w = Tensor::ones(&[2]).requires_grad_(true);
        assert_eq!(w.mul(&t).unwrap_err().to_string(), error_message("inference_saved"));
        let err = t.add_(&Tensor::scalar(1.0)).unwrap_err();
        assert_eq!(err.to_string(), error_message("inference_inplace"));

        let err = Tensor::ones(&[2]).register_hook(Rc::new(|_| Ok(None))).unwrap_err();
        assert_eq!(err.to_string(), error_message("hook_no_grad"));
        let err = Tensor::ones(&[2]).retain_grad().unwrap_err();
        assert_eq!(err.to_string(), error_message("retain_grad_no_grad"));
        let y = Tensor::ones(&[2]).requires_grad_(true).sum().unwrap();
        let err = grad(&[y], &[Tensor::ones(&[2])], None, None, false, false).unwrap_err();
        assert_eq!(err.to_string(), error_message("grad_no_grad"));
        let y = Tensor::ones(&[2]).requires_grad_(true).mul(&Tensor::scalar(2.0)).unwrap();
        let unused = Tensor::ones(&[2]).requires_grad_(true);
        let err = grad(&[y.sum().unwrap()], &[unused], None, None, false, false).unwrap_err();
        assert_eq!(err.to_string(), error_message("grad_unused"));
    }

    fn inference_mode_makes_inference_tensors_and_records_nothing() {
        let case = fixture("inference");
        let flags: Vec<bool> = case["is_inference"].as_array().unwrap().iter().map(|b| b.as_bool().unwrap()).collect();
        let (t, u) = {
            let _mode = GradModeGuard::inference_mode(true);
            let t = Tensor::ones(&[2]);
            let u = t.mul(&Tensor::scalar(2.0)).unwrap();
            (t, u)
        };
        assert_eq!(vec![t.is_inference(), u.is_inference(), Tensor::ones(&[2]).is_inference()], flags);
        assert_eq!(u.requires_grad(), case["requires_grad"].as_bool().unwrap());
    }

    fn inplace_shape_and_overlap_errors() {
        let t = Tensor::ones(&[2]);
        let err = t.add_(&Tensor::ones(&[3, 2])).unwrap_err();
        assert_eq!(err.to_string(), "output with shape [2] doesn't match the broadcast shape [3, 2]");
        let e = Tensor::ones(&[1]).expand(&[3]).unwrap();
        assert_eq!(e.add_(&Tensor::scalar(1.0)).unwrap_err(), Error::InplaceOverlap);
        let i = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
        let err = i.add_(&Tensor::scalar(0.5)).unwrap_err();
        assert_eq!(err.to_string(), "result type Float can't be cast to the desired output type Long");
    }
}

fn block(t: &[Tensor]) -> gradscope_core::Result<Vec<Tensor>> {
    let x = &t[0];
    Ok(vec![x.mul(x)?.exp()?.mul(x)?])
}

test_device! {
    fn checkpoint_gives_pytorchs_gradients_and_recomputes_in_backward() {
        use gradscope_core::autograd::checkpoint::checkpoint;
        use gradscope_trace::EventKind;
        let case = fixture("checkpoint");
        let x = tensor(&floats(&case["x"])).requires_grad_(true);
        let ((), events) = gradscope_core::trace::record(|| {
            let y = checkpoint(Rc::new(block), std::slice::from_ref(&x)).unwrap();
            y[0].sum().unwrap().backward().unwrap();
        });
        assert_close_f32(&x.grad().unwrap().to_vec::<f32>(), &floats(&case["x_grad"]));
        let recomputes = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::RecomputeBegan { .. }))
            .count();
        assert_eq!(recomputes, 1);
        let backward = events.iter().position(|e| matches!(e.kind, EventKind::BackwardBegan { .. }));
        let recompute = events.iter().position(|e| matches!(e.kind, EventKind::RecomputeBegan { .. }));
        assert!(recompute > backward, "recomputation happens during backward");
    }

    fn checkpoint_holds_no_saved_tensors_and_lowers_the_peak() {
        use gradscope_core::autograd::checkpoint::checkpoint_sequential;
        use gradscope_core::ledger;
        let layer: gradscope_core::autograd::checkpoint::Layer =
            Rc::new(|t: &Tensor| t.mul(t)?.exp()?.mul(&Tensor::scalar(0.5)));
        let layers = vec![layer; 8];
        let run = |segments: usize| {
            let x = Tensor::full(&[1024], 0.1).requires_grad_(true);
            ledger::reset_peak_memory_stats();
            let base = ledger::memory_allocated();
            let out = if segments == 0 {
                layers.iter().try_fold(x.clone(), |y, f| f(&y)).unwrap()
            } else {
                checkpoint_sequential(&layers, segments, &x).unwrap()
            };
            let saved = ledger::saved_for_backward_bytes();
            out.sum().unwrap().backward().unwrap();
            let peak = ledger::max_memory_allocated() - base;
            (saved, peak, x.grad().unwrap().to_vec::<f32>())
        };
        let (plain_saved, plain_peak, plain_grad) = run(0);
        let (cp_saved, cp_peak, cp_grad) = run(4);
        assert_eq!(plain_grad, cp_grad);
        assert!(cp_saved * 3 < plain_saved, "saved {cp_saved} vs {plain_saved}");
        assert!(cp_peak < plain_peak, "peak {cp_peak} vs {plain_peak}");
        assert_eq!(ledger::saved_for_backward_bytes(), 0);
    }
}

test_device! {
    fn custom_function_runs_its_backward_as_a_named_node() {
        use gradscope_core::autograd::function::apply_function;
        let case = fixture("custom_function");
        let x = tensor(&floats(&case["x"])).requires_grad_(true);
        let y = apply_function(
            "MySquare",
            std::slice::from_ref(&x),
            |ctx, t| {
                ctx.save_for_backward(&t[..1]);
                t[0].mul(&t[0])
            },
            Rc::new(|saved: &[Tensor], g: &Tensor| {
                Ok(vec![Some(g.mul(&Tensor::scalar(2.0))?.mul(&saved[0])?)])
            }),
        )
        .unwrap();
        assert_close_f32(&y.to_vec::<f32>(), &floats(&case["y"]));
        assert_eq!(y.grad_fn().unwrap().name(), case["grad_fn"].as_str().unwrap());
        y.mul(&Tensor::scalar(3.0)).unwrap().sum().unwrap().backward().unwrap();
        assert_close_f32(&x.grad().unwrap().to_vec::<f32>(), &floats(&case["x_grad"]));
    }

    fn custom_function_with_the_wrong_gradient_count_is_an_error() {
        use gradscope_core::autograd::function::apply_function;
        let a = Tensor::ones(&[2]).requires_grad_(true);
        let y = apply_function(
            "Wrong",
            &[a, Tensor::ones(&[2])],
            |_, t| t[0].mul(&t[1]),
            Rc::new(|_: &[Tensor], g: &Tensor| Ok(vec![Some(g.clone())])),
        )
        .unwrap();
        let err = y.sum().unwrap().backward().unwrap_err();
        assert_eq!(err.to_string(), error_message("wrong_grad_count"));
    }

    fn anomaly_mode_names_the_node_that_made_nan() {
        use gradscope_core::grad_mode::set_detect_anomaly;
        set_detect_anomaly(true);
        gradscope_core::trace::set_current_line(Some(7));
        let x = tensor(&[0.0, 1.0]).requires_grad_(true);
        let y = x.div(&x).unwrap().mul(&Tensor::scalar(0.0)).unwrap().sum().unwrap();
        gradscope_core::trace::set_current_line(None);
        let err = y.backward().unwrap_err();
        set_detect_anomaly(false);
        assert_eq!(err.to_string(), error_message("anomaly_nan"));
        assert!(matches!(err, Error::AnomalyNan { line: Some(7), .. }));
    }
}
