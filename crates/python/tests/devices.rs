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
