//! What the kernel tests share: the device (or a visible skip), inputs as
//! core tensors and their views, and the float32 comparison.
// Test support: a failed expectation is a test failure, as in a #[test] body.
#![allow(dead_code, clippy::expect_used, clippy::panic, clippy::unwrap_used)]

pub mod engine;

use std::io::Write;

use gradscope_core::cpu::CpuBuffer;
use gradscope_core::{DeviceBackend, DeviceBuffer, Layout, Tensor};
use gradscope_wgpu::GpuDevice;

/// The device, or `None` after printing `skipped: no adapter` when there is
/// no adapter and no GPU is required; with `GRADSCOPE_REQUIRE_GPU` or `CI`
/// set a missing adapter fails the test.
pub fn device() -> Option<GpuDevice> {
    match pollster::block_on(GpuDevice::new()) {
        Ok(dev) => {
            let line = format!("adapter: {} ({})\n", dev.adapter_name(), dev.backend_name());
            // Straight to stderr, past the test harness's capture.
            let _ = std::io::stderr().write_all(line.as_bytes());
            Some(dev)
        }
        Err(e) => {
            let required = std::env::var_os("GRADSCOPE_REQUIRE_GPU").is_some()
                || std::env::var_os("CI").is_some();
            assert!(
                !required,
                "a GPU is required (GRADSCOPE_REQUIRE_GPU or CI) but: {e}"
            );
            let line = format!("skipped: no adapter ({e})\n");
            let _ = std::io::stderr().write_all(line.as_bytes());
            None
        }
    }
}

/// Deterministic values in ±[0.5, 2.5).
pub fn values(len: usize, seed: u32) -> Vec<f32> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let unit = (state >> 8) as f32 / (1u32 << 24) as f32;
            let magnitude = 0.5 + 2.0 * unit;
            if state & 1 == 0 {
                magnitude
            } else {
                -magnitude
            }
        })
        .collect()
}

/// A contiguous float32 tensor of `shape` with [`values`].
pub fn tensor(shape: &[usize], seed: u32) -> Tensor {
    let len = shape.iter().product();
    Tensor::from_vec(values(len, seed), shape).expect("tensor")
}

/// Inputs of every layout kind the kernels must walk, as core tensors
/// (views share the storage they were taken from).
pub fn views(seed: u32) -> Vec<(&'static str, Tensor)> {
    let t = |shape: &[usize], k: u32| tensor(shape, seed.wrapping_mul(31).wrapping_add(k));
    vec![
        ("contiguous", t(&[2, 3, 4], 1)),
        ("transposed", t(&[5, 4], 2).transpose(0, 1).expect("view")),
        (
            "permuted_rank4",
            t(&[2, 3, 4, 5], 3).permute(&[3, 1, 0, 2]).expect("view"),
        ),
        (
            "sliced_steps",
            // x[1:6:2, ::3] of a 7x8: offset and stepped strides.
            t(&[7, 8], 4)
                .slice(0, Some(1), Some(6), 2)
                .and_then(|v| v.slice(1, None, None, 3))
                .expect("view"),
        ),
        (
            "expanded_stride0",
            t(&[3, 1], 5).expand(&[2, 3, 4]).expect("view"),
        ),
        ("size0", t(&[0, 3], 6)),
        (
            "size0_view",
            t(&[4, 3], 7).slice(0, Some(2), Some(2), 1).expect("view"),
        ),
        ("size1_dims", t(&[1, 3, 1, 2], 8)),
        (
            "rank0",
            Tensor::from_vec(vec![1.75f32], &[]).expect("scalar"),
        ),
        (
            "rank6",
            t(&[2, 1, 3, 2, 2, 3], 9)
                .permute(&[5, 0, 3, 1, 4, 2])
                .expect("view"),
        ),
        ("large", t(&[300, 257], 10).transpose(0, 1).expect("view")),
    ]
}

/// The device as the core sees it, so calls reach the trait's methods rather
/// than the inherent ones of the same names.
pub fn be(dev: &GpuDevice) -> &dyn DeviceBackend {
    dev
}

/// The tensor's storage on the device, and the layout that reads it.
pub fn on_gpu(dev: &GpuDevice, t: &Tensor) -> (Box<dyn DeviceBuffer>, Layout) {
    let data = match &*t.storage().data() {
        CpuBuffer::F32(d) => d.clone(),
        other => panic!("float32 storage expected, got {}", other.dtype()),
    };
    let buffer = be(dev).upload(&data).expect("upload");
    (buffer, t.layout().clone())
}

/// A kernel's result, which must exist (`Some`), read back.
pub fn result(dev: &GpuDevice, what: &str, out: gradscope_core::backend::Kernel) -> Vec<f32> {
    let out = out
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .unwrap_or_else(|| panic!("{what}: the backend has no kernel"));
    be(dev)
        .download(&*out)
        .unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// The CPU's kernel for `op` (the one `cpu::binary_map` runs, the same
/// table row as the GPU's WGSL case) on `x` and `y` broadcast together.
pub fn cpu_binary(op: gradscope_core::BinaryOp, x: &Tensor, y: &Tensor) -> Vec<f32> {
    use gradscope_core::cpu::{CpuBuffer, binary_map};
    let shape = gradscope_core::layout::broadcast_shapes(x.shape(), y.shape()).expect("shapes");
    let (xl, yl) = (
        x.layout().broadcast_to(&shape).expect("broadcast"),
        y.layout().broadcast_to(&shape).expect("broadcast"),
    );
    let out = binary_map(op, &x.storage().data(), &xl, &y.storage().data(), &yl).expect("cpu");
    match out {
        CpuBuffer::F32(values) => values,
        other => panic!("the CPU kernel made {}", other.dtype()),
    }
}

/// The relative tolerance of the binary kernel `op` against the CPU:
/// WGSL's `pow` is `exp2(b * log2(a))`, a few ulp from `powf`.
pub fn binary_rtol(op: gradscope_core::BinaryOp) -> f32 {
    if op == gradscope_core::BinaryOp::Pow {
        1e-5
    } else {
        1e-6
    }
}

mod tolerance;
#[allow(unused_imports)] // each test binary uses the part it needs
pub use tolerance::binary_atol;

/// `got` equals `want` elementwise within `atol + rtol * |want|`, with NaN
/// matching NaN and infinities matching exactly.
pub fn assert_close(what: &str, got: &[f32], want: &[f32], rtol: f32, atol: f32) {
    assert_eq!(got.len(), want.len(), "{what}: element count");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = if w.is_nan() {
            g.is_nan()
        } else if w.is_infinite() {
            g == w
        } else if w.is_subnormal() && g == 0.0 {
            // WGSL lets an implementation flush subnormal results to zero,
            // and an NVIDIA H100's Vulkan driver does (1 / f32::MAX -> 0).
            true
        } else {
            (g - w).abs() <= atol + rtol * w.abs()
        };
        assert!(ok, "{what}: element {i} is {g}, expected {w}");
    }
}
