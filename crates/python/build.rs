//! Compiles the Python the runtime ships under `py/` (our `torch`, `numpy`
//! and `matplotlib` packages, the sandbox's `os`) to bytecode once, at build
//! time, into one frozen library that the binary includes: nothing is
//! parsed at start-up, and nothing is read from a file system. The standard
//! library is compiled by gradscope-stdlib's build script, which does not
//! rerun when a file here changes.

use std::path::{Path, PathBuf};

use rustpython_compiler::{CompileOpts, Mode, compile};
use rustpython_compiler_core::frozen::{FrozenCodeObject, FrozenLib, FrozenModule};

fn main() -> Result<(), String> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let ours = manifest.join("py");
    println!("cargo:rerun-if-changed={}", ours.display());

    let mut modules: Vec<(String, FrozenModule<Vec<u8>>)> = Vec::new();
    let mut files = Vec::new();
    collect_py(&ours, &mut files);
    files.sort();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let rel = path.strip_prefix(&ours).unwrap_or(&path).to_path_buf();
        modules.push(freeze(&path, &rel, "gradscope")?);
    }
    let lib = FrozenLib::encode(modules.iter().map(|(name, m)| {
        (
            name.as_str(),
            FrozenModule {
                code: FrozenCodeObject {
                    bytes: &m.code.bytes[..],
                },
                package: m.package,
            },
        )
    }));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("frozen.bin");
    std::fs::write(&out, &lib.bytes).map_err(|err| format!("writing {}: {err}", out.display()))
}

fn collect_py(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_py(&path, files);
        } else if path.extension().is_some_and(|e| e == "py") {
            files.push(path);
        }
    }
}

/// Compiles one file to a frozen module named after its path
/// (`torch/nn/__init__.py` is the package `torch.nn`).
fn freeze(
    path: &Path,
    rel: &Path,
    origin: &str,
) -> Result<(String, FrozenModule<Vec<u8>>), String> {
    let source = std::fs::read_to_string(path)
        .map_err(|err| format!("reading {}: {err}", path.display()))?;
    let stem = rel.with_extension("");
    let parts: Vec<String> = stem
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let package = parts.last().is_some_and(|p| p == "__init__");
    let name = if package {
        parts[..parts.len() - 1].join(".")
    } else {
        parts.join(".")
    };
    // Tracebacks name library frames `<gradscope torch._tensor>`, which the
    // runtime hides from learners' tracebacks.
    let filename = format!("<{origin} {name}>");
    let opts = CompileOpts {
        // Docstrings and asserts out: fewer bytes in the wasm.
        optimize: 2,
        ..CompileOpts::default()
    };
    let code = compile(&source, Mode::Exec, &filename, opts)
        .map_err(|err| format!("compiling {}: {err}", path.display()))?;
    Ok((
        name,
        FrozenModule {
            code: FrozenCodeObject::encode(&code),
            package,
        },
    ))
}
