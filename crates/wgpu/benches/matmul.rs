//! `cargo bench -p gradscope-wgpu --bench matmul [-- SIZES...]`: the matmul
//! ladder in GFLOP/s (default sizes 256 and 512; lavapipe is too slow past them).

use gradscope_wgpu::{GpuDevice, matmul_ladder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let sizes = if sizes.is_empty() {
        vec![256, 512]
    } else {
        sizes
    };
    let device = pollster::block_on(GpuDevice::new())?;
    println!(
        "adapter: {} ({})",
        device.adapter_name(),
        device.backend_name()
    );
    println!(
        "{:<18} {:>6} {:>6} {:>12} {:>10}",
        "kernel", "n", "runs", "ms", "GFLOP/s"
    );
    for p in matmul_ladder(&device, &sizes)? {
        println!(
            "{:<18} {:>6} {:>6} {:>12.3} {:>10.2}",
            p.kernel,
            p.n,
            p.runs,
            p.seconds * 1e3,
            p.gflops
        );
    }
    Ok(())
}
