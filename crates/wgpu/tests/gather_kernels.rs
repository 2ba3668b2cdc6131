//! The gather kernels (`shaders/gather.wgsl`) through the core's ops on
//! `webgpu` tensors against the CPU: indexing, `gather`, `scatter_add`,
//! `index_add`, `index_put` and `embedding`'s backward, with repeated
//! indices (whose sums must round as the CPU's loop rounds them), on every
//! view recipe; each must run as kernels, with nothing read back.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::engine::{floats, gpu, on_device, open, pair, recipes};
use gradscope_core::Tensor;
use gradscope_core::ops::view_index::TensorIndex;

/// Indices along an axis of `size`, repeats included, for `count` picks.
fn picks(size: usize, count: usize, seed: usize) -> Vec<i64> {
    (0..count).map(|i| ((i * 7 + seed) % size) as i64).collect()
}

#[test]
fn gather_and_scatter_add_match_cpu_on_every_layout() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 80);
        let shape = x.shape().to_vec();
        if shape.is_empty() || shape.contains(&0) {
            continue;
        }
        for dim in 0..shape.len() {
            // An index as large as x along every axis but `dim`, which
            // picks each position three times over.
            let mut index_shape = shape.clone();
            index_shape[dim] = shape[dim] * 3;
            let len: usize = index_shape.iter().product();
            let index = Tensor::from_vec(picks(shape[dim], len, dim), &index_shape).unwrap();
            let what = format!("{} gather dim {dim}", recipe.0);
            let want = x.gather(dim as i64, &index).unwrap();
            let got = on_device(&what, || xg.gather(dim as i64, &index).unwrap());
            assert_eq!(floats(&got), floats(&want), "{what}");

            let what = format!("{} scatter_add dim {dim}", recipe.0);
            let src = common::tensor(&index_shape, 81);
            let want = x.scatter_add(dim as i64, &index, &src).unwrap();
            let got = on_device(&what, || {
                xg.scatter_add(dim as i64, &index, &gpu(&src)).unwrap()
            });
            assert_eq!(floats(&got), floats(&want), "{what}");
        }
    }
}

#[test]
fn index_add_and_index_put_match_cpu() {
    if !open() {
        return;
    }
    for recipe in recipes() {
        let (x, xg) = pair(&recipe, 82);
        let shape = x.shape().to_vec();
        if shape.is_empty() || shape.contains(&0) {
            continue;
        }
        for dim in 0..shape.len() {
            let index = picks(shape[dim], 2 * shape[dim] + 1, dim);
            let count = index.len();
            let index = Tensor::from_vec(index, &[count]).unwrap();
            let mut source_shape = shape.clone();
            source_shape[dim] = count;
            let source = common::tensor(&source_shape, 83);
            let what = format!("{} index_add dim {dim}", recipe.0);
            let want = x.index_add(dim as i64, &index, &source).unwrap();
            let got = on_device(&what, || {
                xg.index_add(dim as i64, &index, &gpu(&source)).unwrap()
            });
            assert_eq!(floats(&got), floats(&want), "{what}");
        }
        // x[index] += values along the first axis, and plain x[index] = values.
        let index = picks(shape[0], shape[0] + 2, 1);
        let count = index.len();
        let index = Tensor::from_vec(index, &[count]).unwrap();
        let mut values_shape = shape.clone();
        values_shape[0] = count;
        let values = common::tensor(&values_shape, 84);
        for accumulate in [true, false] {
            let what = format!("{} index_put accumulate={accumulate}", recipe.0);
            let want = x
                .index_put(&[Some(index.clone())], &values, accumulate)
                .unwrap();
            let got = on_device(&what, || {
                xg.index_put(&[Some(index.clone())], &gpu(&values), accumulate)
                    .unwrap()
            });
            assert_eq!(floats(&got), floats(&want), "{what}");
        }
        let what = format!("{} x[index]", recipe.0);
        let want = x.index(&[TensorIndex::Tensor(index.clone())]).unwrap();
        let got = on_device(&what, || {
            xg.index(&[TensorIndex::Tensor(index.clone())]).unwrap()
        });
        assert_eq!(floats(&got), floats(&want), "{what}");
    }
}

#[test]
fn embedding_backward_adds_repeated_rows_on_the_device() {
    if !open() {
        return;
    }
    let weight = common::tensor(&[7, 5], 85);
    let indices = Tensor::from_vec(vec![6i64, 0, 3, 3, 1, 6, 6, 6], &[2, 4]).unwrap();
    let w = weight.detach().requires_grad_(true);
    let wg = gpu(&weight).requires_grad_(true);
    let seed = common::tensor(&[2, 4, 5], 86);
    let want = Tensor::embedding(&indices, &w, None).unwrap();
    want.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
    let got = Tensor::embedding(&indices, &wg, None).unwrap();
    let loss = got.mul(&gpu(&seed)).unwrap().sum().unwrap();
    on_device("embedding backward", || loss.backward().unwrap());
    assert_eq!(floats(&wg.grad().unwrap()), floats(&w.grad().unwrap()));
}

#[test]
fn gather_out_of_range_keeps_pytorch_errors() {
    if !open() {
        return;
    }
    let x = common::tensor(&[3, 4], 87);
    let bad = Tensor::from_vec(vec![0i64, 4, 1], &[3, 1]).unwrap();
    let want = x.gather(1, &bad).unwrap_err().to_string();
    let got = gpu(&x).gather(1, &bad).unwrap_err().to_string();
    assert_eq!(got, want);
    let want = x.scatter_add(1, &bad, &x).unwrap_err().to_string();
    let got = gpu(&x)
        .scatter_add(1, &bad, &gpu(&x))
        .unwrap_err()
        .to_string();
    assert_eq!(got, want);
}
