//! Negative and huge sizes, steps and options from user code give PyTorch's
//! typed errors (or PyTorch's results), never a panic, a wrapped number or
//! an absurd allocation. Messages and results were printed by PyTorch 2.15
//! (`tests/corpus/bad_sizes.py` runs the same calls through Python).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::ops::nn_conv::Conv2dOptions;
use gradscope_core::{DType, Error, Tensor};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

const HUGE: i64 = 1 << 62;

fn zeros(shape: &[usize]) -> Tensor {
    Tensor::zeros(shape)
}

fn conv(x: &[usize], w: &[usize], options: Conv2dOptions) -> gradscope_core::Result<Tensor> {
    zeros(x).conv2d(&zeros(w), None, &options)
}

every_target! {
    fn factory_negative_dimension_message() {
        let err = Tensor::randn(&[-1], DType::Float32).unwrap_err();
        assert_eq!(err.to_string(), "Trying to create tensor with negative dimension -1: [-1]");
        let err = Tensor::rand(&[2, -3], DType::Float32).unwrap_err();
        assert_eq!(err.to_string(), "Trying to create tensor with negative dimension -3: [2, -3]");
    }

    fn view_huge_size_message() {
        let err = zeros(&[3]).view(&[1 << 40]).unwrap_err();
        assert_eq!(err.to_string(), "shape '[1099511627776]' is invalid for input of size 3");
        let err = zeros(&[3]).reshape(&[-2]).unwrap_err();
        assert_eq!(err.to_string(), "invalid shape dimension -2 at index 0 of shape [-2]");
    }

    fn expand_huge_size() {
        let e = zeros(&[1]).expand_sizes(&[1 << 40]);
        if usize::BITS == 64 {
            // Written through u64: on wasm32 `1usize << 40` does not compile.
            let shape: Vec<u64> = e.unwrap().shape().iter().map(|&d| d as u64).collect();
            assert_eq!(shape, vec![1u64 << 40]);
        } else {
            assert_eq!(e.unwrap_err(), Error::NumelOverflow);
        }
    }

    // x[::2**62] keeps the first row; the stride saturates, not overflows.
    fn slice_huge_step() {
        let x = Tensor::arange(0.0, 12.0, 1.0, DType::Float32).unwrap().view(&[3, 4]).unwrap();
        let s = x.slice(0, None, None, HUGE).unwrap();
        assert_eq!(s.shape(), &[1, 4]);
        assert_eq!(s.to_vec::<f32>(), vec![0.0, 1.0, 2.0, 3.0]);
    }

    fn split_huge_sizes() {
        let pieces = zeros(&[3]).split(1 << 40, 0).unwrap();
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].shape(), &[3]);
        // Sizes whose int64 sum wraps to the dimension's size are refused.
        let err = zeros(&[3]).split_with_sizes(&[i64::MAX, i64::MAX, 5], 0).unwrap_err();
        assert!(matches!(err, Error::SplitSizesSum { .. }), "{err}");
        // chunk of an empty dimension into absurdly many pieces: refused
        // before any list is allocated.
        let err = zeros(&[0]).chunk(i64::MAX, 0).unwrap_err();
        assert!(matches!(err, Error::StorageSizeOverflow { .. }), "{err}");
    }

    fn linspace_and_eye_huge() {
        let err = Tensor::linspace(0.0, 1.0, HUGE, DType::Float32).unwrap_err();
        assert_eq!(err.to_string(), "Storage size calculation overflowed with sizes=[4611686018427387904]");
        let err = Tensor::eye(1 << 40, Some(1 << 40), DType::Float32).unwrap_err();
        assert_eq!(err.to_string(), "numel: integer multiplication overflow");
        let err = Tensor::eye(-1, None, DType::Float32).unwrap_err();
        assert_eq!(err.to_string(), "n must be greater or equal to 0, got -1");
    }

    fn conv2d_huge_options() {
        let x = [1, 1, 3, 3];
        let w = [1, 1, 1, 1];
        let err = conv(&x, &w, Conv2dOptions { padding: [HUGE, 0], ..Conv2dOptions::default() }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Given padding=4611686018427387904 at dimension 0 , expected padding to be at most 4611686018427387903"
        );
        let out = conv(&x, &w, Conv2dOptions { stride: [HUGE, HUGE], ..Conv2dOptions::default() }).unwrap();
        assert_eq!(out.shape(), &[1, 1, 1, 1]);
        let err = conv(&x, &w, Conv2dOptions { groups: HUGE, ..Conv2dOptions::default() }).unwrap_err();
        if usize::BITS == 64 {
            assert_eq!(
                err.to_string(),
                "Given groups=4611686018427387904, expected weight to be at least 4611686018427387904 at dimension 0, but got weight of size [1, 1, 1, 1] instead"
            );
        } else {
            // wasm32's sizes saturate at usize::MAX: still the typed refusal.
            assert!(matches!(err, Error::ConvGroupsWeightSmall { .. }), "{err}");
        }
        let err = conv(&[1, 2, 3, 3], &[3, 1, 1, 1], Conv2dOptions { groups: 2, ..Conv2dOptions::default() }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [[3, 1, 1, 1]] instead"
        );
        let err = conv(&x, &[1, 1, 2, 2], Conv2dOptions { dilation: [i64::MAX, i64::MAX], ..Conv2dOptions::default() }).unwrap_err();
        assert!(matches!(err, Error::ConvKernelSize { .. }), "{err}");
    }
}
