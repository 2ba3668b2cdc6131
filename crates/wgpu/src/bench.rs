//! The GPU benchmark's matmul ladder, for `gradscope bench --suite gpu`:
//! each kernel on square float32 products, timed natively on the device.

use std::time::{Duration, Instant};

use gradscope_core::{Layout, Result};

use crate::device::GpuDevice;
use crate::matmul::MatmulKernel;

/// One rung of the ladder: a kernel at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderPoint {
    /// The kernel's name (`naive`, `tiled`, `register_blocked`).
    pub kernel: &'static str,
    /// The product is `n x n` by `n x n`.
    pub n: usize,
    /// Products timed after the warm-up.
    pub runs: u32,
    /// Mean seconds per product, from the first dispatch to the device idle.
    pub seconds: f64,
    /// `2 n^3` floating-point operations per second, in billions.
    pub gflops: f64,
}

/// Time spent per rung, after the warm-up: enough runs to average out the
/// submission, at most [`MAX_RUNS`].
const TARGET: Duration = Duration::from_millis(500);
const MAX_RUNS: u32 = 20;

/// Every [`MatmulKernel`] at each size in `sizes`, in ladder order.
///
/// Each rung runs once to build its pipeline and warm the device, then
/// `runs` products are recorded in one batch and timed until the device is
/// idle.
pub fn matmul_ladder(device: &GpuDevice, sizes: &[usize]) -> Result<Vec<LadderPoint>> {
    let mut points = Vec::new();
    for &n in sizes {
        let data: Vec<f32> = (0..n * n).map(|i| ((i % 7) as f32 - 3.0) * 0.25).collect();
        let a = device.upload(&data)?;
        let b = device.upload(&data)?;
        let layout = Layout::contiguous(&[1, n, n]);
        for kernel in MatmulKernel::ALL {
            let once = || device.matmul_with(kernel, &a, &layout, &b, &layout);
            drop(once()?);
            device.wait()?;
            let start = Instant::now();
            drop(once()?);
            device.wait()?;
            let first = start.elapsed();
            let runs = (TARGET.as_secs_f64() / first.as_secs_f64().max(1e-9))
                .clamp(1.0, f64::from(MAX_RUNS)) as u32;
            let start = Instant::now();
            for _ in 0..runs {
                drop(once()?);
            }
            device.wait()?;
            let seconds = start.elapsed().as_secs_f64() / f64::from(runs);
            let flops = 2.0 * (n as f64).powi(3);
            points.push(LadderPoint {
                kernel: kernel.name(),
                n,
                runs,
                seconds,
                gflops: flops / seconds / 1e9,
            });
        }
    }
    Ok(points)
}
