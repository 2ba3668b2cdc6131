//! Compiling learners' source, around a panic in RustPython 0.6: for a
//! source that does not parse, its escape-warning scan walks the string
//! literals byte by byte and slices mid-character on some non-ASCII text
//! (`"é` alone, `F"{:¡"`). Programs compile through [`compile`], and
//! `exec`, `eval` and `compile` in `builtins` are wrapped to refuse such a
//! source with the `SyntaxError` compiling it without the scan gives.

use rustpython_vm::builtins::{PyBytes, PyCode, PyStr};
use rustpython_vm::compiler::{self, Mode};
use rustpython_vm::function::FuncArgs;
use rustpython_vm::vm::VmCompileError;
use rustpython_vm::{AsObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

/// Whether `vm.compile` can take `source` without reaching the scan that
/// panics: the scan is skipped for a source the pre-parse check rejects
/// (which is never parsed here either: dropping the tree of a deeply
/// nested one would exhaust the stack), and is safe for one that parses.
fn escape_scan_is_safe(source: &str, file_name: &str) -> bool {
    let source_file = compiler::core::SourceFileBuilder::new(file_name, source).finish();
    compiler::pre_parse_source_error(&source_file).is_err()
        || compiler::parser::parse(source, compiler::parser::Mode::Module.into()).is_ok()
}

/// Compiles `source` as `vm.compile` does; a source that does not parse
/// compiles without the escape warnings, which CPython does not give for
/// it either, and fails with the usual `SyntaxError`.
pub(crate) fn compile(
    vm: &VirtualMachine,
    source: &str,
    mode: Mode,
    file_name: &str,
) -> Result<PyRef<PyCode>, VmCompileError> {
    if escape_scan_is_safe(source, file_name) {
        return vm.compile(source, mode, file_name);
    }
    compiler::compile(source, mode, file_name, vm.compile_opts())
        .map(|code| PyCode::new_ref_from_bytecode(vm, code))
        .map_err(VmCompileError::Compile)
}

/// The `SyntaxError` for a source argument `vm.compile` would panic on.
fn refuse(
    vm: &VirtualMachine,
    source: Option<&PyObjectRef>,
    mode: Mode,
    file_name: &str,
) -> PyResult<()> {
    let Some(source) = source else {
        return Ok(());
    };
    let text = if let Some(s) = source.downcast_ref::<PyStr>() {
        match s.to_str() {
            Some(s) => s.to_owned(),
            None => return Ok(()),
        }
    } else if let Some(b) = source.downcast_ref::<PyBytes>() {
        match std::str::from_utf8(b.as_bytes()) {
            Ok(s) => s.to_owned(),
            Err(_) => return Ok(()),
        }
    } else {
        return Ok(());
    };
    if escape_scan_is_safe(&text, file_name) {
        return Ok(());
    }
    match compiler::compile(&text, mode, file_name, vm.compile_opts()) {
        Err(err) => Err(VmCompileError::Compile(err).into_pyexception(vm, Some(&text))),
        Ok(_) => Ok(()),
    }
}

fn mode_of(mode: Option<&PyObjectRef>) -> Mode {
    match mode.and_then(|m| {
        m.downcast_ref::<PyStr>()
            .and_then(|s| s.to_str().map(str::to_owned))
    }) {
        Some(m) if m == "eval" => Mode::Eval,
        Some(m) if m == "single" => Mode::Single,
        _ => Mode::Exec,
    }
}

/// Wraps `builtins.exec`, `eval` and `compile`. The wrappers are native, so
/// the original `exec` still finds the caller's frame for its globals.
pub(crate) fn register(vm: &VirtualMachine) -> PyResult<()> {
    let builtins = vm.builtins.as_object();
    for (name, mode) in [("exec", Mode::Exec), ("eval", Mode::Eval)] {
        let original = builtins.get_attr(name, vm)?;
        let wrapper = vm.new_function(name, move |args: FuncArgs, vm: &VirtualMachine| {
            let source = args.args.first().or_else(|| args.kwargs.get("source"));
            refuse(vm, source, mode, "<string>")?;
            original.call(args, vm)
        });
        builtins.set_attr(name, wrapper, vm)?;
    }
    let original = builtins.get_attr("compile", vm)?;
    let wrapper = vm.new_function("compile", move |args: FuncArgs, vm: &VirtualMachine| {
        {
            let arg = |i: usize, name: &str| args.args.get(i).or_else(|| args.kwargs.get(name));
            let file_name = arg(1, "filename")
                .and_then(|f| {
                    f.downcast_ref::<PyStr>()
                        .and_then(|s| s.to_str().map(str::to_owned))
                })
                .unwrap_or_else(|| "<string>".to_owned());
            refuse(vm, arg(0, "source"), mode_of(arg(2, "mode")), &file_name)?;
        }
        original.call(args, vm)
    });
    builtins.set_attr("compile", wrapper, vm)?;
    Ok(())
}
