//! Convolution on the GPU (`shaders/conv.wgsl` plus the matmul, scatter and
//! binary kernels) through the core's ops on `webgpu` tensors against the
//! CPU: `conv2d` forward and backward over strides, padding, dilation,
//! groups, with and without bias, on a transposed input, and `im2col` /
//! `col2im` themselves, and `avg_pool2d` (im2col, a sum, col2im); each must
//! run as kernels, with nothing read back.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::assert_close;
use common::engine::{floats, gpu, on_device, open};
use gradscope_core::Tensor;
use gradscope_core::ops::nn_conv::{Conv2dOptions, Window2d};
use gradscope_core::ops::nn_pool::Pool2dOptions;

/// (name, input [n, c, h, w], out channels, kernel, options)
type Case = (&'static str, [usize; 4], usize, [usize; 2], Conv2dOptions);

fn cases() -> Vec<Case> {
    let o = |stride: i64, padding: i64, dilation: i64, groups: i64| Conv2dOptions {
        stride: [stride, stride],
        padding: [padding, padding],
        dilation: [dilation, dilation],
        groups,
    };
    vec![
        ("plain", [2, 3, 6, 5], 4, [3, 3], o(1, 0, 1, 1)),
        ("stride_padding", [1, 2, 7, 7], 3, [3, 2], o(2, 1, 1, 1)),
        ("dilated", [2, 1, 9, 8], 2, [2, 3], o(1, 2, 2, 1)),
        ("groups", [2, 4, 5, 5], 6, [3, 3], o(1, 1, 1, 2)),
        ("depthwise", [1, 3, 6, 6], 3, [3, 3], o(2, 1, 1, 3)),
        ("one_by_one", [3, 5, 4, 4], 2, [1, 1], o(1, 0, 1, 1)),
    ]
}

#[test]
fn conv2d_matches_cpu_forward_and_backward() {
    if !open() {
        return;
    }
    for (name, [n, c, h, w], cout, [kh, kw], options) in cases() {
        let groups = options.groups as usize;
        let x = common::tensor(&[n, c, h, w], 90);
        let weight = common::tensor(&[cout, c / groups, kh, kw], 91);
        let bias = common::tensor(&[cout], 92);
        for with_bias in [true, false] {
            let what = format!("{name} bias={with_bias}");
            let leaf = |t: &Tensor| t.detach().requires_grad_(true);
            let (xc, wc, bc) = (leaf(&x), leaf(&weight), leaf(&bias));
            let (xg, wg, bg) = (leaf(&gpu(&x)), leaf(&gpu(&weight)), leaf(&gpu(&bias)));
            let want = xc.conv2d(&wc, with_bias.then_some(&bc), &options).unwrap();
            let got = on_device(&what, || {
                xg.conv2d(&wg, with_bias.then_some(&bg), &options).unwrap()
            });
            assert_eq!(got.shape(), want.shape(), "{what}");
            assert_close(&what, &floats(&got), &floats(&want), 1e-5, 1e-5);
            let seed = common::tensor(want.shape(), 93);
            want.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
            let loss = got.mul(&gpu(&seed)).unwrap().sum().unwrap();
            on_device(&format!("{what} backward"), || loss.backward().unwrap());
            for (part, g, c) in [("input", &xg, &xc), ("weight", &wg, &wc)] {
                let (g, c) = (floats(&g.grad().unwrap()), floats(&c.grad().unwrap()));
                assert_close(&format!("{what} {part} grad"), &g, &c, 1e-4, 1e-4);
            }
            if with_bias {
                let (g, c) = (floats(&bg.grad().unwrap()), floats(&bc.grad().unwrap()));
                assert_close(&format!("{what} bias grad"), &g, &c, 1e-4, 1e-4);
            }
        }
    }
}

#[test]
fn conv2d_reads_a_transposed_input() {
    if !open() {
        return;
    }
    let x = common::tensor(&[1, 2, 5, 6], 94);
    let weight = common::tensor(&[3, 2, 2, 2], 95);
    let options = Conv2dOptions::default();
    let xt = x.transpose(2, 3).unwrap();
    let want = xt.conv2d(&weight, None, &options).unwrap();
    let got = on_device("transposed input", || {
        gpu(&x)
            .transpose(2, 3)
            .unwrap()
            .conv2d(&gpu(&weight), None, &options)
            .unwrap()
    });
    assert_close(
        "transposed input",
        &floats(&got),
        &floats(&want),
        1e-5,
        1e-5,
    );
}

#[test]
fn im2col_and_col2im_match_cpu_exactly() {
    if !open() {
        return;
    }
    let window = Window2d {
        kernel: [2, 3],
        stride: [2, 1],
        padding: [1, 1],
        dilation: [1, 2],
    };
    let x = common::tensor(&[2, 3, 6, 7], 96);
    let want = x.im2col(&window).unwrap();
    let got = on_device("im2col", || gpu(&x).im2col(&window).unwrap());
    assert_eq!(got.shape(), want.shape());
    assert_eq!(floats(&got), floats(&want));
    // col2im sums each element's terms in the CPU's order: equal bit for bit.
    let want_back = want.col2im([6, 7], &window).unwrap();
    let got_back = on_device("col2im", || got.col2im([6, 7], &window).unwrap());
    assert_eq!(got_back.shape(), want_back.shape());
    assert_eq!(floats(&got_back), floats(&want_back));
}

#[test]
fn avg_pool2d_matches_cpu_forward_and_backward() {
    if !open() {
        return;
    }
    let o = |kernel: i64, stride: i64, padding: i64| Pool2dOptions {
        stride: Some([stride, stride]),
        padding: [padding, padding],
        ..Pool2dOptions::new(kernel)
    };
    let cases = [
        ("2x2 stride 2", &[2, 3, 6, 6][..], o(2, 2, 0), true),
        ("3x3 padded", &[1, 2, 7, 5], o(3, 1, 1), true),
        ("3D input", &[3, 5, 5], o(3, 2, 1), true),
        (
            "divisor_override",
            &[2, 2, 5, 5],
            Pool2dOptions {
                divisor_override: Some(5),
                ceil_mode: true,
                ..o(2, 2, 1)
            },
            true,
        ),
        // Each window its own divisor: the host's.
        (
            "count_include_pad=False",
            &[1, 2, 5, 5],
            Pool2dOptions {
                count_include_pad: false,
                ..o(3, 2, 1)
            },
            false,
        ),
        (
            "ceil_mode",
            &[1, 1, 5, 5],
            Pool2dOptions {
                ceil_mode: true,
                ..o(2, 2, 0)
            },
            false,
        ),
    ];
    for (what, shape, options, kernels) in cases {
        let x = common::tensor(shape, 94);
        let (xc, xg) = (
            x.detach().requires_grad_(true),
            gpu(&x).detach().requires_grad_(true),
        );
        let want = xc.avg_pool2d(&options).unwrap();
        let run = || xg.avg_pool2d(&options).unwrap();
        let got = if kernels { on_device(what, run) } else { run() };
        assert_eq!(got.shape(), want.shape(), "{what}");
        assert_close(what, &floats(&got), &floats(&want), 1e-6, 1e-6);
        let seed = common::tensor(want.shape(), 95);
        want.mul(&seed).unwrap().sum().unwrap().backward().unwrap();
        let loss = got.mul(&gpu(&seed)).unwrap().sum().unwrap();
        let backward = || loss.backward().unwrap();
        if kernels {
            on_device(&format!("{what} backward"), backward);
        } else {
            backward();
        }
        let (g, c) = (floats(&xg.grad().unwrap()), floats(&xc.grad().unwrap()));
        assert_close(&format!("{what} grad"), &g, &c, 1e-6, 1e-6);
    }
}
