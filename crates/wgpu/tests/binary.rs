//! `GpuDevice::binary` against the CPU reference `cpu::binary_map`: one body,
//! run natively (Vulkan, lavapipe in CI) and in the browser (WebGPU).

use gradscope_core::cpu::{self, CpuBuffer};
use gradscope_core::{BinaryOp, Layout};
use gradscope_wgpu::GpuDevice;

#[cfg(not(target_arch = "wasm32"))]
mod common;
#[cfg(not(target_arch = "wasm32"))]
use common::binary_atol;
// In the browser `common` (the native device helpers) is not built.
#[cfg(target_arch = "wasm32")]
#[path = "common/tolerance.rs"]
mod tolerance;
#[cfg(target_arch = "wasm32")]
use tolerance::binary_atol;

/// Relative tolerance for f32: WGSL allows 2.5 ULP for division (about 3e-7).
const F32_RTOL: f32 = 1e-6;

/// One comparison: two storages and the layouts, already broadcast to one
/// shape, through which the op reads them.
struct Case {
    name: &'static str,
    lhs: Vec<f32>,
    lhs_layout: Layout,
    rhs: Vec<f32>,
    rhs_layout: Layout,
}

/// Deterministic values in ±[0.5, 2.5): no zeros, so division stays finite.
fn values(len: usize, seed: u32) -> Vec<f32> {
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

fn contiguous(shape: &[usize], seed: u32) -> (Vec<f32>, Layout) {
    let layout = Layout::contiguous(shape);
    (values(layout.numel(), seed), layout)
}

fn broadcast(shape: &[usize], to: &[usize], seed: u32) -> Result<(Vec<f32>, Layout), String> {
    let (data, layout) = contiguous(shape, seed);
    let layout = layout.broadcast_to(to).map_err(|e| e.to_string())?;
    Ok((data, layout))
}

fn case(name: &'static str, lhs: (Vec<f32>, Layout), rhs: (Vec<f32>, Layout)) -> Case {
    Case {
        name,
        lhs: lhs.0,
        lhs_layout: lhs.1,
        rhs: rhs.0,
        rhs_layout: rhs.1,
    }
}

/// Contiguous, broadcast, transposed, narrowed, flipped, scalar, size-0 and
/// large layouts; the last is past 65535 workgroups of 64, so it needs the 2-D grid.
fn cases() -> Result<Vec<Case>, String> {
    Ok(vec![
        case(
            "contiguous",
            contiguous(&[2, 3, 4], 1),
            contiguous(&[2, 3, 4], 2),
        ),
        case(
            "broadcast_3x1_4",
            broadcast(&[3, 1], &[3, 4], 3)?,
            broadcast(&[4], &[3, 4], 4)?,
        ),
        case(
            "transposed_lhs",
            (values(20, 5), Layout::new(vec![5, 4], vec![1, 5], 0)),
            contiguous(&[5, 4], 6),
        ),
        case(
            "narrowed_offset",
            // x[:, 2:5] of a 6x7 and y[3:9] of a 10x3.
            (values(42, 7), Layout::new(vec![6, 3], vec![7, 1], 2)),
            (values(30, 8), Layout::new(vec![6, 3], vec![3, 1], 9)),
        ),
        case(
            "flipped_rhs",
            contiguous(&[2, 5], 9),
            (values(10, 10), Layout::new(vec![2, 5], vec![5, -1], 4)),
        ),
        case(
            "scalar_like_1",
            contiguous(&[2, 5], 11),
            broadcast(&[1], &[2, 5], 12)?,
        ),
        case("rank_0", contiguous(&[], 13), contiguous(&[], 14)),
        case(
            "size_0",
            contiguous(&[0, 3], 15),
            broadcast(&[3], &[0, 3], 16)?,
        ),
        case(
            "large",
            contiguous(&[300, 257], 17),
            broadcast(&[257], &[300, 257], 18)?,
        ),
        case(
            "large_2d_grid",
            contiguous(&[2049, 2048], 19),
            contiguous(&[2049, 2048], 20),
        ),
    ])
}

/// The CPU kernel's answer for float32 operands.
fn cpu_reference(
    op: BinaryOp,
    lhs: &[f32],
    lhs_layout: &Layout,
    rhs: &[f32],
    rhs_layout: &Layout,
) -> Result<Vec<f32>, String> {
    let (l, r) = (CpuBuffer::F32(lhs.to_vec()), CpuBuffer::F32(rhs.to_vec()));
    match cpu::binary_map(op, &l, lhs_layout, &r, rhs_layout).map_err(|e| e.to_string())? {
        CpuBuffer::F32(out) => Ok(out),
        other => Err(format!("CPU kernel returned {}", other.dtype())),
    }
}

fn compare(what: &str, got: &[f32], want: &[f32], atol: f32) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        if g != w && (g - w).abs() > F32_RTOL * w.abs() + atol {
            return Err(format!("{what}: element {i} is {g}, expected {w}"));
        }
    }
    Ok(())
}

/// Every op over every case, GPU against CPU; the error names the case and op.
async fn check_binary_against_cpu(dev: &GpuDevice) -> Result<(), String> {
    for case in cases()? {
        let lhs = dev
            .upload(&case.lhs)
            .map_err(|e| format!("{}: {e}", case.name))?;
        let rhs = dev
            .upload(&case.rhs)
            .map_err(|e| format!("{}: {e}", case.name))?;
        for op in BinaryOp::ALL {
            let what = format!("{} {op:?}", case.name);
            let out = dev
                .binary(op, &lhs, &case.lhs_layout, &rhs, &case.rhs_layout)
                .map_err(|e| format!("{what}: {e}"))?;
            let got = dev.read(&out).await.map_err(|e| format!("{what}: {e}"))?;
            let want = cpu_reference(op, &case.lhs, &case.lhs_layout, &case.rhs, &case.rhs_layout)?;
            compare(&what, &got, &want, binary_atol(op))?;
        }
    }
    Ok(())
}

/// Layouts that do not fit their buffers or disagree on shape are errors, not panics.
async fn check_binary_rejects_bad_layouts(dev: &GpuDevice) -> Result<(), String> {
    let a = dev.upload(&values(6, 1)).map_err(|e| e.to_string())?;
    let b = dev.upload(&values(6, 2)).map_err(|e| e.to_string())?;
    let six = Layout::contiguous(&[2, 3]);
    let past_end = Layout::new(vec![2, 3], vec![3, 1], 1);
    let other_shape = Layout::contiguous(&[3, 2]);
    for (name, rhs_layout) in [("past_end", &past_end), ("other_shape", &other_shape)] {
        if dev.binary(BinaryOp::Add, &a, &six, &b, rhs_layout).is_ok() {
            return Err(format!("{name}: accepted"));
        }
    }
    // The device stays usable after refusing.
    let out = dev
        .binary(BinaryOp::Add, &a, &six, &b, &six)
        .map_err(|e| e.to_string())?;
    let got = dev.read(&out).await.map_err(|e| e.to_string())?;
    let want = cpu_reference(BinaryOp::Add, &values(6, 1), &six, &values(6, 2), &six)?;
    compare("after refusal", &got, &want, 0.0)
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::common::device;
    use super::*;

    #[test]
    fn binary_matches_cpu() {
        let Some(dev) = device() else { return };
        assert_eq!(pollster::block_on(check_binary_against_cpu(&dev)), Ok(()));
    }

    #[test]
    fn binary_rejects_bad_layouts() {
        let Some(dev) = device() else { return };
        assert_eq!(
            pollster::block_on(check_binary_rejects_bad_layouts(&dev)),
            Ok(())
        );
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

    use super::*;

    wasm_bindgen_test_configure!(run_in_browser);

    /// The browser runner always enables WebGPU, so a missing adapter fails.
    async fn device() -> Result<GpuDevice, String> {
        let dev = GpuDevice::new().await.map_err(|e| e.to_string())?;
        console_log!("adapter: {} ({})", dev.adapter_name(), dev.backend_name());
        Ok(dev)
    }

    #[wasm_bindgen_test]
    async fn binary_matches_cpu() {
        let result = match device().await {
            Ok(dev) => check_binary_against_cpu(&dev).await,
            Err(e) => Err(e),
        };
        assert_eq!(result, Ok(()));
    }

    #[wasm_bindgen_test]
    async fn binary_rejects_bad_layouts() {
        let result = match device().await {
            Ok(dev) => check_binary_rejects_bad_layouts(&dev).await,
            Err(e) => Err(e),
        };
        assert_eq!(result, Ok(()));
    }
}
