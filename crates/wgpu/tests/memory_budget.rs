//! The memory budget holds on each device by itself, as a GPU's memory is
//! its own: bytes on the GPU count against the GPU's budget only, and an
//! allocation past it fails with PyTorch's out-of-memory error while the
//! CPU, under its own budget, goes on.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use common::engine::{gpu, open};
use gradscope_core::device::Device;
use gradscope_core::ledger;
use gradscope_core::{Error, Tensor};

const KIB: u64 = 1024;

#[test]
fn the_budget_holds_on_each_device() {
    if !open() {
        return;
    }
    let (cpu_base, gpu_base) = (
        ledger::stats_on(Device::Cpu).total,
        ledger::stats_on(Device::WebGpu).total,
    );
    // Room for 1 MiB more on each device.
    let budget = cpu_base.max(gpu_base) + 1024 * KIB;
    ledger::set_memory_budget(Some(budget));
    // 640 KiB on the GPU (its CPU source is dropped at once) ...
    let x = gpu(&common::tensor(&[160 * 1024], 1));
    assert_eq!(ledger::stats_on(Device::WebGpu).total, gpu_base + 640 * KIB);
    // ... leaves the CPU its whole megabyte.
    let on_cpu = Tensor::ones(&[160 * 1024]);
    assert_eq!(ledger::stats_on(Device::Cpu).total, cpu_base + 640 * KIB);
    // Another 640 KiB on the GPU passes the GPU's budget.
    let refused = x.add(&x).unwrap_err();
    // And the CPU's is still its own: a CPU op of the same size is refused
    // too, while a small one on either device goes through.
    let small_gpu = x.narrow(0, 0, 16).and_then(|s| s.mul(&s));
    let cpu_refused = on_cpu.add(&on_cpu).unwrap_err();
    let small_cpu = on_cpu.narrow(0, 0, 16).and_then(|s| s.mul(&s));
    ledger::set_memory_budget(None);

    let Error::OutOfMemory {
        requested,
        allocated,
        budget: said,
    } = refused
    else {
        panic!("expected OutOfMemory, got {refused:?}");
    };
    assert_eq!(
        (requested, allocated, said),
        (640 * KIB, gpu_base + 640 * KIB, budget)
    );
    assert!(
        matches!(cpu_refused, Error::OutOfMemory { allocated, .. } if allocated == cpu_base + 640 * KIB)
    );
    assert!(small_gpu.is_ok() && small_cpu.is_ok());
    // The refused allocations were never counted.
    assert_eq!(
        ledger::stats_on(Device::WebGpu).total,
        gpu_base + 640 * KIB + 64
    );
    drop((x, on_cpu, small_gpu, small_cpu));
}
