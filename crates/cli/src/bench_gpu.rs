//! `gradscope bench --suite gpu`: the GPU backend's matmul ladder (each
//! kernel's GFLOP/s, and the fraction of the device's float32 peak when
//! `--peak-gflops` gives it), and the mlp training step on the GPU beside
//! the same step on the CPU, and on the GPU with every matmul
//! register-blocked (before the kernel was chosen by size), measured in
//! one run. On lavapipe (a CPU
//! emulating Vulkan) only the ladder's order means anything.

use std::rc::Rc;

use anyhow::{Context, Result};
use gradscope_core::device::{self, KernelStats, Scope};
use gradscope_core::{Device, DeviceBackend};
use serde_json::{Value, json};

use crate::bench::{Mlp, best_of};

/// Options of the gpu suite.
#[derive(Debug)]
pub struct GpuOptions {
    /// Square matmul sizes for the ladder.
    pub sizes: Vec<usize>,
    /// Timed mlp steps per device.
    pub runs: usize,
    /// The device's float32 peak, for the ladder's fraction of it.
    pub peak_gflops: Option<f64>,
}

fn per_step(before: KernelStats, after: KernelStats, steps: usize) -> Value {
    let steps = steps.max(1) as f64;
    json!({
        "kernels": (after.kernels - before.kernels) as f64 / steps,
        "host_fallbacks": (after.host_fallbacks - before.host_fallbacks) as f64 / steps,
        "downloads": (after.downloads - before.downloads) as f64 / steps,
        "uploads": (after.uploads - before.uploads) as f64 / steps,
    })
}

/// Runs the suite; the report as JSON.
pub fn run(options: &GpuOptions) -> Result<Value> {
    let gpu = pollster::block_on(gradscope_wgpu::GpuDevice::new())
        .context("the gpu suite needs a GPU adapter")?;
    let adapter = gpu.adapter_name().to_string();
    let ladder = gradscope_wgpu::matmul_ladder(&gpu, &options.sizes)?;
    let ladder: Vec<Value> = ladder
        .iter()
        .map(|p| {
            json!({
                "kernel": p.kernel,
                "n": p.n,
                "runs": p.runs,
                "ms": p.seconds * 1e3,
                "gflops": p.gflops,
                "peak_fraction": options.peak_gflops.map(|peak| p.gflops / peak),
            })
        })
        .collect();
    let gpu = Rc::new(gpu);
    device::set_gpu(gpu.clone() as Rc<dyn DeviceBackend>);

    let mut cpu = Mlp::new()?;
    let cpu_s = best_of(options.runs, || cpu.step())?;
    // The step with every matmul register-blocked, as before the kernel
    // was chosen by size, beside the step as it runs now.
    let blocked_s = {
        let _on = Scope::new(Device::WebGpu);
        gpu.fix_matmul_kernel(Some(gradscope_wgpu::MatmulKernel::RegisterBlocked));
        let mut mlp = Mlp::new()?;
        let best = best_of(options.runs, || mlp.step());
        gpu.fix_matmul_kernel(None);
        best?
    };
    let (gpu_s, counts) = {
        let _on = Scope::new(Device::WebGpu);
        let mut mlp = Mlp::new()?;
        let before = device::kernel_stats();
        let best = best_of(options.runs, || mlp.step())?;
        // best_of runs one warm-up step besides the timed ones.
        let mut counts = per_step(before, device::kernel_stats(), options.runs + 1);
        counts["host_fallbacks_by_op"] = json!(
            device::host_fallbacks_by_op()
                .into_iter()
                .map(|(op, n)| (op.to_string(), json!(n)))
                .collect::<serde_json::Map<_, _>>()
        );
        (best, counts)
    };
    Ok(json!({
        "suite": "gpu",
        "adapter": adapter,
        "matmul": ladder,
        "mlp": {
            "webgpu_ms_per_step": gpu_s * 1e3,
            "webgpu_register_blocked_ms_per_step": blocked_s * 1e3,
            "cpu_ms_per_step": cpu_s * 1e3,
            "per_step_on_webgpu": counts,
        },
    }))
}

/// The report as a table.
pub fn print(report: &Value) {
    println!("adapter: {}", report["adapter"].as_str().unwrap_or("?"));
    println!(
        "{:<18}{:>7}{:>12}{:>12}{:>10}",
        "matmul kernel", "n", "ms", "GFLOP/s", "of peak"
    );
    for p in report["matmul"].as_array().into_iter().flatten() {
        let peak = p["peak_fraction"]
            .as_f64()
            .map_or("-".to_string(), |f| format!("{:.1}%", f * 100.0));
        println!(
            "{:<18}{:>7}{:>12.3}{:>12.2}{:>10}",
            p["kernel"].as_str().unwrap_or("?"),
            p["n"],
            p["ms"].as_f64().unwrap_or(f64::NAN),
            p["gflops"].as_f64().unwrap_or(f64::NAN),
            peak
        );
    }
    let mlp = &report["mlp"];
    println!(
        "mlp step: webgpu {:.3} ms (every matmul register-blocked: {:.3} ms), cpu {:.3} ms (same run); per step on webgpu: {}",
        mlp["webgpu_ms_per_step"].as_f64().unwrap_or(f64::NAN),
        mlp["webgpu_register_blocked_ms_per_step"]
            .as_f64()
            .unwrap_or(f64::NAN),
        mlp["cpu_ms_per_step"].as_f64().unwrap_or(f64::NAN),
        mlp["per_step_on_webgpu"]
    );
}
