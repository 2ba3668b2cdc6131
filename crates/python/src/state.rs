//! The Python objects one runtime shares between its native code and its
//! `torch` package: the `torch.Tensor` class results are made of, dtype
//! singletons, `torch.Size`, and exception types.
//!
//! The engine's own state (grad mode, the ledger) is thread-local, so a
//! thread runs one runtime at a time; the runtime installs its state here
//! for the duration of each call into the interpreter.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use gradscope_trace::TensorId;
use std::rc::Rc;

use gradscope_core::DType;
use rustpython_vm::builtins::{PyBaseExceptionRef, PyTypeRef, PyWeak};
use rustpython_vm::class::PyClassImpl;
use rustpython_vm::{PyObjectRef, PyRef, VirtualMachine};

/// One runtime's shared objects.
#[derive(Debug)]
pub(crate) struct State {
    /// `torch.Tensor`, the Python subclass of `_gradscope.TensorBase` that
    /// every op result is an instance of (registered by `torch/_tensor.py`).
    pub(crate) tensor_class: RefCell<Option<PyTypeRef>>,
    /// `torch.Size` (registered by `torch/__init__.py`).
    pub(crate) size_class: RefCell<Option<PyObjectRef>>,
    /// `grad_fn` classes by node name (`MulBackward0`).
    pub(crate) node_classes: RefCell<BTreeMap<String, PyTypeRef>>,
    /// `torch.bool`, `torch.int64`, `torch.float32`, `torch.float64`.
    pub(crate) dtypes: [PyObjectRef; DType::ALL.len()],
    /// `torch.OutOfMemoryError`, a `RuntimeError`.
    pub(crate) oom_error: PyTypeRef,
    /// Raised when a run spends its budget; a `BaseException`.
    pub(crate) limit_error: PyTypeRef,
    /// The Python objects of leaves and gradients, so that reading
    /// `x.grad` twice, or `node.variable`, gives the same object, as in
    /// PyTorch (`acc.variable is a`).
    pub(crate) identities: RefCell<Identities>,
    /// A Python exception raised inside a callback the engine ran (a hook,
    /// a custom backward), waiting to replace the engine error it caused.
    pub(crate) pending: RefCell<Option<PyBaseExceptionRef>>,
    /// The read-only files programs can `open` by name (`Runtime::add_file`).
    pub(crate) files: RefCell<BTreeMap<String, Rc<[u8]>>>,
}

/// Weak references to the Python objects of engine tensors, by tensor id.
#[derive(Debug, Default)]
pub(crate) struct Identities {
    objects: HashMap<TensorId, PyRef<PyWeak>>,
    sweep_at: usize,
}

impl Identities {
    /// The live object remembered for `id`.
    pub(crate) fn get(&self, id: TensorId) -> Option<PyObjectRef> {
        self.objects.get(&id).and_then(|w| w.upgrade())
    }

    /// Remembers `object` for `id`, dropping dead entries now and then.
    pub(crate) fn insert(&mut self, id: TensorId, object: &PyObjectRef, vm: &VirtualMachine) {
        if self.objects.len() >= self.sweep_at {
            self.objects.retain(|_, w| w.upgrade().is_some());
            self.sweep_at = (2 * self.objects.len()).max(256);
        }
        if let Ok(weak) = object.downgrade(None, vm) {
            self.objects.insert(id, weak);
        }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<State>>> = const { RefCell::new(None) };
}

impl State {
    pub(crate) fn new(vm: &VirtualMachine) -> Self {
        // Native classes outside `#[pymodule]` are made on first use.
        let _ = (
            crate::tensor::PyTensor::make_static_type(),
            crate::dtype::PyDType::make_static_type(),
            crate::node::PyNode::make_static_type(),
            crate::node::PyHookHandle::make_static_type(),
            crate::output::OutputStream::make_static_type(),
            crate::rng::PyRngState::make_static_type(),
        );
        let runtime_error = vm.ctx.exceptions.runtime_error.to_owned();
        let base_exception = vm.ctx.exceptions.base_exception_type.to_owned();
        Self {
            tensor_class: RefCell::new(None),
            size_class: RefCell::new(None),
            node_classes: RefCell::new(BTreeMap::new()),
            dtypes: DType::ALL.map(|d| crate::dtype::PyDType::new_object(d, vm)),
            oom_error: vm.ctx.new_exception_type(
                "torch",
                "OutOfMemoryError",
                Some(vec![runtime_error]),
            ),
            limit_error: vm.ctx.new_exception_type(
                "gradscope",
                "ExecutionLimitExceeded",
                Some(vec![base_exception]),
            ),
            pending: RefCell::new(None),
            identities: RefCell::new(Identities::default()),
            files: RefCell::new(BTreeMap::new()),
        }
    }

    /// The dtype singleton for `dtype`.
    pub(crate) fn dtype(&self, dtype: DType) -> PyObjectRef {
        let i = DType::ALL.iter().position(|&d| d == dtype).unwrap_or(0);
        self.dtypes[i].clone()
    }
}

/// Runs `f` with `state` installed as this thread's current state.
pub(crate) fn enter<R>(state: &Rc<State>, f: impl FnOnce() -> R) -> R {
    let previous = CURRENT.with(|c| c.borrow_mut().replace(state.clone()));
    let result = f();
    CURRENT.with(|c| *c.borrow_mut() = previous);
    result
}

/// The current runtime's state.
pub(crate) fn current() -> Option<Rc<State>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// `gradscope.ExecutionLimitExceeded(message)`.
pub(crate) fn limit_exceeded(vm: &VirtualMachine, message: String) -> PyBaseExceptionRef {
    match current() {
        Some(state) => vm.new_exception_msg(state.limit_error.clone(), message.into()),
        None => vm.new_runtime_error(message),
    }
}
