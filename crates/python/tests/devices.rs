//! Devices and their memory figures: `torch.cuda` is honestly absent,
//! `torch.webgpu` mirrors its memory API (zero until the GPU backend lands,
//! the CPU ledger with `device="cpu"`), and `torch.cpu` reports the ledger.

use gradscope_python::Runtime;

fn run(source: &str) -> String {
    let out = Runtime::new().run(source);
    assert!(out.error.is_none(), "{}", out.stderr);
    out.stdout
}

#[test]
fn devices_report_availability_and_cpu_ledger_bytes() {
    let out = run("\
import torch
print(torch.cuda.is_available(), torch.webgpu.is_available(), torch.cpu.is_available())
base = torch.cpu.memory_allocated()
a = torch.ones(256)
print(torch.cpu.memory_allocated() - base, torch.webgpu.memory_allocated('cpu') - base)
print(torch.webgpu.memory_allocated(), torch.webgpu.max_memory_allocated())
b = torch.ones(1024)
del b
print(torch.cpu.max_memory_allocated() - base >= 5120, torch.cpu.memory_allocated() - base)
torch.cpu.reset_peak_memory_stats()
print(torch.cpu.max_memory_allocated() == torch.cpu.memory_allocated())
");
    assert_eq!(out, "False False True\n1024 1024\n0 0\nTrue 1024\nTrue\n");
}

/// With the GPU as the engine's default device (as `gradscope run --device
/// webgpu` and the page set it, without Python), Python reports that
/// default, `Module.to("cpu")` and `.cpu()` move every parameter, and a
/// `with torch.device("meta")` block gives the GPU back, not the CPU.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn modules_move_off_the_engines_default_gpu() {
    match pollster::block_on(gradscope_wgpu::GpuDevice::new()) {
        Ok(gpu) => {
            gradscope_core::device::set_gpu(std::rc::Rc::new(gpu));
            gradscope_core::device::set_default_device(gradscope_core::Device::WebGpu);
        }
        Err(e) => {
            println!("skipped: no adapter ({e})");
            let required = ["CI", "GRADSCOPE_REQUIRE_GPU"]
                .iter()
                .any(|v| std::env::var_os(v).is_some());
            assert!(!required, "no GPU adapter where one is required: {e}");
            return;
        }
    }
    let out = run("\
import torch
print(torch.get_default_device())
m = torch.nn.Linear(3, 2)
print(m.weight.device, m.to(torch.device('cpu')) is m, m.weight.device, m.bias.device)
n = torch.nn.Sequential(torch.nn.Linear(2, 2)).cpu()
print(n[0].weight.device, n(torch.ones(1, 2, device='cpu')).device)
with torch.device('meta'):
    print(torch.empty(2).device)
print(torch.get_default_device(), torch.ones(1).device)
");
    assert_eq!(
        out,
        "webgpu:0\nwebgpu:0 True cpu cpu\ncpu cpu\nmeta\nwebgpu:0 webgpu:0\n"
    );
}
