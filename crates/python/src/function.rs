//! Python functions the engine calls back: the forward and backward of a
//! custom `torch.autograd.Function`, a checkpointed function (run again in
//! backward), and the function `gradcheck` differentiates. The Python side
//! (`torch/autograd/function.py`, `torch/utils/checkpoint.py`) passes only
//! tensors through here; a Python exception raised inside a callback is
//! carried out of the engine and re-raised as itself.

use std::rc::Rc;

use gradscope_core::autograd::checkpoint::checkpoint;
use gradscope_core::autograd::function::apply_node;
use gradscope_core::autograd::gradcheck::{GradcheckOptions, gradcheck};
use gradscope_core::{Error, Result, Tensor};
use rustpython_vm::builtins::{PyModule, PyTuple};
use rustpython_vm::function::OptionalArg;
use rustpython_vm::{AsObject, Py, PyObjectRef, PyResult, VirtualMachine};

use crate::errors::{IntoPy, stash};
use crate::limits::note_line;
use crate::tensor::{PyTensor, tensor_arg, wrap};

/// Calls `f` with `args` on the interpreter running this thread.
fn call(f: &PyObjectRef, args: Vec<PyObjectRef>) -> Result<PyObjectRef> {
    rustpython_vm::vm::thread::try_with_current_vm(|vm| f.call(args, vm).map_err(stash))
        .unwrap_or_else(|| {
            Err(Error::Backend(
                "a callback ran outside the interpreter".into(),
            ))
        })
}

fn with_vm<R>(f: impl FnOnce(&VirtualMachine) -> Result<R>) -> Result<R> {
    rustpython_vm::vm::thread::try_with_current_vm(f).unwrap_or_else(|| {
        Err(Error::Backend(
            "a callback ran outside the interpreter".into(),
        ))
    })
}

fn wrap_all(tensors: &[Tensor], vm: &VirtualMachine) -> PyObjectRef {
    let items = tensors.iter().map(|t| wrap(t.clone(), vm)).collect();
    vm.ctx.new_list(items).into()
}

/// A Python tensor, or a tuple or list of them, as engine tensors.
fn tensors_of(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<Tensor>> {
    if obj.downcast_ref::<PyTensor>().is_some() {
        return Ok(vec![tensor_arg(obj, vm)?]);
    }
    let items: Vec<PyObjectRef> = obj.try_to_value(vm)?;
    items.iter().map(|o| tensor_arg(o, vm)).collect()
}

/// A list of tensors or `None`s, as the engine's optional gradients.
fn optional_tensors(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<Option<Tensor>>> {
    let items: Vec<PyObjectRef> = if obj.downcast_ref::<PyTuple>().is_some() || !vm.is_none(obj) {
        obj.try_to_value(vm)?
    } else {
        vec![obj.clone()]
    };
    items
        .iter()
        .map(|o| {
            if vm.is_none(o) {
                Ok(None)
            } else {
                tensor_arg(o, vm).map(Some)
            }
        })
        .collect()
}

/// Adds the functions to `module` (called from the module's exec).
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    let set = |name: &'static str, f: PyObjectRef| -> PyResult<()> {
        module.as_object().set_attr(vm.ctx.intern_str(name), f, vm)
    };
    set(
        "_apply_function",
        vm.new_function("_apply_function", apply).into(),
    )?;
    set(
        "_checkpoint",
        vm.new_function("_checkpoint", checkpointed).into(),
    )?;
    set("_gradcheck", vm.new_function("_gradcheck", checked).into())?;
    set(
        "_set_printoptions",
        vm.new_function(
            "_set_printoptions",
            |precision: usize,
             threshold: i64,
             edgeitems: usize,
             linewidth: usize,
             sci_mode: i64| {
                // -1: decide by the values (PyTorch's `None`); 0 or 1: off or on.
                let sci_mode = (sci_mode >= 0).then_some(sci_mode > 0);
                crate::tensor::set_print_options(
                    precision, threshold, edgeitems, linewidth, sci_mode,
                );
            },
        )
        .into(),
    )?;
    Ok(())
}

/// `Function.apply`: `forward(needs_input_grad)` returns `(output, saved,
/// non_differentiable)`, or with a fourth item the saved tensors' names; `backward(saved, grad)` returns one gradient or
/// `None` per tensor input. The node is `<name>Backward`, or `name` itself
/// when `exact` (the runtime's composites, named as PyTorch's ops).
fn apply(
    name: String,
    inputs: Vec<PyObjectRef>,
    forward: PyObjectRef,
    backward: PyObjectRef,
    exact: OptionalArg<bool>,
    vm: &VirtualMachine,
) -> PyResult {
    let inputs: Vec<Tensor> = inputs
        .iter()
        .map(|o| tensor_arg(o, vm))
        .collect::<PyResult<_>>()?;
    note_line(vm);
    let backward_fn = Rc::new(move |saved: &[Tensor], grad: &Tensor| {
        let result = with_vm(|vm| Ok((wrap_all(saved, vm), wrap(grad.clone(), vm))))?;
        let grads = call(&backward, vec![result.0, result.1])?;
        with_vm(|vm| optional_tensors(&grads, vm).map_err(stash))
    });
    let node = if exact.unwrap_or(false) {
        name
    } else {
        format!("{name}Backward")
    };
    let output = apply_node(
        &node,
        &inputs,
        |ctx, _inputs| {
            let needs: Vec<PyObjectRef> = ctx
                .needs_input_grad
                .iter()
                .map(|&b| vm.ctx.new_bool(b).into())
                .collect();
            let needs: PyObjectRef = vm.ctx.new_tuple(needs).into();
            let result = forward.call((needs,), vm).map_err(stash)?;
            let parts: Vec<PyObjectRef> = result.try_to_value(vm).map_err(stash)?;
            let (output, saved, non_differentiable, names) = match &parts[..] {
                [o, s, n] => (o, s, n, None),
                [o, s, n, names] => (o, s, n, Some(names)),
                _ => return Err(Error::Backend("a custom forward returned no triple".into())),
            };
            let non_differentiable = non_differentiable.try_to_bool(vm).map_err(stash)?;
            let saved = tensors_of(saved, vm).map_err(stash)?;
            ctx.save_for_backward(&saved);
            if let Some(names) = names {
                let names: Vec<String> = names.try_to_value(vm).map_err(stash)?;
                ctx.name_saved(&names.iter().map(|n| saved_name(n)).collect::<Vec<_>>());
            }
            if non_differentiable {
                ctx.mark_non_differentiable();
            }
            tensor_arg(output, vm).map_err(stash)
        },
        backward_fn,
    )
    .py(vm)?;
    Ok(wrap(output, vm))
}

/// The trace's name for a composite node's saved tensor: PyTorch's names
/// for what its nodes keep (a name outside them reads as `saved`).
fn saved_name(name: &str) -> &'static str {
    const NAMES: &[&str] = &["mask", "indices", "self", "other", "result"];
    NAMES
        .iter()
        .find(|n| **n == name)
        .copied()
        .unwrap_or("saved")
}

/// `checkpoint(f, *tensors)` with `f` taking and returning a list of tensors.
fn checkpointed(f: PyObjectRef, inputs: Vec<PyObjectRef>, vm: &VirtualMachine) -> PyResult {
    let inputs: Vec<Tensor> = inputs
        .iter()
        .map(|o| tensor_arg(o, vm))
        .collect::<PyResult<_>>()?;
    note_line(vm);
    let run = Rc::new(move |ts: &[Tensor]| -> Result<Vec<Tensor>> {
        let args = with_vm(|vm| Ok(wrap_all(ts, vm)))?;
        let out = call(&f, vec![args])?;
        with_vm(|vm| tensors_of(&out, vm).map_err(stash))
    });
    let outputs = checkpoint(run, &inputs).py(vm)?;
    Ok(wrap_all(&outputs, vm))
}

/// `gradcheck(f, inputs, eps, atol, rtol)`: `True`, or the engine's
/// `GradcheckError` message as a `RuntimeError` subclass chosen by Python.
fn checked(
    f: PyObjectRef,
    inputs: Vec<PyObjectRef>,
    eps: f64,
    atol: f64,
    rtol: f64,
    vm: &VirtualMachine,
) -> PyResult<bool> {
    let inputs: Vec<Tensor> = inputs
        .iter()
        .map(|o| tensor_arg(o, vm))
        .collect::<PyResult<_>>()?;
    let run = |ts: &[Tensor]| -> Result<Tensor> {
        let args = wrap_all(ts, vm);
        let out = f.call((args,), vm).map_err(stash)?;
        tensor_arg(&out, vm).map_err(stash)
    };
    gradcheck(run, &inputs, GradcheckOptions { eps, atol, rtol }).py(vm)?;
    Ok(true)
}
