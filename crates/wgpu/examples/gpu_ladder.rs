//! The GPU suite of `gradscope bench --suite gpu` without the Python
//! runtime, for a machine where only a small binary can travel:
//! `gpu_ladder [SIZES] [STEP_RUNS] [PEAK_GFLOPS] [EXTRA_SHAPES]`, e.g.
//! `gpu_ladder 256,512,1024,2048,4096 20 67000 t128x256_8x8_k16_v4`.
//! Prints the matmul ladder (every kernel, then any extra tile shapes the
//! adapter fits, then the tuner's choice, per size), the tuner's cache, and
//! the mlp and cnn training steps on the GPU beside the CPU.

// The benchmark blocks on the device, which the browser cannot do.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::rc::Rc;

    use gradscope_wgpu::{
        GpuDevice, MatmulKernel, TileShape, matmul_ladder_of, training_steps, tuned_matmul_kernels,
    };

    pub fn main() -> Result<(), Box<dyn std::error::Error>> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let sizes: Vec<usize> = args
            .first()
            .map_or("256,512", String::as_str)
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        let runs: usize = args.get(1).map_or(Ok(10), |s| s.parse())?;
        let peak: Option<f64> = args.get(2).map(|s| s.parse()).transpose()?;
        let gpu = pollster::block_on(GpuDevice::new())?;
        println!("adapter: {} ({})", gpu.adapter_name(), gpu.backend_name());
        let mut kernels: Vec<MatmulKernel> = MatmulKernel::every()
            .filter(|k| gpu.fits_matmul(*k))
            .collect();
        for name in args
            .get(3)
            .map_or("", String::as_str)
            .split(',')
            .filter(|s| !s.is_empty())
        {
            let kernel = TileShape::parse(name).map(MatmulKernel::Register);
            match kernel.filter(|k| gpu.fits_matmul(*k)) {
                Some(kernel) => kernels.push(kernel),
                None => {
                    println!(
                        "skipped {name}: not a consistent tiling, or past this adapter's limits"
                    )
                }
            }
        }
        println!(
            "{:<22}{:>6}{:>6}{:>11}{:>11}{:>8}{:>11}",
            "matmul kernel", "n", "runs", "ms", "GFLOP/s", "peak", "rel diff"
        );
        for p in matmul_ladder_of(&gpu, &sizes, &kernels)? {
            let name = if p.tuned {
                format!("tuned={}", p.kernel)
            } else {
                p.kernel.to_string()
            };
            let of_peak = peak.map_or("-".into(), |peak| {
                format!("{:.1}%", 100.0 * p.gflops / peak)
            });
            println!(
                "{name:<22}{:>6}{:>6}{:>11.4}{:>11.1}{of_peak:>8}{:>11.2e}",
                p.n,
                p.runs,
                p.seconds * 1e3,
                p.gflops,
                p.rel_diff_vs_tiled
            );
        }
        for (adapter, class, kernel) in tuned_matmul_kernels() {
            println!("tuned on {adapter}: {class:?} -> {}", kernel.name());
        }
        for s in training_steps(Rc::new(gpu), runs)? {
            println!(
                "{} step: gpu {:.3} ms (every matmul register_blocked: {:.3} ms), cpu {:.3} ms",
                s.workload,
                s.gpu * 1e3,
                s.gpu_baseline * 1e3,
                s.cpu * 1e3
            );
        }
        Ok(())
    }
}
