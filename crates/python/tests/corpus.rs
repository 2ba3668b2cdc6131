//! Runs every program of `tests/corpus/` through the runtime and compares
//! what it prints with what PyTorch printed (`NAME.out`, recorded by
//! `tests/corpus/record.py`) by the rules of `compare/mod.rs`: token by
//! token, numbers within a small tolerance, object addresses ignored.
//! Programs that raise compare the exception's type and message.
//!
//! `cargo test -p gradscope-python --test corpus [NAME...]` runs all
//! programs, or those whose file names contain a NAME. New programs are
//! picked up from the directory.
//!
//! With `-- --device webgpu` every program runs with the GPU as its
//! default device (as after `torch.set_default_device("webgpu")`), on
//! whatever adapter wgpu opens (lavapipe in CI): whole-program parity of
//! the GPU backend with PyTorch's CPU output.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gradscope_python::{RunOutput, Runtime};

mod compare;
use compare::{compare, self_check};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus")
}

/// What the recorder writes for a run: stdout, then the exception if any.
fn render(out: &RunOutput) -> String {
    let mut text = out.stdout.clone();
    if let Some(err) = &out.error {
        text.push_str(&format!(
            "=== raised {} ===\n{}\n",
            err.type_name, err.message
        ));
    }
    text
}

/// Programs whose PyTorch output the GPU cannot give, each for a reason
/// checked by what it prints instead: they make float64 tensors on the
/// default device, which WebGPU cannot hold, and must be refused with
/// PyTorch's MPS message (as they would be on a Mac's default `mps`).
const GPU_REFUSES_FLOAT64: &[&str] = &[
    "custom_function.py",
    "custom_function_api.py",
    "dtype_promotion.py",
    "dtypes_narrow.py",
    "forward_ad.py",
    "fuzz_found_errors.py",
    "inplace_arith_activations.py",
    "inplace_copy.py",
    "lbfgs.py",
    "legacy_and_keywords.py",
    "linalg_svd.py",
    "manual_seed_shapes.py",
    "nn_error_messages.py",
    "print_tensors.py",
];
const GPU_FLOAT64_MESSAGE: &str = "Cannot convert a WebGPU Tensor to float64 dtype";

/// The files beside the programs that are neither programs, expected
/// outputs nor notes: the data programs open by name (`digits.csv.gz`).
fn data_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file()
                        && !p
                            .extension()
                            .is_some_and(|x| ["py", "out", "txt", "md"].iter().any(|e| x == *e))
                })
                .filter_map(|p| {
                    let name = p.file_name()?.to_string_lossy().into_owned();
                    Some((name, std::fs::read(&p).ok()?))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn main() -> ExitCode {
    self_check();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let on_gpu = args
        .windows(2)
        .any(|w| w[0] == "--device" && w[1] == "webgpu");
    let filters: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with('-') && *a != "webgpu")
        .cloned()
        .collect();
    let dir = corpus_dir();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "py"))
                .filter(|p| p.file_name().is_some_and(|n| n != "record.py"))
                .collect()
        })
        .unwrap_or_default();
    programs.sort();
    if programs.is_empty() {
        eprintln!("no programs in {}", dir.display());
        return ExitCode::FAILURE;
    }
    // One runtime for all of them: it must stay usable after every error.
    let mut runtime = Runtime::new();
    if on_gpu {
        match pollster::block_on(gradscope_wgpu::GpuDevice::new()) {
            Ok(gpu) => {
                println!("corpus on webgpu: {}", gpu.adapter_name());
                gradscope_core::device::set_gpu(std::rc::Rc::new(gpu));
                gradscope_core::device::set_default_device(gradscope_core::Device::WebGpu);
            }
            Err(e) => {
                // A skip would hide a missing driver: CI has lavapipe.
                println!("skipped: no adapter ({e})");
                let required = ["CI", "GRADSCOPE_REQUIRE_GPU"]
                    .iter()
                    .any(|v| std::env::var_os(v).is_some());
                return if required {
                    ExitCode::FAILURE
                } else {
                    ExitCode::SUCCESS
                };
            }
        }
    }
    for (name, bytes) in data_files(&dir) {
        runtime.add_file(&name, bytes);
    }
    let mut failed = vec![];
    let mut ran = 0;
    for program in &programs {
        let name = program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        ran += 1;
        let source = std::fs::read_to_string(program).unwrap_or_default();
        let expected = match std::fs::read_to_string(program.with_extension("out")) {
            Ok(e) => e,
            Err(_) => {
                println!("corpus {name} ... FAILED (no {name}.out: run tests/corpus/record.py)");
                failed.push(name);
                continue;
            }
        };
        let out = runtime.run(&source);
        let actual = render(&out);
        if on_gpu && GPU_REFUSES_FLOAT64.contains(&name.as_str()) {
            if actual.contains(GPU_FLOAT64_MESSAGE) {
                println!("corpus {name} ... ok (float64 refused on the GPU, as PyTorch's MPS)");
            } else {
                println!("corpus {name} ... FAILED (float64 was not refused)\n{actual}");
                failed.push(name);
            }
            continue;
        }
        match compare(&expected, &actual) {
            None => println!("corpus {name} ... ok"),
            Some(diff) => {
                println!(
                    "corpus {name} ... FAILED\n  {diff}\n--- expected\n{expected}--- got\n{actual}--- stderr\n{}",
                    out.stderr
                );
                failed.push(name);
            }
        }
    }
    println!(
        "\ncorpus: {} passed, {} failed",
        ran - failed.len(),
        failed.len()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        println!("failed: {}", failed.join(", "));
        ExitCode::FAILURE
    }
}
