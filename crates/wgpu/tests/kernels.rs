//! The backend's kernels through the core's `DeviceBackend` trait, each
//! against gradscope-core's CPU result, over contiguous and strided layouts.
#![cfg(not(target_arch = "wasm32"))]
// Helpers outside #[test] bodies fail the test as the bodies do.
#![allow(clippy::expect_used, clippy::panic, clippy::unreachable)]

mod common;

use common::{assert_close, be, device, on_gpu, result, values, views};
use gradscope_core::ops::UnaryOp;
use gradscope_core::{BinaryOp, DeviceBackend, DeviceBuffer, Layout, Scalar, Tensor};

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

/// PyTorch's op on the CPU through gradscope-core's tensor methods.
fn cpu_unary(op: &UnaryOp, x: &Tensor) -> Tensor {
    match *op {
        UnaryOp::Neg => x.neg(),
        UnaryOp::Exp => x.exp(),
        UnaryOp::Log => x.log(),
        UnaryOp::Sqrt => x.sqrt(),
        UnaryOp::Rsqrt => x.rsqrt(),
        UnaryOp::Abs => x.abs(),
        UnaryOp::Sign => x.sign(),
        UnaryOp::Sin => x.sin(),
        UnaryOp::Cos => x.cos(),
        UnaryOp::Tanh => x.tanh(),
        UnaryOp::Sigmoid => x.sigmoid(),
        UnaryOp::Relu => x.relu(),
        UnaryOp::Gelu(approximate) => x.gelu(approximate),
        UnaryOp::LeakyRelu { negative_slope } => x.leaky_relu(negative_slope),
        UnaryOp::Softplus { beta, threshold } => x.softplus(beta, threshold),
        UnaryOp::Clamp { min, max } => x.clamp(min, max),
        UnaryOp::ClampMin(min) => x.clamp_min(min),
        UnaryOp::ClampMax(max) => x.clamp_max(max),
        UnaryOp::Round => x.round(),
        UnaryOp::Floor => x.floor(),
        UnaryOp::Reciprocal => x.reciprocal(),
        UnaryOp::Erf => x.erf(),
        UnaryOp::ToDtype { .. } => unreachable!("no float32 kernel"),
    }
    .expect("cpu op")
}

/// Every float op, with the attributes of `UnaryOp::ALL` and a few more.
fn unary_ops() -> Vec<UnaryOp> {
    let mut ops: Vec<UnaryOp> = UnaryOp::ALL
        .iter()
        .copied()
        .filter(|op| !matches!(op, UnaryOp::ToDtype { .. }))
        .collect();
    ops.extend([
        UnaryOp::LeakyRelu {
            negative_slope: 0.2,
        },
        UnaryOp::Softplus {
            beta: 2.0,
            threshold: 5.0,
        },
        UnaryOp::Clamp {
            min: None,
            max: Some(Scalar::Int(1)),
        },
        UnaryOp::Clamp {
            min: Some(Scalar::Float(-0.25)),
            max: None,
        },
        UnaryOp::ClampMax(Scalar::Float(-1.5)),
    ]);
    ops
}

/// `(rtol, atol)` for comparing with the CPU: exact ops exactly, the
/// arithmetic ones within an ulp or two, the transcendental ones within what
/// WGSL's builtins promise and the CPU's own float32 roundings allow.
fn unary_tolerance(op: &UnaryOp) -> (f32, f32) {
    match op {
        UnaryOp::Neg
        | UnaryOp::Abs
        | UnaryOp::Sign
        | UnaryOp::Relu
        | UnaryOp::Clamp { .. }
        | UnaryOp::ClampMin(_)
        | UnaryOp::ClampMax(_)
        | UnaryOp::Round
        | UnaryOp::Floor
        | UnaryOp::LeakyRelu { .. } => (0.0, 0.0),
        UnaryOp::Sqrt | UnaryOp::Rsqrt | UnaryOp::Reciprocal => (3e-7, 0.0),
        // gelu's 1 + erf cancels for negative x: the CPU's float32 rounding
        // of erf (half an ulp of 1) shows as an absolute error.
        UnaryOp::Gelu(_) => (2e-6, 5e-7),
        _ => (2e-6, 1e-7),
    }
}

/// Values where kernels differ if they get special cases wrong, then a dense
/// sweep over [-12, 12] for the approximations (erf, tanh, softplus).
fn special_values() -> Vec<f32> {
    let mut v = vec![
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        1e-30,
        -1e-30,
        1e-8,
        0.5,
        1.5,
        2.5,
        -0.5,
        -2.5,
        3.5,
        20.0,
        30.0,
        88.0,
        89.0,
        -89.0,
        -100.0,
        100.0,
        3.9,
        4.5,
        -4.5,
        10.5,
        f32::MAX,
        f32::MIN_POSITIVE,
    ];
    v.extend((0..=4800).map(|i| -12.0 + i as f32 * 0.005));
    v
}

#[test]
fn unary_matches_cpu() {
    let Some(dev) = device() else { return };
    let special = Tensor::from_vec(special_values(), &[special_values().len()]).expect("tensor");
    let mut inputs = views(3);
    inputs.push(("special", special));
    for (name, x) in &inputs {
        let (xb, xl) = on_gpu(&dev, x);
        for op in unary_ops() {
            let what = format!("{name} {op:?}");
            let got = result(&dev, &what, be(&dev).unary(&op, &*xb, &xl));
            let mut want = cpu_unary(&op, x).to_vec::<f32>();
            let mut got = got;
            if matches!(op, UnaryOp::Sin | UnaryOp::Cos) {
                // The documented limit of shaders/unary.wgsl: past |x| = 8192
                // sin and cos are the implementation's builtins, unchecked.
                let inputs = x.contiguous().expect("cpu").to_vec::<f32>();
                let keep: Vec<bool> = inputs
                    .iter()
                    .map(|v| v.abs() <= 8192.0 || v.is_nan())
                    .collect();
                let filter = |v: Vec<f32>| {
                    v.into_iter()
                        .zip(&keep)
                        .filter(|(_, k)| **k)
                        .map(|(v, _)| v)
                        .collect::<Vec<f32>>()
                };
                (got, want) = (filter(got), filter(want));
            }
            let (rtol, atol) = unary_tolerance(&op);
            assert_close(&what, &got, &want, rtol, atol);
        }
    }
}

#[test]
fn unary_to_dtype_has_no_kernel() {
    let Some(dev) = device() else { return };
    let x = be(&dev).upload(&[1.0, 2.0]).expect("upload");
    let op = UnaryOp::ToDtype {
        from: gradscope_core::DType::Float32,
        to: gradscope_core::DType::Float64,
    };
    let out = be(&dev)
        .unary(&op, &*x, &Layout::contiguous(&[2]))
        .expect("no error");
    assert!(out.is_none(), "to(dtype) must fall back to the host");
}
