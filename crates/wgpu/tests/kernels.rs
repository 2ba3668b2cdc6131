//! The backend's kernels through the core's `DeviceBackend` trait, each
//! against gradscope-core's CPU result, over contiguous and strided layouts.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{assert_close, be, device, on_gpu, result, values, views};
use gradscope_core::{BinaryOp, DeviceBackend, DeviceBuffer, Layout, Tensor};

/// A buffer some other backend made.
#[derive(Debug)]
struct Foreign;

impl DeviceBuffer for Foreign {
    fn len(&self) -> usize {
        4
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[test]
fn upload_download_round_trip() {
    let Some(dev) = device() else { return };
    for len in [0, 1, 5, 1000, 70_000] {
        let data = values(len, len as u32);
        let buffer = DeviceBackend::upload(&dev, &data).expect("upload");
        assert_eq!(buffer.len(), len);
        assert_eq!(
            be(&dev).download(&*buffer).expect("download"),
            data,
            "len {len}"
        );
    }
    assert_eq!(
        DeviceBackend::adapter_name(&dev),
        dev.adapter_name().to_owned()
    );
}

#[test]
fn foreign_buffers_are_errors() {
    let Some(dev) = device() else { return };
    let mine = DeviceBackend::upload(&dev, &[1.0; 4]).expect("upload");
    let layout = Layout::contiguous(&[4]);
    let err = be(&dev)
        .download(&Foreign)
        .expect_err("download of a foreign buffer");
    assert!(
        err.to_string().contains("not made by the wgpu backend"),
        "{err}"
    );
    assert!(be(&dev).copy(&Foreign, &layout).is_err());
    assert!(
        be(&dev)
            .binary(BinaryOp::Add, &*mine, &layout, &Foreign, &layout)
            .is_err()
    );
    // Still usable afterwards.
    assert_eq!(be(&dev).download(&*mine).expect("download"), vec![1.0; 4]);
}

#[test]
fn binary_through_trait_matches_cpu() {
    let Some(dev) = device() else { return };
    for (name, x) in views(1) {
        // The other operand: a contiguous tensor of x's shape, and a
        // broadcast row when x has dimensions.
        let y = common::tensor(x.shape(), 77);
        let (xb, xl) = on_gpu(&dev, &x);
        let (yb, yl) = on_gpu(&dev, &y);
        for op in BinaryOp::ALL {
            let what = format!("{name} {op:?}");
            let got = result(&dev, &what, be(&dev).binary(op, &*xb, &xl, &*yb, &yl));
            let want = match op {
                BinaryOp::Add => x.add(&y),
                BinaryOp::Sub => x.sub(&y),
                BinaryOp::Mul => x.mul(&y),
                BinaryOp::Div => x.div(&y),
            }
            .expect("cpu")
            .to_vec::<f32>();
            assert_close(&what, &got, &want, 1e-6, 0.0);
        }
    }
}

#[test]
fn copy_matches_cpu() {
    let Some(dev) = device() else { return };
    for (name, x) in views(2) {
        let (xb, xl) = on_gpu(&dev, &x);
        let got = result(&dev, name, be(&dev).copy(&*xb, &xl));
        let want = x.contiguous().expect("cpu").to_vec::<f32>();
        // A copy is exact.
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn layouts_past_the_buffer_are_errors() {
    let Some(dev) = device() else { return };
    let x = DeviceBackend::upload(&dev, &values(6, 1)).expect("upload");
    for layout in [
        Layout::new(vec![2, 3], vec![3, 1], 1),
        Layout::new(vec![2, 3], vec![-3, 1], 0),
        Layout::new(vec![7], vec![1], 0),
    ] {
        assert!(be(&dev).copy(&*x, &layout).is_err(), "{layout:?}");
    }
    let _ = Tensor::scalar(0.0);
}
