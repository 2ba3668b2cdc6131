//! `matmul_bias` (what `linear` runs on the GPU) against the CPU's `linear`:
//! a bias row repeated over the rows, transposed weights, empty products.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{assert_close, be, device, on_gpu, result, tensor};
use gradscope_core::Layout;

#[test]
fn linear_with_bias_matches_the_cpu() {
    let Some(dev) = device() else { return };
    for &(rows, k, n) in &[(1, 1, 1), (4, 3, 5), (64, 32, 128), (0, 3, 2), (3, 0, 2)] {
        let x = tensor(&[rows, k], 1);
        let w = tensor(&[n, k], 2);
        let bias = tensor(&[n], 3);
        let want = x
            .linear(&w, Some(&bias))
            .expect("cpu linear")
            .to_vec::<f32>();
        let (xb, xl) = on_gpu(&dev, &x);
        let (wb, wl) = on_gpu(&dev, &w);
        let (bb, bl) = on_gpu(&dev, &bias);
        // linear reads x as [1, rows, k], w transposed as [1, k, n] and the
        // bias as one row repeated: [1, rows, n] with strides [0, 0, 1].
        let as_3d = |l: &Layout, shape: [usize; 3], strides: [isize; 3]| {
            Layout::new(shape.to_vec(), strides.to_vec(), l.offset())
        };
        let xs = xl.strides();
        let ws = wl.strides();
        let a3 = as_3d(&xl, [1, rows, k], [0, xs[0], xs[1]]);
        let b3 = as_3d(&wl, [1, k, n], [0, ws[1], ws[0]]);
        let c3 = as_3d(&bl, [1, rows, n], [0, 0, bl.strides()[0]]);
        let what = format!("linear [{rows},{k}] x [{n},{k}] + [{n}]");
        let got = result(
            &dev,
            &what,
            be(&dev).matmul_bias(&*xb, &a3, &*wb, &b3, &*bb, &c3),
        );
        assert_close(&what, &got, &want, 1e-5, 1e-4);
    }
}
