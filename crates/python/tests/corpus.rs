//! Runs every program of `tests/corpus/` through the runtime and compares
//! what it prints with what PyTorch printed (`NAME.out`, recorded by
//! `tests/corpus/record.py`): token by token, numbers within a small
//! tolerance, object addresses ignored. Programs that raise compare the
//! exception's type and message.
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

/// Numbers match when within this relative tolerance (float32 printing at
/// four decimals already rounds; this absorbs last-digit differences)...
const RELATIVE: f64 = 1e-4;
/// ...or this absolute one.
const ABSOLUTE: f64 = 1e-6;

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

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Number(f64, &'a str),
    Address,
    Newline,
    Text(&'a str),
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c == b'\n' {
            out.push(Token::Newline);
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'0' && bytes.get(i + 1) == Some(&b'x') {
            i += 2;
            while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                i += 1;
            }
            out.push(Token::Address);
        } else if c.is_ascii_digit()
            || (c == b'-' || c == b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
        {
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
                let mut j = i + 1;
                if j < bytes.len() && (bytes[j] == b'-' || bytes[j] == b'+') {
                    j += 1;
                }
                if j < bytes.len() && bytes[j].is_ascii_digit() {
                    i = j;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let s = &text[start..i];
            match s.parse::<f64>() {
                Ok(v) => out.push(Token::Number(v, s)),
                Err(_) => out.push(Token::Text(s)),
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(Token::Text(&text[start..i]));
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            i += len;
            out.push(Token::Text(&text[start..i]));
        }
    }
    out
}

fn same(a: &Token<'_>, b: &Token<'_>) -> bool {
    match (a, b) {
        (Token::Number(x, _), Token::Number(y, _)) => {
            x == y || (x - y).abs() <= ABSOLUTE + RELATIVE * x.abs().max(y.abs())
        }
        _ => a == b,
    }
}

/// `None` when they match; else where they first differ.
fn compare(expected: &str, actual: &str) -> Option<String> {
    let (e, a) = (tokens(expected), tokens(actual));
    let line_of = |toks: &[Token<'_>], i: usize| {
        1 + toks[..i.min(toks.len())]
            .iter()
            .filter(|t| **t == Token::Newline)
            .count()
    };
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if same(x, y) => continue,
            (x, y) => {
                return Some(format!(
                    "first difference at expected line {}: expected {x:?}, got {y:?}",
                    line_of(&e, i)
                ));
            }
        }
    }
    None
}

/// The comparison itself, checked before it judges anything.
fn self_check() {
    assert_eq!(
        compare("<A object at 0x7f00ab>\n", "<A object at 0x55aa>\n"),
        None
    );
    assert_eq!(
        compare("tensor([0.5000, 1.0000])", "tensor([0.50001, 1.0])"),
        None
    );
    assert!(compare("tensor([1., 2.])", "tensor([1., 3.])").is_some());
    assert!(compare("a\nb", "a b").is_some());
    assert!(compare("a", "a b").is_some());
}

/// Programs whose PyTorch output the GPU cannot give, each for a reason
/// checked by what it prints instead: they make float64 tensors on the
/// default device, which WebGPU cannot hold, and must be refused with
/// PyTorch's MPS message (as they would be on a Mac's default `mps`).
const GPU_REFUSES_FLOAT64: &[&str] = &[
    "custom_function.py",
    "dtype_promotion.py",
    "fuzz_found_errors.py",
    "inplace_arith_activations.py",
    "inplace_copy.py",
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
