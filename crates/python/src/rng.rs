//! `torch.Generator`'s native state: a generator of its own, which the
//! Python side (`torch/_generator.py`) swaps in for the global one while a
//! `generator=` call draws, so `torch.randn(3, generator=g)` gives
//! PyTorch's values for `g`'s seed and leaves the global sequence alone.

use std::cell::RefCell;

use gradscope_core::ops::random::{Generator, with_generator};
use rustpython_vm::builtins::PyModule;
use rustpython_vm::{AsObject, Py, PyPayload, PyRef, PyResult, VirtualMachine, pyclass};

/// A generator's state, PyTorch's `torch.Generator` underneath.
#[pyclass(module = "torch._C", name = "RngState")]
#[derive(Debug, PyPayload)]
pub(crate) struct PyRngState {
    generator: RefCell<Generator>,
}

#[pyclass]
impl PyRngState {}

/// Adds `_rng_state(seed)` and `_swap_rng_state(state)` to `module`.
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    let new = vm.new_function("_rng_state", |seed: u64, vm: &VirtualMachine| {
        PyRngState {
            generator: RefCell::new(Generator::new(seed)),
        }
        .into_ref(&vm.ctx)
    });
    module
        .as_object()
        .set_attr(vm.ctx.intern_str("_rng_state"), new, vm)?;
    // Swapping twice restores both: the Python side brackets each draw.
    let swap = vm.new_function("_swap_rng_state", |state: PyRef<PyRngState>| {
        with_generator(|global| std::mem::swap(global, &mut state.generator.borrow_mut()));
    });
    module
        .as_object()
        .set_attr(vm.ctx.intern_str("_swap_rng_state"), swap, vm)
}
