//! `gradscope bench --suite gpu`: the GPU backend's matmul ladder (every
//! kernel, the baseline three and the register-tiled family, then the
//! tuner's choice, per size: GFLOP/s, the fraction of the device's float32
//! peak when `--peak-gflops` gives it, and the difference from the 16x16
//! kernel's result), the tuner's choices, and the mlp and a small cnn
//! training step on the GPU beside the same steps on the CPU and on the
//! GPU with every matmul the 64x64 register-blocked baseline, measured in
//! one run (`gradscope_wgpu::bench`, which the `gpu_ladder` example shares).
//! On lavapipe (a CPU emulating Vulkan) the figures time the host, not a
//! GPU.

use std::rc::Rc;

use anyhow::{Context, Result};
use serde_json::{Value, json};

/// Options of the gpu suite.
#[derive(Debug)]
pub struct GpuOptions {
    /// Square matmul sizes for the ladder.
    pub sizes: Vec<usize>,
    /// Timed training steps per device.
    pub runs: usize,
    /// The device's float32 peak, for the ladder's fraction of it.
    pub peak_gflops: Option<f64>,
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
                "tuned": p.tuned,
                "n": p.n,
                "runs": p.runs,
                "ms": p.seconds * 1e3,
                "gflops": p.gflops,
                "peak_fraction": options.peak_gflops.map(|peak| p.gflops / peak),
                "rel_diff_vs_tiled": p.rel_diff_vs_tiled,
            })
        })
        .collect();
    let tuned: Vec<Value> = gradscope_wgpu::tuned_matmul_kernels()
        .into_iter()
        .map(|(adapter, class, kernel)| {
            json!({
                "adapter": adapter,
                "class": format!("{class:?}"),
                "kernel": kernel.name(),
            })
        })
        .collect();
    let steps: Vec<Value> = gradscope_wgpu::training_steps(Rc::new(gpu), options.runs)?
        .iter()
        .map(|s| {
            json!({
                "workload": s.workload,
                "webgpu_ms_per_step": s.gpu * 1e3,
                "webgpu_register_blocked_ms_per_step": s.gpu_baseline * 1e3,
                "cpu_ms_per_step": s.cpu * 1e3,
            })
        })
        .collect();
    Ok(json!({
        "suite": "gpu",
        "adapter": adapter,
        "matmul": ladder,
        "tuned": tuned,
        "steps": steps,
    }))
}

/// The report as a table.
pub fn print(report: &Value) {
    println!("adapter: {}", report["adapter"].as_str().unwrap_or("?"));
    println!(
        "{:<26}{:>7}{:>12}{:>12}{:>10}{:>11}",
        "matmul kernel", "n", "ms", "GFLOP/s", "of peak", "rel diff"
    );
    for p in report["matmul"].as_array().into_iter().flatten() {
        let peak = p["peak_fraction"]
            .as_f64()
            .map_or("-".to_string(), |f| format!("{:.1}%", f * 100.0));
        let kernel = p["kernel"].as_str().unwrap_or("?");
        let name = if p["tuned"].as_bool() == Some(true) {
            format!("tuned={kernel}")
        } else {
            kernel.to_string()
        };
        println!(
            "{name:<26}{:>7}{:>12.3}{:>12.2}{peak:>10}{:>11.2e}",
            p["n"],
            p["ms"].as_f64().unwrap_or(f64::NAN),
            p["gflops"].as_f64().unwrap_or(f64::NAN),
            p["rel_diff_vs_tiled"].as_f64().unwrap_or(f64::NAN),
        );
    }
    for t in report["tuned"].as_array().into_iter().flatten() {
        println!(
            "tuned on {}: {} -> {}",
            t["adapter"].as_str().unwrap_or("?"),
            t["class"].as_str().unwrap_or("?"),
            t["kernel"].as_str().unwrap_or("?")
        );
    }
    for s in report["steps"].as_array().into_iter().flatten() {
        println!(
            "{} step: webgpu {:.3} ms (every matmul register-blocked: {:.3} ms), cpu {:.3} ms (same run)",
            s["workload"].as_str().unwrap_or("?"),
            s["webgpu_ms_per_step"].as_f64().unwrap_or(f64::NAN),
            s["webgpu_register_blocked_ms_per_step"]
                .as_f64()
                .unwrap_or(f64::NAN),
            s["cpu_ms_per_step"].as_f64().unwrap_or(f64::NAN),
        );
    }
}
