//! The scatter kernel (`copy_scatter` in shaders/copy.wgsl) through the
//! core's ops on `webgpu` tensors against the CPU: the backward of `slice`
//! and `select` (a gradient placed into zeros), `cat` and `stack`, on every
//! view recipe; each must run as kernels, with nothing read back.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::engine::{floats, gpu, on_device, open, pair, recipes};
use gradscope_core::Tensor;

/// `sum(x.op() * seed)`'s gradient on the CPU and on the GPU, the GPU's
/// backward checked to stay on the device.
fn grads(
    what: &str,
    x: &Tensor,
    xg: &Tensor,
    op: impl Fn(&Tensor) -> Tensor,
) -> (Vec<f32>, Vec<f32>) {
    let x = x.detach().requires_grad_(true);
    let xg = xg.detach().requires_grad_(true);
    let y = op(&x);
    let seed = common::tensor(y.shape(), 70);
    y.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
    let yg = op(&xg);
    let loss = yg.mul(&gpu(&seed)).unwrap().sum().unwrap();
    on_device(what, || loss.backward().unwrap());
    (floats(&xg.grad().unwrap()), floats(&x.grad().unwrap()))
}

#[test]
fn slice_and_select_backward_match_cpu_on_every_layout() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 71);
        for dim in 0..x.shape().len() {
            let size = x.shape()[dim] as i64;
            if size == 0 {
                continue;
            }
            let what = format!("{} slice dim {dim}", recipe.0);
            let (got, want) = grads(&what, &x, &xg, |t| {
                t.slice(dim as i64, Some(size / 3), Some(size), 2).unwrap()
            });
            assert_eq!(got, want, "{what}");
            let what = format!("{} select dim {dim}", recipe.0);
            let (got, want) = grads(&what, &x, &xg, |t| t.select(dim as i64, size - 1).unwrap());
            assert_eq!(got, want, "{what}");
        }
    }
}

#[test]
fn cat_and_stack_match_cpu_on_every_layout() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (a, ag) = pair(&recipe, 72);
        let (b, bg) = pair(&recipe, 73);
        for dim in 0..=a.shape().len() {
            let what = format!("{} stack dim {dim}", recipe.0);
            let want = Tensor::stack(&[&a, &b, &a], dim as i64).unwrap();
            let got = on_device(&what, || {
                Tensor::stack(&[&ag, &bg, &ag], dim as i64).unwrap()
            });
            assert_eq!(got.shape(), want.shape(), "{what}");
            assert_eq!(floats(&got), floats(&want), "{what}");
            if dim == a.shape().len() {
                continue;
            }
            let what = format!("{} cat dim {dim}", recipe.0);
            let want = Tensor::cat(&[&a, &b], dim as i64).unwrap();
            let got = Tensor::cat(&[&ag, &bg], dim as i64).unwrap();
            assert_eq!(got.shape(), want.shape(), "{what}");
            assert_eq!(floats(&got), floats(&want), "{what}");
        }
    }
}

#[test]
fn cat_skips_empty_and_keeps_pytorch_errors() {
    if !open() {
        return;
    }
    let a = common::tensor(&[2, 3], 74);
    let empty = Tensor::from_vec(Vec::<f32>::new(), &[0]).unwrap();
    let want = Tensor::cat(&[&a, &empty, &a], 0).unwrap();
    let got = on_device("cat with an empty 1-D", || {
        Tensor::cat(&[&gpu(&a), &gpu(&empty), &gpu(&a)], 0).unwrap()
    });
    assert_eq!(floats(&got), floats(&want));
    // Mismatched sizes raise PyTorch's message on either device.
    let b = common::tensor(&[2, 4], 75);
    let want = Tensor::cat(&[&a, &b], 0).unwrap_err().to_string();
    let got = Tensor::cat(&[&gpu(&a), &gpu(&b)], 0)
        .unwrap_err()
        .to_string();
    assert_eq!(got, want);
}
