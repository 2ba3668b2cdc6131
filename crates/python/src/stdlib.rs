//! The standard library beyond what the interpreter starts with: the
//! native half of `py/_gradscope_stdlib.py`'s finder, over
//! `gradscope_stdlib`'s two files of the rest.
//!
//! Natively the files are in the binary. In the browser each is fetched the
//! first time a program imports one of its modules, by the function the
//! embedder gives [`set_stdlib_fetch`]; until then only the list of their
//! modules' names (a few kilobytes) is in the wasm.

use std::sync::OnceLock;

use rustpython_vm::builtins::{PyCode, PyModule};
use rustpython_vm::frozen::FrozenLib;
use rustpython_vm::{AsObject, Py, PyRef, PyResult, VirtualMachine};

/// Fetches the file named by its argument (one of
/// `gradscope_stdlib::REST_FILES`), whole, or says why it could not.
pub type StdlibFetch = fn(&str) -> Result<Vec<u8>, String>;

static FETCH: OnceLock<StdlibFetch> = OnceLock::new();

/// The fetched files, kept for the life of the process (modules are decoded
/// from them on each first import).
#[cfg(target_arch = "wasm32")]
static FETCHED: [OnceLock<&'static [u8]>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// How the runtime gets the standard library's files where they are not in
/// the binary (wasm32: the worker fetches them); natively unused. Only the
/// first call counts.
pub fn set_stdlib_fetch(fetch: StdlibFetch) {
    let _ = FETCH.set(fetch);
}

#[cfg(not(target_arch = "wasm32"))]
fn rest(file: usize) -> Result<&'static [u8], String> {
    let _ = FETCH.get();
    gradscope_stdlib::REST
        .get(file)
        .copied()
        .ok_or_else(|| format!("there is no file {file}"))
}

#[cfg(target_arch = "wasm32")]
fn rest(file: usize) -> Result<&'static [u8], String> {
    let (Some(cell), Some(name)) = (FETCHED.get(file), gradscope_stdlib::REST_FILES.get(file))
    else {
        return Err(format!("there is no file {file}"));
    };
    if let Some(bytes) = cell.get() {
        return Ok(bytes);
    }
    let fetch = FETCH
        .get()
        .ok_or_else(|| "this build has no way to fetch it".to_string())?;
    let bytes: &'static [u8] = Vec::leak(fetch(name)?);
    Ok(cell.get_or_init(|| bytes))
}

/// Registers `_stdlib_find`, `_stdlib_file` and `_stdlib_code` on
/// `_gradscope`.
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    // Whether `name` is a module of the rest of the standard library:
    // True for a package, False for a module, None when it is not there.
    let find = vm.new_function("_stdlib_find", |name: String| {
        gradscope_stdlib::find(&name).map(|found| found.package)
    });
    // Which file holds it (tests check what the common imports need).
    let file = vm.new_function("_stdlib_file", |name: String| {
        gradscope_stdlib::find(&name).map(|found| found.file)
    });
    let code = vm.new_function("_stdlib_code", code);
    for (name, function) in [
        ("_stdlib_find", find),
        ("_stdlib_file", file),
        ("_stdlib_code", code),
    ] {
        module
            .as_object()
            .set_attr(vm.ctx.intern_str(name), function, vm)?;
    }
    Ok(())
}

/// The code object of the standard-library module `name`.
fn code(name: String, vm: &VirtualMachine) -> PyResult<PyRef<PyCode>> {
    let not_found = |why: String| {
        vm.new_import_error(
            format!("No module named '{name}'{why}"),
            vm.ctx.new_utf8_str(name.as_str()),
        )
    };
    let found = gradscope_stdlib::find(&name).ok_or_else(|| not_found(String::new()))?;
    let bytes = rest(found.file).map_err(|why| {
        let file = gradscope_stdlib::REST_FILES
            .get(found.file)
            .copied()
            .unwrap_or_default();
        not_found(format!(
            ": the standard library's file {file} could not be loaded: {why}"
        ))
    })?;
    let module = FrozenLib::from_ref(bytes)
        .decode()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| m)
        .ok_or_else(|| not_found(String::new()))?;
    Ok(PyCode::new_ref_from_frozen(vm, module.code))
}
