//! Engine errors as the Python exceptions PyTorch raises: the type from
//! [`gradscope_core::Error::python_type`], the message from `Display`.

use gradscope_core::Error;
use rustpython_vm::builtins::{PyBaseExceptionRef, PyTypeRef};
use rustpython_vm::{PyResult, VirtualMachine};

use crate::state;

/// The Python exception for an engine error. A Python exception raised in a
/// callback the engine ran (a hook) is re-raised as itself.
pub(crate) fn to_py(err: Error, vm: &VirtualMachine) -> PyBaseExceptionRef {
    let state = state::current();
    let pending = state.as_ref().and_then(|s| s.pending.borrow_mut().take());
    if let (Some(pending), Error::Backend(_)) = (pending, &err) {
        return pending;
    }
    let exc_type: PyTypeRef = match err.python_type() {
        "OutOfMemoryError" => match &state {
            Some(s) => s.oom_error.clone(),
            None => vm.ctx.exceptions.runtime_error.to_owned(),
        },
        "IndexError" => vm.ctx.exceptions.index_error.to_owned(),
        "ValueError" => vm.ctx.exceptions.value_error.to_owned(),
        "TypeError" => vm.ctx.exceptions.type_error.to_owned(),
        "AssertionError" => vm.ctx.exceptions.assertion_error.to_owned(),
        "NotImplementedError" => vm.ctx.exceptions.not_implemented_error.to_owned(),
        _ => vm.ctx.exceptions.runtime_error.to_owned(),
    };
    vm.new_exception_msg(exc_type, err.to_string().into())
}

/// An engine result as a Python one.
pub(crate) trait IntoPy<T> {
    fn py(self, vm: &VirtualMachine) -> PyResult<T>;
}

impl<T> IntoPy<T> for gradscope_core::Result<T> {
    fn py(self, vm: &VirtualMachine) -> PyResult<T> {
        self.map_err(|e| to_py(e, vm))
    }
}

/// Records a Python exception raised inside an engine callback and returns
/// the engine error that carries it out of the engine.
pub(crate) fn stash(exc: PyBaseExceptionRef) -> Error {
    if let Some(state) = state::current() {
        *state.pending.borrow_mut() = Some(exc);
    }
    Error::Backend("a Python callback raised an exception".into())
}
