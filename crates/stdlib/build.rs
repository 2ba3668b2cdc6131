//! Compiles RustPython 0.6's pure-Python standard library (its `Lib`) to
//! bytecode, once: this script reruns only when that `Lib` (a new
//! rustpython-pylib) or this crate changes, not when the runtime's own
//! Python (crates/python/py) does.
//!
//! It writes two frozen libraries into `OUT_DIR`: `start.bin`, the modules
//! the interpreter needs to start (the import closure of `torch`), which
//! every build includes; and `stdlib-HASH.bin`, everything else, which the
//! native build includes and the page fetches the first time a program
//! imports one of them (the content hash in its name lets browsers cache it
//! for good). `index.rs` lists the second's modules, so that a name that is
//! not there costs no download.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rustpython_compiler::{CompileOpts, Mode, compile};
use rustpython_compiler_core::frozen::{FrozenCodeObject, FrozenLib, FrozenModule};

/// What `import torch` and the prelude import from the standard library
/// (dotted names), measured as the modules in `sys.modules` after start
/// that come from `Lib`; they stay in the worker's wasm, the rest does not.
const START: &[&str] = &[
    "__future__",
    "_collections_abc",
    "_py_warnings",
    "_weakrefset",
    "abc",
    "bisect",
    "collections",
    "contextlib",
    "copy",
    "csv",
    "functools",
    "heapq",
    "io",
    "keyword",
    "numbers",
    "operator",
    "random",
    "reprlib",
    "types",
    "typing",
    "warnings",
    "weakref",
];

/// Parts of `Lib` that are not shipped: they cannot work in a sandbox
/// without processes, network, native libraries or a display, or they are
/// tools around an interpreter install. Importing the blocked ones says why
/// (`py/_gradscope_stdlib.py`); the rest are plainly missing.
const LEFT_OUT: &[&str] = &[
    "__hello__",
    "__phello__",
    "ctypes",
    "ensurepip",
    "idlelib",
    "multiprocessing",
    "pydoc_data",
    "tkinter",
    "turtle",
    "turtledemo",
    "venv",
];

fn main() -> Result<(), String> {
    let lib = PathBuf::from(rustpython_pylib::LIB_PATH);
    println!("cargo:rerun-if-changed={}", lib.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());

    let mut files = Vec::new();
    collect_py(&lib, &lib, &mut files);
    files.sort();
    let compiled = compile_all(&lib, &files)?;

    let mut start = Vec::new();
    let mut rest = Vec::new();
    let mut skipped = Vec::new();
    for (rel, result) in files.iter().zip(compiled) {
        match result {
            Ok((name, module)) if START.contains(&name.as_str()) => start.push((name, module)),
            Ok((name, module)) => rest.push((name, module)),
            Err(_) => skipped.push(module_name(rel).0),
        }
    }
    if let Some(missing) = START
        .iter()
        .find(|name| !start.iter().any(|(n, _)| n == *name))
    {
        return Err(format!(
            "the start module {missing} is not in {}",
            lib.display()
        ));
    }
    rest.sort_by(|a, b| a.0.cmp(&b.0));

    let start_bytes = encode(&start);
    let rest_bytes = encode(&rest);
    let rest_file = format!("stdlib-{:016x}.bin", fnv1a(&rest_bytes));
    write(&out.join("start.bin"), &start_bytes)?;
    write(&out.join("rest.bin"), &rest_bytes)?;

    let mut index = String::new();
    let _ = writeln!(
        index,
        "/// The file name the page fetches [`REST`] by: its content hash."
    );
    let _ = writeln!(index, "pub const REST_FILE: &str = {rest_file:?};");
    let _ = writeln!(
        index,
        "/// Modules in the rest, sorted, each with whether it is a package."
    );
    let _ = writeln!(index, "static REST_MODULES: &[(&str, bool)] = &[");
    for (name, module) in &rest {
        let _ = writeln!(index, "    ({name:?}, {}),", module.package);
    }
    let _ = writeln!(index, "];");
    let _ = writeln!(index, "/// Modules of `Lib` RustPython 0.6 cannot compile.");
    let _ = writeln!(index, "pub const NOT_COMPILED: &[&str] = &{skipped:?};");
    write(&out.join("index.rs"), index.as_bytes())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|err| format!("writing {}: {err}", path.display()))
}

fn encode(modules: &[(String, FrozenModule<Vec<u8>>)]) -> Vec<u8> {
    FrozenLib::encode(modules.iter().map(|(name, m)| {
        (
            name.as_str(),
            FrozenModule {
                code: FrozenCodeObject {
                    bytes: &m.code.bytes[..],
                },
                package: m.package,
            },
        )
    }))
    .bytes
}

/// FNV-1a, 64 bits: enough to tell one build's blob from another's.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every `.py` under `dir` outside [`LEFT_OUT`] and test folders, as paths
/// relative to `lib`.
fn collect_py(lib: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(rel) = path.strip_prefix(lib) else {
            continue;
        };
        let stem = rel.with_extension("");
        let first = stem
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        if LEFT_OUT.contains(&first.as_str()) || file == "test" || file == "tests" {
            continue;
        }
        if path.is_dir() {
            collect_py(lib, &path, files);
        } else if path.extension().is_some_and(|e| e == "py") {
            files.push(rel.to_path_buf());
        }
    }
}

/// The dotted name of a file under `Lib` and whether it is a package
/// (`json/__init__.py` is the package `json`).
fn module_name(rel: &Path) -> (String, bool) {
    let parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let package = parts.last().is_some_and(|p| p == "__init__");
    let name = if package {
        parts[..parts.len() - 1].join(".")
    } else {
        parts.join(".")
    };
    (name, package)
}

type Compiled = Result<(String, FrozenModule<Vec<u8>>), String>;

/// Compiles every file, on every core: a few hundred files.
fn compile_all(lib: &Path, files: &[PathBuf]) -> Result<Vec<Compiled>, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = files.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|rel| freeze(&lib.join(rel), rel))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all = Vec::with_capacity(files.len());
        for handle in handles {
            all.extend(
                handle
                    .join()
                    .map_err(|_| "a compiler thread failed".to_string())?,
            );
        }
        Ok(all)
    })
}

/// Compiles one file to a frozen module; library frames are named
/// `<stdlib NAME>`, which tracebacks hide from learners.
fn freeze(path: &Path, rel: &Path) -> Compiled {
    let source = std::fs::read_to_string(path)
        .map_err(|err| format!("reading {}: {err}", path.display()))?;
    let (name, package) = module_name(rel);
    let filename = format!("<stdlib {name}>");
    let opts = CompileOpts {
        // Docstrings and asserts out: fewer bytes to ship.
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
