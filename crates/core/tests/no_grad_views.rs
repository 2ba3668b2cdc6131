//! Views made with grad mode off, against PyTorch 2.15: they require grad
//! when their base does but carry no history, ops on them record nodes
//! whose edges lead nowhere, and in-place writes on them or on views of
//! them are refused with grad mode on. Every expected value below was
//! printed by real PyTorch (`tests/corpus/no_grad_views.py`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::grad_mode::GradModeGuard;
use gradscope_core::{Error, Tensor};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use common::{leaf, next_names as edges};

every_target! {
    // with no_grad: v = x[0:2]: requires grad, a leaf without grad_fn.
    fn no_grad_view_requires_grad_as_its_base() {
        let x = leaf(&[1.0, 2.0, 3.0]);
        let (v, e, parts) = {
            let _guard = GradModeGuard::no_grad();
            let v = x.slice(0, Some(0), Some(2), 1).unwrap();
            assert!(v.requires_grad());
            (v, x.expand(&[2, 3]).unwrap(), x.split(1, 0).unwrap())
        };
        assert!(v.requires_grad() && v.is_leaf() && v.grad_fn().is_none());
        assert!(e.requires_grad());
        assert!(parts.iter().all(|p| p.requires_grad() && p.grad_fn().is_none()));
        let y = x.mul(&Tensor::scalar(1.0)).unwrap();
        let vy = {
            let _guard = GradModeGuard::no_grad();
            y.view(&[3]).unwrap()
        };
        assert!(vy.requires_grad() && vy.grad_fn().is_none());
        // A base that needs no gradient gives none.
        let z = Tensor::ones(&[3]);
        let vz = {
            let _guard = GradModeGuard::no_grad();
            z.slice(0, Some(1), None, 1).unwrap()
        };
        assert!(!vz.requires_grad());
        // detach is no view: it never requires grad.
        let _guard = GradModeGuard::no_grad();
        assert!(!x.detach().requires_grad());
    }

    // v * 2 records MulBackward0 whose edges lead nowhere; backward runs
    // and gives nobody a gradient.
    fn ops_on_a_no_grad_view_lead_nowhere() {
        let x = leaf(&[1.0, 2.0, 3.0]);
        let v = {
            let _guard = GradModeGuard::no_grad();
            x.slice(0, Some(0), Some(2), 1).unwrap()
        };
        let m = v.mul(&Tensor::scalar(2.0)).unwrap();
        assert!(m.requires_grad());
        assert_eq!(m.grad_fn().unwrap().name(), "MulBackward0");
        assert!(edges(&m).iter().all(Option::is_none));
        m.sum().unwrap().backward().unwrap();
        assert!(x.grad().is_none() && v.grad().is_none());
        v.sum().unwrap().backward().unwrap();
        assert!(x.grad().is_none());
    }

    // In place: refused on the view and on a view of it made with grad
    // mode on (named by its node); allowed under no_grad.
    fn in_place_on_no_grad_views() {
        let x = leaf(&[1.0, 2.0, 3.0]);
        let v = {
            let _guard = GradModeGuard::no_grad();
            x.slice(0, Some(0), Some(2), 1).unwrap()
        };
        assert_eq!(v.mul_(&Tensor::scalar(2.0)).unwrap_err(), Error::NoGradViewInplace);
        let v3 = v.slice(0, Some(0), Some(1), 1).unwrap();
        assert_eq!(v3.grad_fn().unwrap().name(), "SliceBackward0");
        assert_eq!(edges(&v3), vec![None]);
        let err = v3.mul_(&Tensor::scalar(2.0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Output 0 of Slice is a view of a view which was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
        );
        let _guard = GradModeGuard::no_grad();
        x.slice(0, Some(1), None, 1).unwrap().mul_(&Tensor::scalar(2.0)).unwrap();
        assert_eq!(x.to_vec::<f32>(), vec![1.0, 4.0, 6.0]);
    }
}
