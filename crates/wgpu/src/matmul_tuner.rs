//! The matmul tuner: on the first product of a size class on an adapter,
//! time the candidate kernels on that product and keep the fastest for the
//! process's (the page's) life, keyed by adapter name and size class.
//!
//! Timing is wall time around a submission and a blocking poll, so it runs
//! natively only; the browser cannot block, and a CPU adapter (lavapipe,
//! SwiftShader) times the host, not a GPU: both keep
//! [`MatmulKernel::for_output`]'s choice by output size, unless a caller
//! asks for tuning explicitly ([`GpuDevice::tune_matmul`]). The candidates
//! are the kernels the adapter's limits allow
//! ([`GpuDevice::matmul_candidates`]); each builds and runs on lavapipe and
//! SwiftShader (`tests/matmul_candidates.rs`).

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use gradscope_core::{Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::matmul::{MatmulDims, MatmulKernel};

/// Products the tuner treats as one: sizes rounded up to powers of two, and
/// whether each operand's inner dimension has unit stride (which decides
/// how its loads coalesce).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SizeClass {
    /// `ceil(log2(batch * m))`.
    pub rows: u32,
    /// `ceil(log2(n))`.
    pub cols: u32,
    /// `ceil(log2(k))`.
    pub depth: u32,
    /// Whether `lhs` has unit stride along k (row-major).
    pub lhs_rows_dense: bool,
    /// Whether `rhs` has unit stride along n (row-major).
    pub rhs_rows_dense: bool,
}

impl SizeClass {
    /// The class of `[batch, m, k] @ [batch, k, n]` over these layouts.
    pub fn of(lhs: &Layout, rhs: &Layout) -> Result<Self> {
        let dims = MatmulDims::of(lhs, rhs)?;
        let log = |x: usize| x.max(1).next_power_of_two().trailing_zeros();
        Ok(SizeClass {
            rows: log(dims.batch.saturating_mul(dims.m)),
            cols: log(dims.n),
            depth: log(dims.k),
            lhs_rows_dense: lhs.strides().get(2) == Some(&1),
            rhs_rows_dense: rhs.strides().get(2) == Some(&1),
        })
    }
}

/// Kernels kept per adapter name and size class.
static TUNED: LazyLock<Mutex<HashMap<(String, SizeClass), MatmulKernel>>> =
    LazyLock::new(Mutex::default);

/// Timed runs per candidate after its warm-up run; the least is kept.
#[cfg(not(target_arch = "wasm32"))]
const TIMED_RUNS: usize = 2;

/// The candidate with the least time, skipping those whose timing failed
/// (a kernel the adapter rejects); `None` when every one failed. Ties keep
/// the earlier candidate.
pub fn pick_fastest(
    candidates: &[MatmulKernel],
    mut time: impl FnMut(MatmulKernel) -> Result<f64>,
) -> Option<MatmulKernel> {
    let mut best: Option<(MatmulKernel, f64)> = None;
    for &kernel in candidates {
        let Ok(seconds) = time(kernel) else { continue };
        if !seconds.is_finite() {
            continue;
        }
        if best.is_none_or(|(_, least)| seconds < least) {
            best = Some((kernel, seconds));
        }
    }
    best.map(|(kernel, _)| kernel)
}

/// What the tuner has chosen so far, sorted: adapter, class, kernel.
pub fn tuned_matmul_kernels() -> Vec<(String, SizeClass, MatmulKernel)> {
    let tuned = TUNED.lock().unwrap_or_else(PoisonError::into_inner);
    let mut all: Vec<_> = tuned
        .iter()
        .map(|((adapter, class), kernel)| (adapter.clone(), *class, *kernel))
        .collect();
    all.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    all
}

impl GpuDevice {
    /// Whether this device's limits (workgroup memory and invocations)
    /// allow `kernel`.
    pub fn fits_matmul(&self, kernel: MatmulKernel) -> bool {
        kernel.fits(&self.device.limits())
    }

    /// The kernels the tuner times on this device: every kernel but the
    /// naive one, where it fits the adapter's limits.
    pub fn matmul_candidates(&self) -> Vec<MatmulKernel> {
        MatmulKernel::every()
            .filter(|k| *k != MatmulKernel::Naive && self.fits_matmul(*k))
            .collect()
    }

    /// Whether [`GpuDevice::matmul`] tunes on its own: natively, on a
    /// GPU (not a CPU adapter such as lavapipe).
    pub fn tunes_matmul(&self) -> bool {
        cfg!(not(target_arch = "wasm32"))
            && self.device.adapter_info().device_type != wgpu::DeviceType::Cpu
    }

    /// The kernel [`GpuDevice::matmul`] uses for these operands: the tuned
    /// one where tuning runs (tuning now on the class's first product),
    /// else [`MatmulKernel::for_output`]'s.
    pub(crate) fn choose_matmul(
        &self,
        dims: MatmulDims,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<MatmulKernel> {
        let fallback = MatmulKernel::for_output(dims.batch, dims.m, dims.n);
        if !self.tunes_matmul() || dims.batch * dims.m * dims.n * dims.k == 0 {
            return Ok(fallback);
        }
        self.tune_matmul(lhs, lhs_layout, rhs, rhs_layout)
    }

    /// The tuned kernel for this product's size class on this adapter:
    /// the cached one, or, on the class's first product, the fastest
    /// candidate timed on these operands (natively; in the browser, which
    /// cannot block, the choice by output size).
    pub fn tune_matmul(
        &self,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<MatmulKernel> {
        let dims = MatmulDims::of(lhs_layout, rhs_layout)?;
        let key = (
            self.adapter_name().to_owned(),
            SizeClass::of(lhs_layout, rhs_layout)?,
        );
        let cached = TUNED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .copied();
        if let Some(kernel) = cached {
            return Ok(kernel);
        }
        let fallback = MatmulKernel::for_output(dims.batch, dims.m, dims.n);
        #[cfg(target_arch = "wasm32")]
        let chosen = {
            let _ = (lhs, rhs);
            fallback
        };
        #[cfg(not(target_arch = "wasm32"))]
        let chosen = {
            // Work already recorded must not count against the first candidate.
            self.wait()?;
            let time = |kernel: MatmulKernel| -> Result<f64> {
                let run = || -> Result<f64> {
                    let start = std::time::Instant::now();
                    drop(self.launch_matmul(kernel, dims, lhs, lhs_layout, rhs, rhs_layout)?);
                    self.wait()?;
                    Ok(start.elapsed().as_secs_f64())
                };
                run()?; // builds the pipeline
                let mut least = f64::INFINITY;
                for _ in 0..TIMED_RUNS {
                    least = least.min(run()?);
                }
                Ok(least)
            };
            pick_fastest(&self.matmul_candidates(), time).unwrap_or(fallback)
        };
        TUNED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, chosen);
        Ok(chosen)
    }
}
