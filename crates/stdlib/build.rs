//! Compiles RustPython 0.6's pure-Python standard library (its `Lib`) to
//! bytecode, once: this script reruns only when that `Lib` (a new
//! rustpython-pylib) or this crate changes, not when the runtime's own
//! Python (crates/python/py) does.
//!
//! It writes frozen libraries into `OUT_DIR`: `start.bin`, the modules the
//! interpreter needs to start (the import closure of `torch`), which every
//! build includes; and the rest in three files, `rest-0.bin` (what programs
//! commonly import), `rest-1.bin` (everything else) and `rest-2.bin` (our
//! packages around torch under this crate's `py/`: `numpy`, `matplotlib`,
//! `tqdm`), which the native build includes and the page fetches, each the
//! first time a program imports one of its modules, as `stdlib-HASH.bin` or
//! `packages-HASH.bin` (the content hash in the name lets browsers cache it
//! for good; `files.txt` pairs the names). `index.rs` lists their modules,
//! so that a name that is in none costs no download.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rustpython_compiler_core::frozen::FrozenModule;

#[path = "freeze.rs"]
mod freeze;
use freeze::{Compiled, encode, freeze, module_name};

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

/// The modules of the first file the page fetches: what the standard
/// library programs commonly import (`json re dataclasses enum string
/// datetime argparse pickle struct inspect traceback textwrap pprint
/// statistics fractions decimal queue threading unittest zipfile glob timeit
/// ast logging pathlib tempfile shutil`, and `numpy`, `matplotlib.pyplot`,
/// `tqdm`) needs beyond [`START`], measured as the `sys.modules` entries
/// those imports add (crates/python/tests/stdlib.rs checks it still holds):
/// 1.2 MB against 4.7 MB for all of `Lib`. The rest is a second file,
/// fetched only by a program that imports one of its modules.
const COMMON: &[&str] = &[
    "_colorize",
    "_compat_pickle",
    "_opcode_metadata",
    "_pydecimal",
    "annotationlib",
    "argparse",
    "ast",
    "bz2",
    "codeop",
    "compression",
    "compression._common",
    "compression._common._streams",
    "contextvars",
    "dataclasses",
    "datetime",
    "decimal",
    "difflib",
    "dis",
    "encodings",
    "encodings.aliases",
    "enum",
    "fnmatch",
    "fractions",
    "genericpath",
    "gettext",
    "glob",
    "importlib",
    "importlib._abc",
    "importlib.machinery",
    "importlib.util",
    "inspect",
    "json",
    "json.decoder",
    "json.encoder",
    "json.scanner",
    "linecache",
    "locale",
    "logging",
    "lzma",
    "ntpath",
    "opcode",
    "pathlib",
    "pathlib._os",
    "pickle",
    "posixpath",
    "pprint",
    "queue",
    "re",
    "re._casefix",
    "re._compiler",
    "re._constants",
    "re._parser",
    "shutil",
    "signal",
    "stat",
    "statistics",
    "string",
    "struct",
    "tempfile",
    "textwrap",
    "threading",
    "timeit",
    "token",
    "tokenize",
    "traceback",
    "unittest",
    "unittest.case",
    "unittest.loader",
    "unittest.main",
    "unittest.result",
    "unittest.runner",
    "unittest.signals",
    "unittest.suite",
    "unittest.util",
    "zipfile",
    "zipfile._path",
    "zipfile._path.glob",
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
    let ours = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("py");
    println!("cargo:rerun-if-changed={}", ours.display());

    let mut files = Vec::new();
    collect_py(&lib, &lib, &mut files);
    files.sort();
    let compiled = compile_all(&lib, &files, "stdlib")?;
    let mut packages = Vec::new();
    collect_py(&ours, &ours, &mut packages);
    packages.sort();
    for rel in &packages {
        println!("cargo:rerun-if-changed={}", ours.join(rel).display());
    }
    // Our packages' frames are named as the runtime's own (`<gradscope
    // numpy>`), which tracebacks hide as they hide torch's.
    let packages = compile_all(&ours, &packages, "gradscope")?
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;

    let mut start = Vec::new();
    // The files after the start set: [`COMMON`], everything else, our packages.
    let mut files_out: [Vec<(String, FrozenModule<Vec<u8>>)>; 3] =
        [Vec::new(), Vec::new(), packages];
    let mut skipped = Vec::new();
    for (rel, result) in files.iter().zip(compiled) {
        match result {
            Ok((name, module)) if START.contains(&name.as_str()) => start.push((name, module)),
            Ok((name, module)) => {
                let file = usize::from(!COMMON.contains(&name.as_str()));
                files_out[file].push((name, module));
            }
            Err(_) => skipped.push(module_name(rel).0),
        }
    }
    for (list, names) in [("START", START), ("COMMON", COMMON)] {
        let have = |name: &&str| start.iter().chain(&files_out[0]).any(|(n, _)| n == name);
        if let Some(missing) = names.iter().find(|name| !have(name)) {
            return Err(format!(
                "{list} names {missing}, which is not in {}",
                lib.display()
            ));
        }
    }

    write(&out.join("start.bin"), &encode(&start))?;
    let mut index = String::new();
    let mut names = Vec::new();
    let mut rest_files = Vec::new();
    for (file, modules) in files_out.iter().enumerate() {
        let bytes = encode(modules);
        let kind = if file == 2 { "packages" } else { "stdlib" };
        let name = format!("{kind}-{:016x}.bin", fnv1a(&bytes));
        write(&out.join(format!("rest-{file}.bin")), &bytes)?;
        let _ = writeln!(index, "rest-{file}.bin {name}");
        rest_files.push(name);
        names.extend(modules.iter().map(|(n, m)| (n.clone(), m.package, file)));
    }
    // For `cargo xtask build-web`: which blob ships under which name.
    write(&out.join("files.txt"), index.as_bytes())?;
    names.sort();

    let mut index = String::new();
    let _ = writeln!(
        index,
        "/// The file names the page fetches [`REST`]'s files by: each names its content."
    );
    let _ = writeln!(index, "pub const REST_FILES: [&str; 3] = {rest_files:?};");
    let _ = writeln!(
        index,
        "/// Modules of the rest, sorted: name, whether a package, which file."
    );
    let _ = writeln!(index, "static REST_MODULES: &[(&str, bool, u8)] = &[");
    for (name, package, file) in &names {
        let _ = writeln!(index, "    ({name:?}, {package}, {file}),");
    }
    let _ = writeln!(index, "];");
    let _ = writeln!(index, "/// Modules of `Lib` RustPython 0.6 cannot compile.");
    let _ = writeln!(index, "pub const NOT_COMPILED: &[&str] = &{skipped:?};");
    write(&out.join("index.rs"), index.as_bytes())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|err| format!("writing {}: {err}", path.display()))
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

/// Compiles every file, on every core: a few hundred files.
fn compile_all(lib: &Path, files: &[PathBuf], origin: &str) -> Result<Vec<Compiled>, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = files.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|rel| freeze(&lib.join(rel), rel, origin))
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
