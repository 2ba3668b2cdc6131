//! The standard library beyond what the interpreter starts with: the
//! native half of `py/_gradscope_stdlib.py`'s finder, over
//! `gradscope_stdlib::REST`.
//!
//! Natively the modules are in the binary. In the browser they are one
//! separate file, fetched the first time a program imports one of them, by
//! the function the embedder gives [`set_stdlib_fetch`]; until then only the
//! list of their names (a few kilobytes) is in the wasm.

use std::sync::OnceLock;

use rustpython_vm::builtins::{PyCode, PyModule};
use rustpython_vm::frozen::FrozenLib;
use rustpython_vm::{AsObject, Py, PyRef, PyResult, VirtualMachine};

/// Fetches the file named by its argument (`gradscope_stdlib::REST_FILE`),
/// whole, or says why it could not.
pub type StdlibFetch = fn(&str) -> Result<Vec<u8>, String>;

static FETCH: OnceLock<StdlibFetch> = OnceLock::new();

/// The fetched bytes, kept for the life of the process (modules are decoded
/// from them on each first import).
#[cfg(target_arch = "wasm32")]
static FETCHED: OnceLock<&'static [u8]> = OnceLock::new();

/// How the runtime gets the standard library's file where it is not in the
/// binary (wasm32: the worker fetches it); natively unused. Only the first
/// call counts.
pub fn set_stdlib_fetch(fetch: StdlibFetch) {
    let _ = FETCH.set(fetch);
}

#[cfg(not(target_arch = "wasm32"))]
fn rest() -> Result<&'static [u8], String> {
    let _ = FETCH.get();
    Ok(gradscope_stdlib::REST)
}

#[cfg(target_arch = "wasm32")]
fn rest() -> Result<&'static [u8], String> {
    if let Some(bytes) = FETCHED.get() {
        return Ok(bytes);
    }
    let fetch = FETCH
        .get()
        .ok_or_else(|| "this build has no way to fetch it".to_string())?;
    let bytes: &'static [u8] = Vec::leak(fetch(gradscope_stdlib::REST_FILE)?);
    Ok(FETCHED.get_or_init(|| bytes))
}

/// Registers `_stdlib_find` and `_stdlib_code` on `_gradscope`.
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    // Whether `name` is a module of the rest of the standard library:
    // True for a package, False for a module, None when it is not there.
    let find = vm.new_function("_stdlib_find", |name: String| gradscope_stdlib::find(&name));
    module
        .as_object()
        .set_attr(vm.ctx.intern_str("_stdlib_find"), find, vm)?;
    let code = vm.new_function("_stdlib_code", code);
    module
        .as_object()
        .set_attr(vm.ctx.intern_str("_stdlib_code"), code, vm)
}

/// The code object of the standard-library module `name`.
fn code(name: String, vm: &VirtualMachine) -> PyResult<PyRef<PyCode>> {
    let bytes = rest().map_err(|why| {
        vm.new_import_error(
            format!(
                "No module named '{name}': the standard library ({}) could not be loaded: {why}",
                gradscope_stdlib::REST_FILE
            ),
            vm.ctx.new_utf8_str(name.as_str()),
        )
    })?;
    let module = FrozenLib::from_ref(bytes)
        .decode()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| m)
        .ok_or_else(|| {
            vm.new_import_error(
                format!("No module named '{name}'"),
                vm.ctx.new_utf8_str(name.as_str()),
            )
        })?;
    Ok(PyCode::new_ref_from_frozen(vm, module.code))
}
