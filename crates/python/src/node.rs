//! `grad_fn` objects (`torch.autograd.graph.Node`) and hook handles.
//!
//! Each node name gets its own Python class, as in PyTorch, so
//! `type(y.grad_fn).__name__` is `MulBackward0`; the classes are made on
//! first use and kept in the runtime's state.

use std::rc::Rc;

use gradscope_core::autograd::{HookHandle, Node};
use rustpython_vm::builtins::PyStr;
use rustpython_vm::builtins::{PyTupleRef, PyTypeRef};
use rustpython_vm::common::hash::PyHash;
use rustpython_vm::function::PyComparisonValue;
use rustpython_vm::types::{
    Comparable, GetAttr, Hashable, PyComparisonOp, PyTypeFlags, PyTypeSlots, Representable,
};
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine, pyclass,
};

use crate::errors::IntoPy;
use crate::state;
use crate::tensor::wrap_remembered;

/// A node of the autograd graph, PyTorch's `torch.autograd.graph.Node`.
#[pyclass(module = "torch.autograd.graph", name = "Node")]
#[derive(Debug, PyPayload)]
pub(crate) struct PyNode {
    node: Rc<Node>,
}

impl PyNode {
    /// The Python object for `node`, of the class named after it.
    pub(crate) fn wrap(node: Rc<Node>, vm: &VirtualMachine) -> PyObjectRef {
        let class = node_class(node.name(), vm);
        PyRef::new_ref(PyNode { node }, class, None).into()
    }

    fn address(&self) -> usize {
        Rc::as_ptr(&self.node) as usize
    }
}

/// The class for nodes named `name`: a subclass of `Node` made once per runtime.
fn node_class(name: &str, vm: &VirtualMachine) -> PyTypeRef {
    let base = PyNode::class(&vm.ctx).to_owned();
    let Some(state) = state::current() else {
        return base;
    };
    if let Some(class) = state.node_classes.borrow().get(name) {
        return class.clone();
    }
    let interned = vm.ctx.intern_str(name);
    let slots = PyTypeSlots::new(interned.as_str(), PyTypeFlags::HEAP_TYPE_WITH_DICT);
    let made = vm.ctx.new_class(Some("builtins"), name, base, slots);
    state
        .node_classes
        .borrow_mut()
        .insert(name.to_string(), made.clone());
    made
}

impl Representable for PyNode {
    fn repr_str(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<String> {
        Ok(format!(
            "<{} object at {:#x}>",
            zelf.node.name(),
            zelf.address()
        ))
    }
}

impl Comparable for PyNode {
    fn cmp(
        zelf: &Py<Self>,
        other: &PyObject,
        op: PyComparisonOp,
        _vm: &VirtualMachine,
    ) -> PyResult<PyComparisonValue> {
        op.eq_only(|| {
            Ok(match other.downcast_ref::<PyNode>() {
                Some(o) => PyComparisonValue::Implemented(Rc::ptr_eq(&o.node, &zelf.node)),
                None => PyComparisonValue::NotImplemented,
            })
        })
    }
}

impl Hashable for PyNode {
    fn hash(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<PyHash> {
        Ok(zelf.address() as PyHash)
    }
}

/// PyTorch's `_saved_<name>` and `_raw_saved_<name>` attributes, named per
/// node as PyTorch names them (`torch/autograd/graph.py` keeps the table);
/// any other missing attribute is the usual `AttributeError`.
impl GetAttr for PyNode {
    fn getattro(zelf: &Py<Self>, name: &Py<PyStr>, vm: &VirtualMachine) -> PyResult {
        if let Some(value) = zelf.as_object().generic_getattr_opt(name, None, vm)? {
            return Ok(value);
        }
        let text = name.to_string_lossy();
        if text.starts_with("_saved_") || text.starts_with("_raw_saved_") {
            // `import torch.autograd.graph` gives `torch`.
            let torch = vm.import("torch.autograd.graph", 0)?;
            let graph = torch.get_attr("autograd", vm)?.get_attr("graph", vm)?;
            let lookup = graph.get_attr("_saved_attribute", vm)?;
            return lookup.call((zelf.to_owned(), name.to_owned()), vm);
        }
        Err(vm.new_attribute_error(format!(
            "'{}' object has no attribute '{}'",
            zelf.node.name(),
            text
        )))
    }
}

#[pyclass(flags(BASETYPE), with(Representable, Comparable, Hashable, GetAttr))]
impl PyNode {
    /// The saved tensors as `[(slot, tensor)]`, slot `"input<i>"` or
    /// `"result"`: what `_saved_*` reads.
    #[pymethod]
    fn _saved_slots(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<Vec<PyObjectRef>> {
        let saved = zelf.node.saved_tensors().py(vm)?;
        Ok(saved
            .into_iter()
            .map(|(slot, tensor)| {
                let slot = match slot {
                    gradscope_core::ops::SavedSlot::Input(i) => format!("input{i}"),
                    gradscope_core::ops::SavedSlot::Output => "result".to_string(),
                };
                vm.ctx
                    .new_tuple(vec![
                        vm.ctx.new_str(slot).into(),
                        wrap_remembered(tensor, vm),
                    ])
                    .into()
            })
            .collect())
    }

    /// PyTorch's `name()`, which gives `AccumulateGrad` its C++ namespace.
    #[pymethod]
    fn name(zelf: &Py<Self>) -> String {
        match zelf.node.name() {
            "AccumulateGrad" => "torch::autograd::AccumulateGrad".to_string(),
            "CopySlices" => "torch::autograd::CopySlices".to_string(),
            "CopyBackwards" => "torch::autograd::CopyBackwards".to_string(),
            name => name.to_string(),
        }
    }

    /// `((node or None, input_nr), ...)`; gradscope's nodes have one output
    /// each, so `input_nr` is always 0.
    #[pygetset]
    fn next_functions(zelf: &Py<Self>, vm: &VirtualMachine) -> PyTupleRef {
        let items = zelf
            .node
            .next_functions()
            .iter()
            .map(|next| {
                let node = match next {
                    Some(n) => PyNode::wrap(n.clone(), vm),
                    None => vm.ctx.none(),
                };
                vm.ctx
                    .new_tuple(vec![node, vm.ctx.new_int(0).into()])
                    .into()
            })
            .collect();
        vm.ctx.new_tuple(items)
    }

    /// For `AccumulateGrad`, the leaf it accumulates into.
    #[pygetset]
    fn variable(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult {
        match zelf.node.variable() {
            Some(t) => Ok(wrap_remembered(t.clone(), vm)),
            None => Err(vm.new_attribute_error(format!(
                "'{}' object has no attribute 'variable'",
                zelf.node.name()
            ))),
        }
    }

    #[pymethod]
    fn _sequence_nr(zelf: &Py<Self>) -> u64 {
        zelf.node.sequence_nr()
    }

    /// Hooks on the gradient this node receives go on the tensor it made;
    /// gradscope keeps them on the node, so `register_prehook` is this.
    #[pymethod]
    fn register_prehook(
        _zelf: &Py<Self>,
        _hook: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyHookHandle> {
        Err(vm.new_not_implemented_error(
            "gradscope does not support Node.register_prehook yet; use Tensor.register_hook",
        ))
    }
}

/// What `register_hook` returns, PyTorch's `RemovableHandle`.
#[pyclass(module = "torch.utils.hooks", name = "RemovableHandle")]
#[derive(Debug, PyPayload)]
pub(crate) struct PyHookHandle {
    handle: HookHandle,
}

impl PyHookHandle {
    pub(crate) fn new(handle: HookHandle) -> Self {
        Self { handle }
    }
}

#[pyclass]
impl PyHookHandle {
    #[pymethod]
    fn remove(zelf: &Py<Self>) {
        zelf.handle.remove();
    }

    #[pymethod]
    fn __enter__(zelf: &Py<Self>) -> PyRef<PyHookHandle> {
        zelf.to_owned()
    }

    #[pymethod]
    fn __exit__(zelf: &Py<Self>, _args: rustpython_vm::function::FuncArgs) {
        zelf.handle.remove();
    }
}
