//! In-place ops PyTorch records under nodes of their own, against PyTorch
//! 2.15: `leaky_relu_` (`LeakyReluBackward1`, which saves its result) and
//! `copy_` (`CopyBackwards`, over the old value and the source). Every
//! expected value, name and message below was printed by real PyTorch (the
//! same programs are in `tests/corpus/inplace_nodes.py`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::{DType, Error, Tensor};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use common::{grad, leaf, name, next_names, s};

fn assert_close(actual: &[f32], expected: &[f64]) {
    common::assert_close_f32(actual, expected);
}

every_target! {
    // x = a * 1; F.leaky_relu_(x, 0.1): LeakyReluBackward1 over MulBackward0.
    fn leaky_relu_in_place_node_and_gradient() {
        let a = leaf(&[-1.0, 2.0, 0.5]);
        let x = a.mul(&s(1.0)).unwrap();
        let y = x.leaky_relu_(0.1).unwrap();
        assert_eq!(y.id(), x.id());
        assert_eq!((name(&x).as_str(), x.version().unwrap()), ("LeakyReluBackward1", 1));
        assert_eq!(next_names(&x), vec![Some("MulBackward0".into())]);
        assert_close(&x.to_vec::<f32>(), &[-0.1, 2.0, 0.5]);
        x.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.1, 1.0, 1.0]);
        // The out-of-place op keeps its own node.
        assert_eq!(name(&a.leaky_relu(0.1).unwrap()), "LeakyReluBackward0");
    }

    // The node saved the tensor it wrote: a later write is caught.
    fn leaky_relu_in_place_catches_a_later_write() {
        let a = leaf(&[-1.0, 2.0, 0.5]);
        let x = a.mul(&s(1.0)).unwrap();
        x.leaky_relu_(0.1).unwrap();
        x.mul_(&s(2.0)).unwrap();
        let err = x.sum().unwrap().backward().unwrap_err();
        assert_eq!(
            err.to_string(),
            "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of LeakyRelu1, is at version 2; expected version 1 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
        );
    }

    // A negative slope runs forward, and backward refuses it.
    fn leaky_relu_in_place_negative_slope() {
        let a = leaf(&[-1.0, 2.0, 0.5]);
        let x = a.mul(&s(1.0)).unwrap();
        x.leaky_relu_(-0.1).unwrap();
        assert_close(&x.to_vec::<f32>(), &[0.1, 2.0, 0.5]);
        let err = x.sum().unwrap().backward().unwrap_err();
        assert_eq!(err, Error::LeakyReluInplaceNegativeSlope);
        assert_eq!(err.python_type(), "RuntimeError");
        assert!(err.to_string().starts_with(
            "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead."
        ));
    }

    // On a view of a non-leaf: CopySlices over MulBackward0, the view
    // AsStridedBackward0; on a leaf and on integers, PyTorch's errors.
    fn leaky_relu_in_place_on_a_view_and_errors() {
        let a = Tensor::from_vec(vec![-1.0f32, 2.0, 0.5, -3.0], &[2, 2])
            .unwrap()
            .requires_grad_(true);
        let b = a.mul(&s(1.0)).unwrap();
        let v = b.select(0, 0).unwrap();
        v.leaky_relu_(0.2).unwrap();
        assert_eq!(name(&b), "CopySlices");
        assert_eq!(next_names(&b), vec![Some("MulBackward0".into())]);
        assert_eq!(name(&v), "AsStridedBackward0");
        b.sum().unwrap().backward().unwrap();
        assert_close(&grad(&a), &[0.2, 1.0, 1.0, 1.0]);

        let leaf = leaf(&[-1.0, 2.0]);
        assert_eq!(leaf.leaky_relu_(0.01).unwrap_err(), Error::LeafInplace);
        let ints = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
        let err = ints.leaky_relu_(0.01).unwrap_err();
        assert_eq!(err.to_string(), "\"leaky_relu_cpu\" not implemented for 'Long'");
        let plain = Tensor::from_vec(vec![-1.0f32, 2.0], &[2]).unwrap();
        plain.leaky_relu_(0.01).unwrap();
        assert!(plain.grad_fn().is_none());
        assert_close(&plain.to_vec::<f32>(), &[-0.01, 2.0]);
    }

    // zeros(2, 3).copy_(b) with b of shape [3]: one CopyBackwards, no
    // ExpandBackward0; b's gradient summed back to its shape.
    fn copy_records_copy_backwards() {
        let a = Tensor::zeros(&[2, 3]);
        let b = leaf(&[1.0, 2.0, 3.0]);
        a.copy_(&b).unwrap();
        assert_eq!(name(&a), "CopyBackwards");
        assert_eq!(next_names(&a), vec![None, Some("AccumulateGrad".into())]);
        a.sum().unwrap().backward().unwrap();
        assert_close(&grad(&b), &[2.0, 2.0, 2.0]);

        // A scalar source gets the sum of every element's gradient.
        let a = Tensor::zeros(&[2, 3]);
        let b = Tensor::from_vec(vec![5.0f32], &[]).unwrap().requires_grad_(true);
        a.copy_(&b).unwrap();
        assert_eq!(next_names(&a), vec![None, Some("AccumulateGrad".into())]);
        a.sum().unwrap().backward().unwrap();
        assert_close(&grad(&b), &[6.0]);
    }

    // The old value's history is the first edge, with a zero gradient; a
    // float64 source gets a float64 gradient.
    fn copy_over_a_history_and_across_dtypes() {
        let p = leaf(&[0.0, 0.0, 0.0]);
        let q = p.mul(&s(1.0)).unwrap();
        let b = leaf(&[1.0, 2.0, 3.0]);
        q.copy_(&b).unwrap();
        assert_eq!(
            next_names(&q),
            vec![Some("MulBackward0".into()), Some("AccumulateGrad".into())]
        );
        q.sum().unwrap().backward().unwrap();
        assert_close(&grad(&p), &[0.0, 0.0, 0.0]);
        assert_close(&grad(&b), &[1.0, 1.0, 1.0]);

        let q = p.mul(&s(1.0)).unwrap();
        q.copy_(&Tensor::zeros(&[3])).unwrap();
        assert_eq!((name(&q).as_str(), q.requires_grad()), ("CopyBackwards", true));
        assert_eq!(next_names(&q), vec![Some("MulBackward0".into()), None]);

        let a = Tensor::zeros(&[3]);
        let b = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3])
            .unwrap()
            .requires_grad_(true);
        a.copy_(&b).unwrap();
        assert_eq!((a.dtype(), name(&a).as_str()), (DType::Float32, "CopyBackwards"));
        a.sum().unwrap().backward().unwrap();
        let g = b.grad().unwrap();
        assert_eq!((g.dtype(), g.to_vec::<f64>()), (DType::Float64, vec![1.0; 3]));
    }

    // base[0].copy_(b): CopySlices whose edges are the base's and b's.
    fn copy_into_a_view() {
        let base = Tensor::zeros(&[2, 3]);
        let b = leaf(&[1.0, 2.0, 3.0]);
        base.select(0, 0).unwrap().copy_(&b).unwrap();
        assert_eq!(name(&base), "CopySlices");
        assert_eq!(next_names(&base), vec![None, Some("AccumulateGrad".into())]);
        base.sum().unwrap().backward().unwrap();
        assert_close(&grad(&b), &[1.0, 1.0, 1.0]);

        let base = Tensor::zeros(&[2, 3]);
        let b = leaf(&[1.0]);
        base.select(0, 1).unwrap().copy_(&b).unwrap();
        assert_eq!(next_names(&base), vec![None, Some("AccumulateGrad".into())]);
        base.sum().unwrap().backward().unwrap();
        assert_close(&grad(&b), &[3.0]);
    }
}
