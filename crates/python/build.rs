//! Compiles the Python the runtime ships under `py/` (our `torch`, `numpy`
//! and `matplotlib` packages, the sandbox's `os`) to bytecode once, at build
//! time, into one frozen library that the binary includes: nothing is
//! parsed at start-up, and nothing is read from a file system. The standard
//! library is compiled by gradscope-stdlib's build script, which does not
//! rerun when a file here changes.

use std::path::{Path, PathBuf};

#[path = "../stdlib/freeze.rs"]
mod freeze;
use freeze::{encode, freeze};

fn main() -> Result<(), String> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let ours = manifest.join("py");
    println!("cargo:rerun-if-changed={}", ours.display());

    let mut modules = Vec::new();
    let mut files = Vec::new();
    collect_py(&ours, &mut files);
    files.sort();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let rel = path.strip_prefix(&ours).unwrap_or(&path).to_path_buf();
        // Tracebacks name our frames `<gradscope torch._tensor>`, which the
        // runtime hides from learners' tracebacks.
        modules.push(freeze(&path, &rel, "gradscope")?);
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("frozen.bin");
    std::fs::write(&out, encode(&modules))
        .map_err(|err| format!("writing {}: {err}", out.display()))
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
