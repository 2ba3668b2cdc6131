//! In-place ops against PyTorch 2.15: result-saving backward nodes
//! (`relu_`, `sigmoid_`, `exp_`...) save the tensor they wrote, so a later
//! write is caught with PyTorch's message; in-place ops on views rebase the
//! base's history onto `CopySlices` and the views' onto
//! `AsStridedBackward0`, with PyTorch's gradients; and the view checks
//! (view of a leaf, view made under `no_grad`, `split`'s outputs) refuse
//! what PyTorch refuses. Every expected value, name and message below was
//! printed by real PyTorch (the same programs are in
//! `tests/corpus/inplace_*.py`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::grad_mode::GradModeGuard;
use gradscope_core::{Error, Tensor};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use common::{grad, leaf, name, next_names, s};

fn assert_close(actual: &[f32], expected: &[f64]) {
    common::assert_close_f32(actual, expected);
}

const HINT: &str = "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).";

fn version_error(shape: &str, op: &str, version: u64, expected: u64) -> String {
    format!(
        "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor {shape}], which is output 0 of {op}, is at version {version}; expected version {expected} instead. {HINT}"
    )
}

type Unary = fn(&Tensor) -> gradscope_core::Result<Tensor>;

every_target! {
    // b = a.sigmoid(); b.mul_(2): SigmoidBackward0 saved b, now at version 1.
    fn out_of_place_result_then_written() {
        let a = leaf(&[0.5, -1.0, 2.0]);
        let b = a.sigmoid().unwrap();
        b.mul_(&s(2.0)).unwrap();
        let err = b.sum().unwrap().backward().unwrap_err();
        assert_eq!(err.to_string(), version_error("[3]", "Sigmoid", 1, 0));
        let x = leaf(&[0.5, -1.0, 2.0]);
        let y = x.exp().unwrap();
        y.add_(&s(1.0)).unwrap();
        let err = y.sum().unwrap().backward().unwrap_err();
        assert_eq!(err.to_string(), version_error("[3]", "Exp", 1, 0));
    }

    // x = a * 1; x.relu_(): ReluBackward0, version 1, gradient the mask.
    fn relu_in_place_gradient() {
        let a = leaf(&[-1.0, 2.0, 3.0]);
        let x = a.mul(&s(1.0)).unwrap();
        x.apply_inplace("relu_", Tensor::relu).unwrap();
        assert_eq!(name(&x), "ReluBackward0");
        assert_eq!(x.version().unwrap(), 1);
        x.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.0, 1.0, 1.0]);
    }

    // The in-place ops whose node saves the result: written again, backward
    // fails at version 2 where 1 was saved. The others saved a copy.
    fn result_saving_in_place_ops_catch_a_later_write() {
        let saving: [(&str, Unary, &str, &str); 6] = [
            ("relu_", Tensor::relu, "ReluBackward0", "Relu"),
            ("sigmoid_", Tensor::sigmoid, "SigmoidBackward0", "Sigmoid"),
            ("tanh_", Tensor::tanh, "TanhBackward0", "Tanh"),
            ("exp_", Tensor::exp, "ExpBackward0", "Exp"),
            ("sqrt_", Tensor::sqrt, "SqrtBackward0", "Sqrt"),
            ("rsqrt_", Tensor::rsqrt, "RsqrtBackward0", "Rsqrt"),
        ];
        for (op, f, node, short) in saving {
            let x = leaf(&[0.5, 1.0, 2.0]);
            let z = x.mul(&s(1.0)).unwrap();
            z.apply_inplace(op, f).unwrap();
            assert_eq!((name(&z).as_str(), z.version().unwrap()), (node, 1), "{op}");
            z.mul_(&s(2.0)).unwrap();
            let err = z.sum().unwrap().backward().unwrap_err();
            assert_eq!(err.to_string(), version_error("[3]", short, 2, 1), "{op}");
        }
        let copying: [(&str, Unary, &str); 5] = [
            ("neg_", Tensor::neg, "NegBackward0"),
            ("abs_", Tensor::abs, "AbsBackward0"),
            ("log_", Tensor::log, "LogBackward0"),
            ("sin_", Tensor::sin, "SinBackward0"),
            ("cos_", Tensor::cos, "CosBackward0"),
        ];
        for (op, f, node) in copying {
            let x = leaf(&[0.5, 1.0, 2.0]);
            let z = x.mul(&s(1.0)).unwrap();
            z.apply_inplace(op, f).unwrap();
            assert_eq!(name(&z), node);
            z.mul_(&s(2.0)).unwrap();
            z.sum().unwrap().backward().unwrap();
            assert!(x.grad().is_some(), "{op}");
        }
    }

    // tanh_ twice: the second write moves the first node's saved result.
    fn twice_in_place() {
        let x = leaf(&[0.5, 1.0, 2.0]);
        let z = x.mul(&s(1.0)).unwrap();
        z.apply_inplace("tanh_", Tensor::tanh).unwrap();
        z.apply_inplace("tanh_", Tensor::tanh).unwrap();
        let err = z.sum().unwrap().backward().unwrap_err();
        assert_eq!(err.to_string(), version_error("[3]", "Tanh", 2, 1));
    }

    // The saved result no longer keeps the op's temporary: saved bytes are
    // the written tensor's own.
    fn saved_result_is_the_tensor_itself() {
        let x = leaf(&[0.5, 1.0, 2.0]);
        let z = x.mul(&s(1.0)).unwrap();
        z.apply_inplace("exp_", Tensor::exp).unwrap();
        z.sum().unwrap().backward().unwrap();
        let e: Vec<f64> = [0.5f64, 1.0, 2.0].iter().map(|v| v.exp()).collect();
        assert_close(&grad(&x), &e);
    }

    // base = a.clone(); v = base[0]; v.mul_(2).
    fn in_place_on_a_view_of_a_non_leaf() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let base = a.clone_tensor().unwrap();
        let v = base.select(0, 0).unwrap();
        v.mul_(&s(2.0)).unwrap();
        assert_eq!(name(&base), "CopySlices");
        assert_eq!(
            next_names(&base),
            vec![Some("CloneBackward0".into()), None]
        );
        assert_eq!(name(&v), "AsStridedBackward0");
        assert_eq!(next_names(&v), vec![Some("CopySlices".into())]);
        assert_eq!((base.version().unwrap(), v.version().unwrap()), (1, 1));
        base.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[2.0, 1.0, 1.0]);
    }

    // base = a * 1; v = base[1:]; v.mul_(w): CopySlices wraps MulBackward0,
    // whose edge to w becomes its own.
    fn view_times_a_tensor_that_needs_grad() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let w = leaf(&[2.0, 3.0]);
        let base = a.mul(&s(1.0)).unwrap();
        let v = base.slice(0, Some(1), None, 1).unwrap();
        v.mul_(&w).unwrap();
        assert_eq!(
            next_names(&base),
            vec![Some("MulBackward0".into()), Some("AccumulateGrad".into())]
        );
        let weights = Tensor::from_vec(vec![1.0f32, 10.0, 100.0], &[3]).unwrap();
        base.mul(&weights).unwrap().sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[1.0, 20.0, 300.0]);
        assert_close(&grad(&w), &[20.0, 300.0]);
    }

    // A sibling view reads its gradient through the new history.
    fn sibling_view_regenerated() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let base = a.mul(&s(1.0)).unwrap();
        let v1 = base.select(0, 0).unwrap();
        let v2 = base.slice(0, Some(1), None, 1).unwrap();
        assert_eq!(name(&v2), "SliceBackward0");
        v1.mul_(&s(5.0)).unwrap();
        assert_eq!(name(&v2), "AsStridedBackward0");
        assert_eq!(next_names(&v2), vec![Some("CopySlices".into())]);
        v2.mul(&s(2.0)).unwrap().sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.0, 2.0, 2.0]);
    }

    // base.mul_(5) with a view alive: the view's gradient goes through it.
    fn base_in_place_with_a_view() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let base = a.mul(&s(1.0)).unwrap();
        let v = base.slice(0, Some(1), None, 1).unwrap();
        base.mul_(&s(5.0)).unwrap();
        assert_eq!(name(&v), "AsStridedBackward0");
        assert_eq!(v.version().unwrap(), 1);
        v.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.0, 5.0, 5.0]);
    }

    // out = zeros(2, 3); out[0] = w * 2; out[1] = w: the base that needed no
    // gradient gets CopySlices and w gets 1*2 + 10.
    fn writing_into_a_view_of_zeros() {
        let w = leaf(&[1.0, 2.0, 3.0]);
        let out = Tensor::zeros(&[2, 3]);
        out.select(0, 0)
            .unwrap()
            .copy_(&w.mul(&s(2.0)).unwrap())
            .unwrap();
        out.select(0, 1).unwrap().copy_(&w).unwrap();
        assert!(out.requires_grad());
        assert_eq!(name(&out), "CopySlices");
        assert_eq!(out.to_vec::<f32>(), vec![2.0, 4.0, 6.0, 1.0, 2.0, 3.0]);
        let weights = Tensor::from_vec(vec![1.0f32, 10.0], &[2, 1]).unwrap();
        out.mul(&weights).unwrap().sum().unwrap().backward().unwrap();
        assert_close(&grad(&w), &[12.0, 12.0, 12.0]);
    }

    // v.sigmoid_() on a view: the gradient inside, then a write caught with
    // the view's own shape.
    fn result_saving_op_on_a_view() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let base = a.clone_tensor().unwrap();
        base.select(0, 0)
            .unwrap()
            .apply_inplace("sigmoid_", Tensor::sigmoid)
            .unwrap();
        base.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.196_611_94, 1.0, 1.0]);

        let a = leaf(&[1.0, 2.0, 3.0]);
        let base = a.clone_tensor().unwrap();
        let v = base.select(0, 0).unwrap();
        v.apply_inplace("sigmoid_", Tensor::sigmoid).unwrap();
        v.mul_(&s(2.0)).unwrap();
        let err = base.sum().unwrap().backward().unwrap_err();
        assert_eq!(err.to_string(), version_error("[]", "Sigmoid", 2, 1));
    }

    // base.t()[0].exp_() on a 2x2 clone: the chain of views placed back.
    fn chain_of_views() {
        let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])
            .unwrap()
            .requires_grad_(true);
        let base = a.clone_tensor().unwrap();
        let v = base.t().unwrap().select(0, 0).unwrap();
        v.apply_inplace("exp_", Tensor::exp).unwrap();
        assert_eq!((name(&v).as_str(), name(&base).as_str()), ("AsStridedBackward0", "CopySlices"));
        base.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[1f64.exp(), 1.0, 3f64.exp(), 1.0]);
    }

    // x[0].zero_() on a non-leaf: no gradient for the zeroed element.
    fn zero_on_a_view() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let x = a.mul(&s(1.0)).unwrap();
        let v = x.select(0, 0).unwrap();
        v.zero_().unwrap();
        assert_eq!(name(&x), "CopySlices");
        assert_eq!(next_names(&x), vec![Some("MulBackward0".into())]);
        assert_eq!(name(&v), "AsStridedBackward0");
        x.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.0, 1.0, 1.0]);
    }

    // Double backward through CopySlices: d/da of sum(x) after x[1:].exp_()
    // is (1, e^a1, e^a2), and its sum's derivative again (0, e^a1, e^a2).
    fn double_backward_through_copy_slices() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let x = a.mul(&s(1.0)).unwrap();
        x.slice(0, Some(1), None, 1)
            .unwrap()
            .apply_inplace("exp_", Tensor::exp)
            .unwrap();
        let root = [x.sum().unwrap()];
        let g = gradscope_core::autograd::grad(&root, std::slice::from_ref(&a), None, None, true, false)
            .unwrap();
        let g = g[0].clone().unwrap();
        assert_close(&g.to_vec::<f32>(), &[1.0, 2f64.exp(), 3f64.exp()]);
        g.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.0, 2f64.exp(), 3f64.exp()]);
    }

    fn view_of_a_leaf_that_requires_grad() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let err = a.select(0, 0).unwrap().mul_(&s(2.0)).unwrap_err();
        assert!(matches!(err, Error::LeafViewInplace));
        assert_eq!(
            err.to_string(),
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        );
        let err = a.view(&[3]).unwrap().add_(&s(1.0)).unwrap_err();
        assert!(matches!(err, Error::LeafViewInplace));
        assert_eq!(a.version().unwrap(), 0);
        let err = a.add_(&s(1.0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a leaf Variable that requires grad is being used in an in-place operation."
        );
        // Under no_grad the write is allowed, as an optimizer's is.
        let _guard = GradModeGuard::no_grad();
        a.select(0, 0).unwrap().mul_(&s(2.0)).unwrap();
        assert_eq!(a.to_vec::<f32>(), vec![2.0, 2.0, 3.0]);
    }

    fn view_made_under_no_grad() {
        let x = leaf(&[1.0, 2.0, 3.0, 4.0]).mul(&s(1.0)).unwrap();
        let v = {
            let _guard = GradModeGuard::no_grad();
            x.slice(0, Some(0), Some(2), 1).unwrap()
        };
        let err = v.mul_(&s(2.0)).unwrap_err();
        assert!(matches!(err, Error::NoGradViewInplace));
        assert!(err.to_string().starts_with("A view was created in no_grad mode and is being modified inplace with grad mode enabled."));
    }

    fn outputs_of_split_and_unbind() {
        let x = leaf(&[1.0, 2.0, 3.0, 4.0]).mul(&s(1.0)).unwrap();
        let pieces = x.split(2, 0).unwrap();
        let err = pieces[0].mul_(&s(2.0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Output 0 of Split is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one."
        );
        let err = pieces[1].mul_(&s(2.0)).unwrap_err();
        assert!(err.to_string().starts_with("Output 1 of Split is a view"), "{err}");
        let rows = x.unbind(0).unwrap();
        let err = rows[2].mul_(&s(2.0)).unwrap_err();
        assert!(err.to_string().starts_with("Output 2 of Unbind is a view"), "{err}");
        assert_eq!(x.version().unwrap(), 0);
    }

    // zero_/fill_ on a non-leaf: a node giving zeros, still requiring grad;
    // under no_grad the history stays.
    fn zero_and_fill_give_zero_gradients() {
        let a = leaf(&[1.0, 2.0, 3.0]);
        let x = a.mul(&s(1.0)).unwrap();
        x.zero_().unwrap();
        assert_eq!((name(&x).as_str(), x.version().unwrap()), ("ZeroBackward0", 1));
        assert_eq!(next_names(&x), vec![Some("MulBackward0".into())]);
        x.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.0, 0.0, 0.0]);
        let a = leaf(&[1.0, 2.0, 3.0]);
        let x = a.mul(&s(1.0)).unwrap();
        x.fill_(2.5).unwrap();
        assert_eq!(name(&x), "FillBackward2");
        x.mul(&x).unwrap().sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.0, 0.0, 0.0]);
        let x = a.mul(&s(1.0)).unwrap();
        let _guard = GradModeGuard::no_grad();
        x.zero_().unwrap();
        assert_eq!(name(&x), "MulBackward0");
    }

    // A detached tensor shares the version counter but not the history.
    fn detached_write_bumps_the_shared_version() {
        let a = leaf(&[1.0, 2.0, 3.0, 4.0]);
        let x = a.mul(&s(1.0)).unwrap();
        x.detach().mul_(&s(2.0)).unwrap();
        assert_eq!((x.version().unwrap(), name(&x).as_str()), (1, "MulBackward0"));
        x.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[1.0, 1.0, 1.0, 1.0]);
    }
}

/// The in-place view op a key of `tests/fixtures/inplace_views.json` names.
fn inplace_view(key: &str, t: &Tensor) -> gradscope_core::Result<Tensor> {
    match key {
        "unsqueeze_(0)" => t.unsqueeze_(0),
        "unsqueeze_(-1)" => t.unsqueeze_(-1),
        "squeeze_()" => t.squeeze_(None, false),
        "squeeze_(1)" => t.squeeze_(Some(&[1]), true),
        "squeeze_((1,))" => t.squeeze_(Some(&[1]), false),
        "t_()" => t.t_(),
        "transpose_(0, 2)" => t.transpose_(0, 2),
        other => panic!("no in-place view {other}"),
    }
}

every_target! {
    // y = a * 2; y.unsqueeze_(0) and kin, from record_inplace_views.py: the
    // new layout, one version, PyTorch's node, the gradient back to `a`,
    // and the refusal on a leaf that requires grad.
    fn inplace_views_match_pytorch() {
        let fixture: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/fixtures/inplace_views.json")).unwrap();
        let cases = fixture["cases"].as_object().unwrap();
        assert_eq!(cases.len(), 7);
        for (key, case) in cases {
            let shape = common::shape(&case["input_shape"]);
            let n: usize = shape.iter().product();
            let values: Vec<f32> = (1..=n).map(|v| v as f32).collect();
            let a = Tensor::from_vec(values, &shape).unwrap().requires_grad_(true);
            let y = a.mul(&s(2.0)).unwrap();
            let before = y.version().unwrap();
            let y = inplace_view(key, &y).unwrap();
            assert_eq!(y.shape(), common::shape(&case["shape"]), "{key}");
            let strides: Vec<isize> = case["strides"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap() as isize)
                .collect();
            assert_eq!(y.layout().strides(), strides, "{key}");
            assert_eq!(y.version().unwrap() - before, case["versions"].as_u64().unwrap(), "{key}");
            assert_eq!(name(&y), case["node"].as_str().unwrap(), "{key}");
            assert_eq!(next_names(&y), vec![Some(case["next"].as_str().unwrap().to_string())], "{key}");
            let w: Vec<f32> = (1..=n).map(|v| v as f32).collect();
            let w = Tensor::from_vec(w, y.shape()).unwrap();
            y.mul(&w).unwrap().sum().unwrap().backward().unwrap();
            assert_close(&grad(&a), &common::floats(&case["grad"]));
            let leaf = Tensor::ones(&shape).requires_grad_(true);
            let err = inplace_view(key, &leaf).unwrap_err();
            assert_eq!(err.to_string(), case["leaf_error"].as_str().unwrap(), "{key}");
        }
    }
}
