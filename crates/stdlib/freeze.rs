//! Python source to frozen bytecode, shared by the two build scripts that
//! freeze Python (crates/python's `py/`, and this crate's `Lib` and `py/`):
//! one naming of modules and frames, one set of compile options.

use std::path::Path;

use rustpython_compiler::{CompileOpts, Mode, compile};
use rustpython_compiler_core::frozen::{FrozenCodeObject, FrozenLib, FrozenModule};

/// A module's dotted name and its frozen code, or why it could not be made.
pub type Compiled = Result<(String, FrozenModule<Vec<u8>>), String>;

/// The dotted name of a file relative to its root and whether it is a
/// package (`json/__init__.py` is the package `json`).
pub fn module_name(rel: &Path) -> (String, bool) {
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

/// Compiles one file to a frozen module; its frames are named
/// `<ORIGIN NAME>` (`<gradscope torch._tensor>`, `<stdlib json>`), which
/// tracebacks hide from learners.
pub fn freeze(path: &Path, rel: &Path, origin: &str) -> Compiled {
    let source = std::fs::read_to_string(path)
        .map_err(|err| format!("reading {}: {err}", path.display()))?;
    let (name, package) = module_name(rel);
    let filename = format!("<{origin} {name}>");
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

/// The bytes of a frozen library of `modules`.
pub fn encode(modules: &[(String, FrozenModule<Vec<u8>>)]) -> Vec<u8> {
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
