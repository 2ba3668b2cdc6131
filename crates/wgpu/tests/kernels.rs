//! The backend's kernels through the core's `DeviceBackend` trait, each
//! against gradscope-core's CPU result, over contiguous and strided layouts.
#![cfg(not(target_arch = "wasm32"))]
// Helpers outside #[test] bodies fail the test as the bodies do.
#![allow(clippy::expect_used, clippy::panic, clippy::unreachable)]

mod common;

use common::{
    assert_close, be, binary_atol, binary_rtol, cpu_binary, device, on_gpu, result, values, views,
};
use gradscope_core::cpu::CpuBuffer;
use gradscope_core::cpu::reduce::{Fold, reduce as cpu_reduce_kernel};
use gradscope_core::ops::UnaryOp;
use gradscope_core::{BinaryOp, DeviceBackend, DeviceBuffer, Layout, ReduceKernel, Scalar, Tensor};
use gradscope_wgpu::{GpuBuffer, GpuDevice, MatmulKernel};

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
            let want = cpu_binary(op, &x, &y);
            assert_close(&what, &got, &want, binary_rtol(op), binary_atol(op));
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
        // Their point is the digits of tiny values: relative only.
        UnaryOp::Log1p | UnaryOp::Expm1 => (2e-6, 0.0),
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
        -1e-8,
        1e-3,
        -1e-3,
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
        // Near 1, where logarithms are near 0: a GPU's log builtins are
        // held only to an absolute 2^-21 there (an H100's log2 missed
        // log2(1.0000238) by 0.3%).
        1.000_023_8,
        0.999_97,
        1.001,
        0.95,
        1.09,
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
            let mut want = op.call(x).expect("cpu op").to_vec::<f32>();
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

/// The CPU kernel's fold over `dims` (as flags), as float32.
fn cpu_reduce(op: ReduceKernel, x: &Tensor, dims: &[usize]) -> Vec<f32> {
    let flags: Vec<bool> = (0..x.layout().rank()).map(|d| dims.contains(&d)).collect();
    let fold = match op {
        ReduceKernel::Sum => Fold::Sum,
        ReduceKernel::Max => Fold::Max,
        ReduceKernel::Min => Fold::Min,
        ReduceKernel::Prod => Fold::Prod,
    };
    match cpu_reduce_kernel(&x.storage().data(), x.layout(), &flags, fold).expect("cpu reduce") {
        CpuBuffer::F32(v) => v,
        other => panic!("cpu reduce gave {}", other.dtype()),
    }
}

/// Every subset of a layout's axes, as sorted lists.
fn axis_sets(rank: usize) -> Vec<Vec<usize>> {
    (0..1usize << rank)
        .map(|mask| (0..rank).filter(|d| mask & (1 << d) != 0).collect())
        .collect()
}

/// Compares one fold: sums within float32 rounding of the sum of
/// magnitudes (the GPU adds in a tree, the CPU in f64), products within a
/// few ulps per factor, max and min exactly.
fn check_reduce(dev: &GpuDevice, what: &str, x: &Tensor, op: ReduceKernel, dims: &[usize]) {
    let (xb, xl) = on_gpu(dev, x);
    let got = result(dev, what, be(dev).reduce(op, &*xb, &xl, dims));
    let want = cpu_reduce(op, x, dims);
    let folded: usize = dims.iter().map(|&d| x.shape()[d]).product();
    match op {
        ReduceKernel::Sum => {
            let magnitudes = cpu_reduce(ReduceKernel::Sum, &x.abs().expect("abs"), dims);
            assert_eq!(got.len(), want.len(), "{what}");
            for (i, ((g, w), m)) in got.iter().zip(&want).zip(&magnitudes).enumerate() {
                let ok = if w.is_finite() {
                    (g - w).abs() <= 1e-6 * m
                } else {
                    g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())
                };
                assert!(ok, "{what}: element {i} is {g}, expected {w}");
            }
        }
        ReduceKernel::Prod => assert_close(what, &got, &want, 1e-6 * folded as f32, 0.0),
        ReduceKernel::Max | ReduceKernel::Min => assert_close(what, &got, &want, 0.0, 0.0),
    }
}

#[test]
fn reduce_matches_cpu_over_every_axis_set() {
    let Some(dev) = device() else { return };
    for (name, x) in views(4) {
        // Products of 300 factors leave float32's range; the others fold
        // few enough for products to stay finite.
        let ops: &[ReduceKernel] = if name == "large" {
            &[ReduceKernel::Sum, ReduceKernel::Max, ReduceKernel::Min]
        } else {
            &ReduceKernel::ALL
        };
        for dims in axis_sets(x.layout().rank()) {
            for &op in ops {
                check_reduce(&dev, &format!("{name} {op:?} over {dims:?}"), &x, op, &dims);
            }
        }
    }
}

#[test]
fn reduce_long_folds_and_special_values() {
    let Some(dev) = device() else { return };
    // A long fold through the tree kernel, with many outputs (2-D grid) too.
    let long = common::tensor(&[3, 100_000], 5);
    check_reduce(&dev, "long rows", &long, ReduceKernel::Sum, &[1]);
    check_reduce(&dev, "long rows max", &long, ReduceKernel::Max, &[1]);
    check_reduce(&dev, "all", &long, ReduceKernel::Sum, &[0, 1]);
    // Past 65535 workgroups of the tree kernel: the 2-D grid.
    let many = common::tensor(&[66_000, 65], 6);
    check_reduce(&dev, "many outputs", &many, ReduceKernel::Sum, &[1]);
    check_reduce(&dev, "many outputs min", &many, ReduceKernel::Min, &[1]);
    check_reduce(&dev, "columns", &many, ReduceKernel::Sum, &[0]);

    // NaN wins in max and min (and poisons sum and prod), in short and long folds.
    for len in [5, 1000] {
        let mut data = common::values(2 * len, 9);
        data[3] = f32::NAN;
        data[len + 1] = f32::INFINITY;
        let x = Tensor::from_vec(data, &[2, len]).expect("tensor");
        for op in ReduceKernel::ALL {
            check_reduce(&dev, &format!("nan {len} {op:?}"), &x, op, &[1]);
        }
    }

    // Empty folds give the identity; empty outputs give nothing.
    let empty = Tensor::from_vec(Vec::<f32>::new(), &[3, 0]).expect("tensor");
    let (eb, el) = on_gpu(&dev, &empty);
    for (op, identity) in [
        (ReduceKernel::Sum, 0.0),
        (ReduceKernel::Prod, 1.0),
        (ReduceKernel::Max, f32::NEG_INFINITY),
        (ReduceKernel::Min, f32::INFINITY),
    ] {
        let got = result(&dev, "empty fold", be(&dev).reduce(op, &*eb, &el, &[1]));
        assert_eq!(got, vec![identity; 3], "{op:?}");
        let got = result(&dev, "empty output", be(&dev).reduce(op, &*eb, &el, &[0]));
        assert!(got.is_empty(), "{op:?}");
    }

    // Unsorted or out-of-range axes are errors.
    let (xb, xl) = on_gpu(&dev, &common::tensor(&[2, 3], 1));
    assert!(
        be(&dev)
            .reduce(ReduceKernel::Sum, &*xb, &xl, &[1, 0])
            .is_err()
    );
    assert!(be(&dev).reduce(ReduceKernel::Sum, &*xb, &xl, &[2]).is_err());
}

/// A 3-D `[batch, m, k]` operand of each layout kind the core passes.
fn matmul_operand(kind: &str, batch: usize, rows: usize, cols: usize, seed: u32) -> Tensor {
    let t = |shape: &[usize]| common::tensor(shape, seed);
    match kind {
        "contiguous" => t(&[batch, rows, cols]),
        // Stored [batch, cols, rows] and seen transposed.
        "transposed" => t(&[batch, cols, rows]).transpose(1, 2).expect("view"),
        // One matrix repeated over the batch (stride 0).
        "broadcast" => t(&[1, rows, cols])
            .expand(&[batch, rows, cols])
            .expect("view"),
        // Every other row and column of a larger matrix, at an offset.
        "stepped" => t(&[batch, 2 * rows + 1, 2 * cols + 1])
            .slice(1, Some(1), None, 2)
            .and_then(|v| v.slice(2, Some(1), None, 2))
            .expect("view"),
        other => panic!("unknown operand kind {other}"),
    }
}

fn check_matmul(dev: &GpuDevice, kernel: MatmulKernel, what: &str, a: &Tensor, b: &Tensor) {
    let (ab, al) = on_gpu(dev, a);
    let (bb, bl) = on_gpu(dev, b);
    let (ga, gb) = (
        ab.as_any().downcast_ref::<GpuBuffer>().expect("gpu buffer"),
        bb.as_any().downcast_ref::<GpuBuffer>().expect("gpu buffer"),
    );
    let out = dev
        .matmul_with(kernel, ga, &al, gb, &bl)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let got = pollster::block_on(dev.read(&out)).expect("read");
    let want = a.bmm(b).expect("cpu bmm").to_vec::<f32>();
    // Each output sums k products of magnitudes below 2.5 * 2.5: float32
    // rounding in any order stays within k * 6.25 * a few ulps.
    let k = a.shape()[2] as f32;
    assert_close(what, &got, &want, 1e-5, 6.25 * k * 4e-7);
}

#[test]
fn matmul_matches_cpu_for_every_kernel_and_layout() {
    let Some(dev) = device() else { return };
    let shapes = [
        (1, 1, 1, 1),
        (2, 3, 5, 4),
        (3, 17, 33, 19),
        (2, 64, 16, 64),
        (1, 70, 130, 65),
        (2, 0, 4, 3),
        (1, 4, 0, 3),
        (0, 2, 2, 2),
    ];
    let kinds = ["contiguous", "transposed", "broadcast", "stepped"];
    for kernel in MatmulKernel::ALL {
        for &(batch, m, k, n) in &shapes {
            for (i, ka) in kinds.iter().enumerate() {
                let kb = kinds[(i + 1) % kinds.len()];
                let a = matmul_operand(ka, batch, m, k, 1);
                let b = matmul_operand(kb, batch, k, n, 2);
                let what = format!("{kernel:?} [{batch},{m},{k}] {ka} @ [{batch},{k},{n}] {kb}");
                check_matmul(&dev, kernel, &what, &a, &b);
            }
        }
    }
}

#[test]
fn matmul_through_trait_and_errors() {
    let Some(dev) = device() else { return };
    let a = matmul_operand("transposed", 3, 40, 70, 3);
    let b = matmul_operand("broadcast", 3, 70, 90, 4);
    let (ab, al) = on_gpu(&dev, &a);
    let (bb, bl) = on_gpu(&dev, &b);
    let got = result(&dev, "trait matmul", be(&dev).matmul(&*ab, &al, &*bb, &bl));
    let want = a.bmm(&b).expect("cpu").to_vec::<f32>();
    assert_close("trait matmul", &got, &want, 1e-5, 6.25 * 70.0 * 4e-7);
    // Mismatched inner sizes and 2-D layouts are errors, not panics.
    assert!(be(&dev).matmul(&*ab, &al, &*ab, &al).is_err());
    let flat = Layout::contiguous(&[40, 70]);
    assert!(be(&dev).matmul(&*ab, &flat, &*bb, &bl).is_err());
}

#[test]
fn caching_allocator_reuses_and_empties() {
    let Some(dev) = device() else { return };
    let before = dev.memory_stats();
    let data = values(1000, 1);
    let first = dev.upload(&data).expect("upload");
    assert_eq!(first.label(), "gradscope::buffer::upload");
    let after_first = dev.memory_stats();
    assert_eq!(after_first.cache_misses, before.cache_misses + 1);
    // 4000 bytes are served from the 4096-byte class.
    assert_eq!(first.reserved_bytes(), 4096);
    assert_eq!(after_first.allocated_bytes, before.allocated_bytes + 4096);
    drop(first);
    assert_eq!(dev.memory_stats().allocated_bytes, before.allocated_bytes);
    assert_eq!(
        dev.memory_stats().reserved_bytes,
        after_first.reserved_bytes
    );

    // Same size class: served from the cache, nothing new reserved.
    let second = dev.upload(&values(900, 2)).expect("upload");
    let after_second = dev.memory_stats();
    assert_eq!(after_second.cache_hits, after_first.cache_hits + 1);
    assert_eq!(after_second.reserved_bytes, after_first.reserved_bytes);
    assert_eq!(be(&dev).reserved_bytes(), after_second.reserved_bytes);

    // Kernel outputs are labelled with their kernel.
    let layout = Layout::contiguous(&[900]);
    let out = dev
        .unary(&UnaryOp::Neg, &second, &layout)
        .expect("neg")
        .expect("kernel");
    assert_eq!(out.label(), "gradscope::unary::strided");

    // empty_cache gives back exactly the cached blocks.
    drop(out);
    drop(second);
    let cached = dev.memory_stats();
    let freed = dev.empty_cache();
    let emptied = dev.memory_stats();
    assert!(freed >= 2 * 4096, "freed {freed}");
    assert_eq!(emptied.reserved_bytes, cached.reserved_bytes - freed);
    assert_eq!(emptied.reserved_bytes, emptied.allocated_bytes);
    be(&dev).empty_cache();
}

#[test]
fn reused_blocks_keep_queued_work_correct() {
    let Some(dev) = device() else { return };
    let layout = Layout::contiguous(&[4096]);
    let a = values(4096, 3);
    let x = dev.upload(&a).expect("upload");
    // Queued, not yet submitted: it reads x's block.
    let y = dev
        .unary(&UnaryOp::Neg, &x, &layout)
        .expect("neg")
        .expect("kernel");
    drop(x);
    // Takes x's block from the cache and overwrites it; the copy must land
    // after the kernel above has read the old values.
    let z = dev.upload(&values(4096, 4)).expect("upload");
    let hits = dev.memory_stats().cache_hits;
    assert!(hits > 0);
    let got = pollster::block_on(dev.read(&y)).expect("read");
    let want: Vec<f32> = a.iter().map(|v| -v).collect();
    assert_eq!(got, want);
    assert_eq!(
        pollster::block_on(dev.read(&z)).expect("read"),
        values(4096, 4)
    );
}

#[test]
fn many_dispatches_share_one_submission() {
    let Some(dev) = device() else { return };
    let x = dev.upload(&values(256, 5)).expect("upload");
    let layout = Layout::contiguous(&[256]);
    dev.flush().expect("flush");
    let before = dev.submissions();
    let mut y = dev
        .unary(&UnaryOp::Neg, &x, &layout)
        .expect("neg")
        .expect("kernel");
    for _ in 0..19 {
        y = dev
            .unary(&UnaryOp::Neg, &y, &layout)
            .expect("neg")
            .expect("kernel");
    }
    // Twenty kernels and the readback's copy go in one submission.
    let got = pollster::block_on(dev.read(&y)).expect("read");
    assert_eq!(dev.submissions(), before + 1);
    assert_eq!(got, values(256, 5));
}

#[test]
fn pow_special_values_match_cpu() {
    let Some(dev) = device() else { return };
    let bases = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        -0.5,
        3.0,
        f32::INFINITY,
        -f32::INFINITY,
        f32::NAN,
    ];
    let exponents = [
        0.0f32,
        -0.0,
        1.0,
        2.0,
        3.0,
        -1.0,
        -3.0,
        0.5,
        -0.5,
        2.5,
        1e30,
        f32::INFINITY,
        -f32::INFINITY,
        f32::NAN,
    ];
    let x = Tensor::from_vec(bases.to_vec(), &[bases.len(), 1]).expect("bases");
    let y = Tensor::from_vec(exponents.to_vec(), &[1, exponents.len()]).expect("exponents");
    let shape = [bases.len(), exponents.len()];
    let (xb, xl) = on_gpu(&dev, &x);
    let (yb, yl) = on_gpu(&dev, &y);
    let (xl, yl) = (
        xl.broadcast_to(&shape).expect("x"),
        yl.broadcast_to(&shape).expect("y"),
    );
    let got = result(
        &dev,
        "pow",
        be(&dev).binary(BinaryOp::Pow, &*xb, &xl, &*yb, &yl),
    );
    let want = cpu_binary(BinaryOp::Pow, &x, &y);
    assert_close(
        "pow special values",
        &got,
        &want,
        binary_rtol(BinaryOp::Pow),
        0.0,
    );
    // Signed zeros and infinities keep their sign, as powf's (a NaN's sign
    // means nothing).
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if !w.is_nan() {
            assert_eq!(
                g.is_sign_negative(),
                w.is_sign_negative(),
                "element {i}: {g} vs {w}"
            );
        }
    }
}
