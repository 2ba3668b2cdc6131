//! `torch._C.TensorBase`: the native class under `torch.Tensor` (which
//! `torch/_tensor.py` defines in Python over it, as PyTorch does), and
//! `torch.dtype`.
//!
//! Methods that only forward to the engine are rows in the tables below:
//! binding a new core op is one line. Operators (`+`, `+=`, reflected
//! forms with Python numbers) are the number slots of [`AsNumber`].

use std::cell::RefCell;
use std::rc::Rc;

use gradscope_core::autograd::Hook;
use gradscope_core::{DType, Error, Result, Tensor};
use rustpython_vm::builtins::{PyType, PyTypeRef};
use rustpython_vm::function::{Either, FuncArgs, OptionalArg, PyComparisonValue};
use rustpython_vm::protocol::{PyMappingMethods, PyNumberMethods};
use rustpython_vm::types::{
    AsMapping, AsNumber, Comparable, Constructor, PyComparisonOp, PyTypeFlags, Representable,
};
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine, pyclass,
};

use gradscope_trace::format::PrintOptions;

use crate::convert::{self, operand};
use crate::dtype::PyDType;
use crate::errors::{IntoPy, stash};
use crate::limits::note_line;
use crate::node::{PyHookHandle, PyNode};
use crate::state;

thread_local! {
    /// `torch.set_printoptions`'s current options, which every repr uses.
    static PRINT_OPTIONS: std::cell::RefCell<PrintOptions> =
        std::cell::RefCell::new(PrintOptions::default());
}

/// `torch.set_printoptions(...)` with every option given (Python keeps
/// which ones a call left unchanged); `threshold` negative is `inf`.
pub(crate) fn set_print_options(
    precision: usize,
    threshold: i64,
    edgeitems: usize,
    linewidth: usize,
    sci_mode: Option<bool>,
) {
    let threshold = usize::try_from(threshold).unwrap_or(usize::MAX);
    PRINT_OPTIONS.with(|o| {
        *o.borrow_mut() = PrintOptions {
            precision,
            threshold,
            edgeitems,
            linewidth,
            sci_mode,
        };
    });
}

thread_local! {
    static WARNED_SCALAR_OF_GRAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `float(t)` of a tensor that requires grad, with grad mode on: PyTorch's
/// warning, once per process (it is a `TORCH_WARN_ONCE`); under `no_grad`
/// PyTorch says nothing (LBFGS reads its closure's loss so every step).
fn warn_scalar_of_grad(obj: &PyObject, vm: &VirtualMachine) -> PyResult<()> {
    let requires_grad = gradscope_core::grad_mode::is_grad_enabled()
        && obj
            .downcast_ref::<PyTensor>()
            .is_some_and(|t| t.tensor().requires_grad());
    if !requires_grad || WARNED_SCALAR_OF_GRAD.with(|w| w.replace(true)) {
        return Ok(());
    }
    rustpython_vm::warn::warn(
        vm.ctx.new_str(SCALAR_OF_GRAD).into(),
        Some(vm.ctx.exceptions.user_warning.to_owned()),
        1,
        None,
        vm,
    )
}

const SCALAR_OF_GRAD: &str = "Converting a tensor with requires_grad=True to a scalar may lead to \
unexpected behavior.\nConsider using tensor.detach() first. (Triggered internally at \
/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:820.)";

/// PyTorch's warning for `.grad` of a non-leaf, word for word.
const NON_LEAF_GRAD: &str = "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. \
Its .grad attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be \
populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor \
by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more \
information. (Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:488.)";

/// The native part of `torch.Tensor`: a handle on an engine tensor.
#[pyclass(module = "torch._C", name = "TensorBase")]
#[derive(Debug, PyPayload)]
pub(crate) struct PyTensor {
    /// The engine tensor; replaced only by the in-place view ops
    /// (`unsqueeze_`), which give the same Python object a new layout.
    tensor: RefCell<Tensor>,
}

impl PyTensor {
    pub(crate) fn new(tensor: Tensor) -> Self {
        PyTensor {
            tensor: RefCell::new(tensor),
        }
    }

    /// The engine tensor this object stands for.
    pub(crate) fn tensor(&self) -> Tensor {
        self.tensor.borrow().clone()
    }
}

/// Wraps an engine tensor as a `torch.Tensor` object.
pub(crate) fn wrap(tensor: Tensor, vm: &VirtualMachine) -> PyObjectRef {
    let class = state::current().and_then(|s| s.tensor_class.borrow().clone());
    let class = class.unwrap_or_else(|| PyTensor::class(&vm.ctx).to_owned());
    new_instance(PyTensor::new(tensor), class, vm).into()
}

/// The Python object already standing for `tensor` (a leaf or a gradient
/// seen before), else a new one, remembered.
pub(crate) fn wrap_remembered(tensor: Tensor, vm: &VirtualMachine) -> PyObjectRef {
    let Some(state) = state::current() else {
        return wrap(tensor, vm);
    };
    if let Some(object) = state.identities.borrow().get(tensor.id()) {
        return object;
    }
    let id = tensor.id();
    let object = wrap(tensor, vm);
    state.identities.borrow_mut().insert(id, &object, vm);
    object
}

/// Remembers `object` as the Python object of its tensor.
pub(crate) fn remember(object: &PyObjectRef, vm: &VirtualMachine) {
    if let (Some(state), Some(t)) = (state::current(), object.downcast_ref::<PyTensor>()) {
        state
            .identities
            .borrow_mut()
            .insert(t.tensor().id(), object, vm);
    }
}

/// An instance of `class` (a subclass of `TensorBase`) holding `payload`.
fn new_instance(payload: PyTensor, class: PyTypeRef, vm: &VirtualMachine) -> PyRef<PyTensor> {
    let dict = class
        .slots
        .flags
        .has_feature(PyTypeFlags::HAS_DICT)
        .then(|| vm.ctx.new_dict());
    PyRef::new_ref(payload, class, dict)
}

/// A result as a Python object.
pub(crate) fn wrap_result(result: Result<Tensor>, vm: &VirtualMachine) -> PyResult {
    Ok(wrap(result.py(vm)?, vm))
}

/// The engine tensor of a `torch.Tensor` argument.
pub(crate) fn tensor_arg(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Tensor> {
    obj.downcast_ref::<PyTensor>()
        .map(|t| t.tensor().clone())
        .ok_or_else(|| convert::expected("Tensor", obj, vm))
}

type Binary = fn(&Tensor, &Tensor) -> Result<Tensor>;

/// A binary operator: `op(a, b)` when `a` is the tensor, `reflected(b, a)`
/// when only `b` is (`2 - x` is `x.__rsub__(2)`, which PyTorch records as
/// `RsubBackward1`); `NotImplemented` unless both are tensors or numbers.
fn binary_op(
    a: &PyObject,
    b: &PyObject,
    vm: &VirtualMachine,
    (name, op, reflected): (&'static str, Binary, Binary),
) -> PyResult {
    if is_meta(a) || is_meta(b) {
        return meta_call(name, a, b, vm);
    }
    let result = if let Some(x) = a.downcast_ref::<PyTensor>() {
        let Some(y) = operand(&b.to_owned(), vm)? else {
            return Ok(vm.ctx.not_implemented());
        };
        note_line(vm);
        op(&x.tensor(), &y)
    } else if let Some(y) = b.downcast_ref::<PyTensor>() {
        let Some(x) = operand(&a.to_owned(), vm)? else {
            return Ok(vm.ctx.not_implemented());
        };
        note_line(vm);
        reflected(&y.tensor(), &x)
    } else {
        return Ok(vm.ctx.not_implemented());
    };
    wrap_result(result, vm)
}

/// Whether `obj` is a meta tensor (`device='meta'`), whose operators
/// compute shapes only, in `torch._meta`.
fn is_meta(obj: &PyObject) -> bool {
    obj.downcast_ref::<PyTensor>()
        .is_some_and(|t| t.tensor().is_meta())
}

/// `torch._meta.<function>(name, a, b)`: an operator with a meta operand.
fn meta_call(name: &'static str, a: &PyObject, b: &PyObject, vm: &VirtualMachine) -> PyResult {
    let (function, name) = match name.strip_suffix('_') {
        Some(op) => ("inplace", op),
        None => ("binary", name),
    };
    let meta = vm.import("torch", 0)?.get_attr("_meta", vm)?;
    meta.get_attr(function, vm)?
        .call((vm.ctx.new_str(name), a.to_owned(), b.to_owned()), vm)
}

/// An in-place operator (`x += y`): returns `x` itself.
fn inplace_op(
    a: &PyObject,
    b: &PyObject,
    vm: &VirtualMachine,
    (name, op): (&'static str, Binary),
) -> PyResult {
    if is_meta(a) || is_meta(b) {
        return meta_call(name, a, b, vm);
    }
    let (Some(x), Some(y)) = (a.downcast_ref::<PyTensor>(), operand(&b.to_owned(), vm)?) else {
        return Ok(vm.ctx.not_implemented());
    };
    note_line(vm);
    op(&x.tensor(), &y).py(vm)?;
    Ok(a.to_owned())
}

fn unary_op(
    a: &PyObject,
    vm: &VirtualMachine,
    (name, op): (&'static str, fn(&Tensor) -> Result<Tensor>),
) -> PyResult {
    if is_meta(a) {
        let meta = vm.import("torch", 0)?.get_attr("_meta", vm)?;
        return meta.get_attr(name, vm)?.call((a.to_owned(),), vm);
    }
    match a.downcast_ref::<PyTensor>() {
        Some(x) => {
            note_line(vm);
            wrap_result(op(&x.tensor()), vm)
        }
        None => Ok(vm.ctx.not_implemented()),
    }
}

fn one_element(a: &PyObject, vm: &VirtualMachine) -> PyResult<(Tensor, f64)> {
    let t = a
        .downcast_ref::<PyTensor>()
        .map(|t| t.tensor().clone())
        .ok_or_else(|| vm.new_type_error("expected a Tensor"))?;
    let value = t.item().py(vm)?;
    Ok((t, value))
}

impl AsNumber for PyTensor {
    fn as_number() -> &'static PyNumberMethods {
        static AS_NUMBER: PyNumberMethods = PyNumberMethods {
            add: Some(|a, b, vm| binary_op(a, b, vm, ("add", Tensor::add, Tensor::add))),
            subtract: Some(|a, b, vm| binary_op(a, b, vm, ("sub", Tensor::sub, Tensor::rsub))),
            multiply: Some(|a, b, vm| binary_op(a, b, vm, ("mul", Tensor::mul, Tensor::mul))),
            true_divide: Some(|a, b, vm| binary_op(a, b, vm, ("div", Tensor::div, Tensor::rdiv))),
            matrix_multiply: Some(|a, b, vm| {
                binary_op(a, b, vm, ("matmul", Tensor::matmul, |t, o| o.matmul(t)))
            }),
            power: Some(|a, b, modulo, vm| {
                if !vm.is_none(modulo) {
                    return Ok(vm.ctx.not_implemented());
                }
                binary_op(a, b, vm, ("pow", Tensor::pow, Tensor::rpow))
            }),
            and: Some(|a, b, vm| {
                binary_op(
                    a,
                    b,
                    vm,
                    ("logical_and", Tensor::logical_and, Tensor::logical_and),
                )
            }),
            or: Some(|a, b, vm| {
                binary_op(
                    a,
                    b,
                    vm,
                    ("logical_or", Tensor::logical_or, Tensor::logical_or),
                )
            }),
            xor: Some(|a, b, vm| {
                binary_op(
                    a,
                    b,
                    vm,
                    ("logical_xor", Tensor::logical_xor, Tensor::logical_xor),
                )
            }),
            invert: Some(|a, vm| unary_op(a.obj, vm, ("logical_not", Tensor::logical_not))),
            absolute: Some(|a, vm| unary_op(a.obj, vm, ("absolute", Tensor::abs))),
            inplace_add: Some(|a, b, vm| inplace_op(a, b, vm, ("add_", Tensor::add_))),
            inplace_subtract: Some(|a, b, vm| inplace_op(a, b, vm, ("sub_", Tensor::sub_))),
            inplace_multiply: Some(|a, b, vm| inplace_op(a, b, vm, ("mul_", Tensor::mul_))),
            inplace_true_divide: Some(|a, b, vm| inplace_op(a, b, vm, ("div_", Tensor::div_))),
            inplace_power: Some(|a, b, _modulo, vm| {
                inplace_op(
                    a,
                    b,
                    vm,
                    ("pow_", |t, o| t.apply_inplace("pow_", |t| t.pow(o))),
                )
            }),
            negative: Some(|a, vm| unary_op(a.obj, vm, ("negative", Tensor::neg))),
            positive: Some(|a, _vm| Ok(a.obj.to_owned())),
            boolean: Some(|a, vm| {
                let t = a
                    .downcast_ref::<PyTensor>()
                    .map(|t| t.tensor().clone())
                    .ok_or_else(|| vm.new_type_error("expected a Tensor"))?;
                match t.numel() {
                    0 => Err(
                        vm.new_runtime_error("Boolean value of Tensor with no values is ambiguous")
                    ),
                    1 => Ok(t.item().py(vm)? != 0.0),
                    _ => Err(vm.new_runtime_error(
                        "Boolean value of Tensor with more than one value is ambiguous",
                    )),
                }
            }),
            float: Some(|a, vm| {
                let value = one_element(a.obj, vm)?.1;
                warn_scalar_of_grad(a.obj, vm)?;
                Ok(vm.ctx.new_float(value).into())
            }),
            int: Some(|a, vm| {
                let (t, value) = one_element(a.obj, vm)?;
                Ok(match t.dtype() {
                    d if d.is_float() => vm.ctx.new_int(value.trunc() as i64).into(),
                    _ => vm.ctx.new_int(t.to_vec::<i64>()[0]).into(),
                })
            }),
            index: Some(|a, vm| {
                let t = a.downcast_ref::<PyTensor>().map(|t| t.tensor().clone());
                match t {
                    Some(t) if t.numel() == 1 && !t.dtype().is_float() => {
                        Ok(vm.ctx.new_int(t.to_vec::<i64>()[0]).into())
                    }
                    _ => Err(vm.new_type_error(
                        "only integer tensors of a single element can be converted to an index",
                    )),
                }
            }),
            ..PyNumberMethods::NOT_IMPLEMENTED
        };
        &AS_NUMBER
    }
}

/// `x < y` and friends: elementwise, giving bool tensors.
impl Comparable for PyTensor {
    fn slot_richcompare(
        zelf: &PyObject,
        other: &PyObject,
        op: PyComparisonOp,
        vm: &VirtualMachine,
    ) -> PyResult<Either<PyObjectRef, PyComparisonValue>> {
        let f: Binary = match op {
            PyComparisonOp::Lt => Tensor::lt,
            PyComparisonOp::Le => Tensor::le,
            PyComparisonOp::Eq => Tensor::eq,
            PyComparisonOp::Ne => Tensor::ne,
            PyComparisonOp::Gt => Tensor::gt,
            _ => Tensor::ge,
        };
        if is_meta(zelf) || is_meta(other) {
            let name = match op {
                PyComparisonOp::Lt => "lt",
                PyComparisonOp::Le => "le",
                PyComparisonOp::Eq => "eq",
                PyComparisonOp::Ne => "ne",
                PyComparisonOp::Gt => "gt",
                _ => "ge",
            };
            return Ok(Either::A(meta_call(name, zelf, other, vm)?));
        }
        let (Some(x), Some(y)) = (
            zelf.downcast_ref::<PyTensor>(),
            operand(&other.to_owned(), vm)?,
        ) else {
            return Ok(Either::B(PyComparisonValue::NotImplemented));
        };
        note_line(vm);
        Ok(Either::A(wrap_result(f(&x.tensor(), &y), vm)?))
    }

    fn cmp(
        _zelf: &Py<Self>,
        _other: &PyObject,
        _op: PyComparisonOp,
        _vm: &VirtualMachine,
    ) -> PyResult<PyComparisonValue> {
        Ok(PyComparisonValue::NotImplemented)
    }
}

impl Representable for PyTensor {
    fn repr_str(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<String> {
        Ok(PRINT_OPTIONS.with(|o| zelf.tensor().repr_with(&o.borrow())))
    }
}

/// `torch.Tensor(data)`, `torch.Tensor(2, 3)`: the legacy constructor,
/// always float32.
impl Constructor for PyTensor {
    type Args = FuncArgs;

    fn py_new(_cls: &Py<PyType>, args: FuncArgs, vm: &VirtualMachine) -> PyResult<Self> {
        let tensor = match &args.args[..] {
            [] => Tensor::zeros(&[0]),
            [data] if data.downcast_ref::<PyTensor>().is_some() => tensor_arg(data, vm)?.detach(),
            [data] if convert::scalar(data, vm)?.is_none() => {
                convert::tensor_from_data(data, Some(DType::Float32), vm)?
            }
            dims => {
                // Checked as every factory is: a huge size is PyTorch's
                // overflow or out-of-memory error, not an allocation.
                let shape = convert::shape_from_args(dims, vm)?;
                gradscope_core::ledger::check_new_buffer(&shape, DType::Float32).py(vm)?;
                Tensor::zeros(&shape)
            }
        };
        Ok(Self::new(tensor))
    }
}

/// The gradient a hook returned, or `None`.
fn hook_result(result: PyObjectRef, vm: &VirtualMachine) -> Result<Option<Tensor>> {
    if vm.is_none(&result) {
        return Ok(None);
    }
    match result.downcast_ref::<PyTensor>() {
        Some(t) => Ok(Some(t.tensor().clone())),
        None => Err(stash(vm.new_type_error(format!(
            "hook returned an object of type '{}', expected a Tensor or None",
            result.class().name()
        )))),
    }
}

/// A Python callable as an engine hook (`register_hook`).
pub(crate) fn py_hook(hook: PyObjectRef) -> Hook {
    Rc::new(move |grad: &Tensor| {
        rustpython_vm::vm::thread::try_with_current_vm(|vm| {
            match hook.call((wrap(grad.clone(), vm),), vm) {
                Ok(result) => hook_result(result, vm),
                Err(exc) => Err(stash(exc)),
            }
        })
        .unwrap_or_else(|| Err(Error::Backend("a hook ran outside the interpreter".into())))
    })
}

fn dtype_of(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<DType> {
    PyDType::from_object(obj, vm)?.ok_or_else(|| convert::expected("torch.dtype", obj, vm))
}

#[pyclass(
    flags(BASETYPE),
    with(AsNumber, AsMapping, Comparable, Representable, Constructor)
)]
impl PyTensor {
    /// `torch.Tensor._make_subclass(cls, data, requires_grad)`, what
    /// `nn.Parameter` is made with: a new leaf of `cls` sharing `data`'s storage.
    #[pystaticmethod]
    fn _make_subclass(
        cls: PyTypeRef,
        data: PyObjectRef,
        requires_grad: OptionalArg<bool>,
        vm: &VirtualMachine,
    ) -> PyResult<PyRef<PyTensor>> {
        let tensor = tensor_arg(&data, vm)?
            .detach()
            .requires_grad_(requires_grad.unwrap_or(false));
        let object = new_instance(PyTensor::new(tensor), cls, vm);
        remember(&object.clone().into(), vm);
        Ok(object)
    }

    #[pygetset]
    fn shape(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult {
        size_object(zelf.tensor().shape(), vm)
    }

    #[pymethod]
    fn size(zelf: &Py<Self>, dim: OptionalArg<isize>, vm: &VirtualMachine) -> PyResult {
        match dim {
            OptionalArg::Missing => size_object(zelf.tensor().shape(), vm),
            OptionalArg::Present(d) => {
                let d = wrap_dim(d, zelf.tensor().shape().len(), vm)?;
                Ok(vm
                    .ctx
                    .new_int(zelf.tensor().shape().get(d).copied().unwrap_or(1))
                    .into())
            }
        }
    }

    /// The strides in elements, as a tuple, or one dimension's.
    #[pymethod]
    fn stride(zelf: &Py<Self>, dim: OptionalArg<isize>, vm: &VirtualMachine) -> PyResult {
        let tensor = zelf.tensor();
        let strides = tensor.layout().strides();
        match dim {
            OptionalArg::Missing => {
                let items = strides.iter().map(|&s| vm.ctx.new_int(s).into()).collect();
                Ok(vm.ctx.new_tuple(items).into())
            }
            OptionalArg::Present(d) => {
                let d = wrap_dim(d, strides.len(), vm)?;
                Ok(vm.ctx.new_int(strides.get(d).copied().unwrap_or(1)).into())
            }
        }
    }

    /// Where the tensor starts in its storage, in elements.
    #[pymethod]
    fn storage_offset(zelf: &Py<Self>) -> usize {
        zelf.tensor().layout().offset()
    }

    /// How many elements its storage holds (shared by all its views):
    /// what `storage().size()` reports.
    #[pymethod]
    fn _storage_numel(zelf: &Py<Self>) -> usize {
        zelf.tensor().storage().len()
    }

    /// A meta tensor (`device='meta'`): shape and dtype, no data.
    #[pystaticmethod]
    fn _meta(shape: Vec<usize>, dtype: PyObjectRef, vm: &VirtualMachine) -> PyResult {
        let dtype = dtype_of(&dtype, vm)?;
        Ok(wrap(Tensor::meta(&shape, dtype), vm))
    }

    /// Whether this is a meta tensor.
    #[pygetset]
    fn _is_meta(zelf: &Py<Self>) -> bool {
        zelf.tensor().is_meta()
    }

    /// Which storage the tensor is a view of: equal for tensors sharing one.
    #[pymethod]
    fn _storage_key(zelf: &Py<Self>) -> u64 {
        zelf.tensor().storage().id()
    }

    /// The whole storage as a 1-D tensor without history, sharing it.
    #[pymethod]
    fn _storage_tensor(zelf: &Py<Self>, vm: &VirtualMachine) -> PyObjectRef {
        wrap(zelf.tensor().storage_tensor(), vm)
    }

    /// A view without history of this tensor's storage with the given
    /// sizes, strides and offset (what serialization rebuilds views with).
    #[pymethod]
    fn _restrided(
        zelf: &Py<Self>,
        size: Vec<usize>,
        stride: Vec<isize>,
        offset: usize,
        vm: &VirtualMachine,
    ) -> PyResult {
        match zelf.tensor().restrided(&size, &stride, offset) {
            Some(view) => Ok(wrap(view, vm)),
            None => Err(vm.new_runtime_error(format!(
                "setStorage: sizes {size:?}, strides {stride:?}, storage offset {offset} are out of bounds \
                 for storage of size {}",
                zelf.tensor().storage().len()
            ))),
        }
    }

    #[pymethod]
    fn dim(zelf: &Py<Self>) -> usize {
        zelf.tensor().shape().len()
    }

    #[pymethod]
    fn ndimension(zelf: &Py<Self>) -> usize {
        Self::dim(zelf)
    }

    #[pygetset]
    fn ndim(zelf: &Py<Self>) -> usize {
        Self::dim(zelf)
    }

    #[pymethod]
    fn numel(zelf: &Py<Self>) -> usize {
        zelf.tensor().numel()
    }

    #[pymethod]
    fn nelement(zelf: &Py<Self>) -> usize {
        zelf.tensor().numel()
    }

    #[pymethod]
    fn element_size(zelf: &Py<Self>) -> usize {
        zelf.tensor().dtype().size()
    }

    #[pymethod]
    fn is_contiguous(zelf: &Py<Self>) -> bool {
        zelf.tensor().layout().is_contiguous()
    }

    #[pymethod]
    fn is_floating_point(zelf: &Py<Self>) -> bool {
        zelf.tensor().dtype().is_float()
    }

    #[pygetset]
    fn dtype(zelf: &Py<Self>, vm: &VirtualMachine) -> PyObjectRef {
        dtype_object(zelf.tensor().dtype(), vm)
    }

    #[pygetset]
    fn requires_grad(zelf: &Py<Self>) -> bool {
        zelf.tensor().requires_grad()
    }

    #[pygetset(setter)]
    fn set_requires_grad(zelf: &Py<Self>, value: bool, vm: &VirtualMachine) -> PyResult<()> {
        set_requires_grad(
            &zelf.tensor(),
            value,
            "floating point and complex dtype",
            vm,
        )?;
        remember(&zelf.to_owned().into(), vm);
        Ok(())
    }

    #[pymethod]
    fn requires_grad_(
        zelf: &Py<Self>,
        requires_grad: OptionalArg<bool>,
        vm: &VirtualMachine,
    ) -> PyResult<PyRef<PyTensor>> {
        // PyTorch's requires_grad_() names only floating point dtypes.
        let value = requires_grad.unwrap_or(true);
        set_requires_grad(&zelf.tensor(), value, "floating point dtype", vm)?;
        remember(&zelf.to_owned().into(), vm);
        Ok(zelf.to_owned())
    }

    #[pygetset]
    fn is_leaf(zelf: &Py<Self>) -> bool {
        zelf.tensor().is_leaf()
    }

    /// PyTorch warns (a `UserWarning` at the caller's line) when a non-leaf
    /// that does not retain its gradient is asked for one it cannot have.
    #[pygetset]
    fn grad(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<Option<PyObjectRef>> {
        let grad = zelf.tensor().grad();
        if grad.is_none() && !zelf.tensor().is_leaf() && !zelf.tensor().retains_grad() {
            rustpython_vm::warn::warn(
                vm.ctx.new_str(NON_LEAF_GRAD).into(),
                Some(vm.ctx.exceptions.user_warning.to_owned()),
                1,
                None,
                vm,
            )?;
        }
        Ok(grad.map(|g| wrap_remembered(g, vm)))
    }

    #[pygetset(setter)]
    fn set_grad(zelf: &Py<Self>, value: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        if vm.is_none(&value) {
            zelf.tensor().set_grad(None);
            return Ok(());
        }
        let grad = tensor_arg(&value, vm)?;
        if grad.shape() != zelf.tensor().shape() {
            return Err(vm.new_runtime_error("assigned grad has data of a different size"));
        }
        if grad.dtype() != zelf.tensor().dtype() {
            return Err(vm.new_runtime_error("assigned grad has data of a different type"));
        }
        zelf.tensor().set_grad(Some(grad));
        remember(&value, vm);
        Ok(())
    }

    #[pygetset]
    fn grad_fn(zelf: &Py<Self>, vm: &VirtualMachine) -> Option<PyObjectRef> {
        zelf.tensor().grad_fn().map(|n| PyNode::wrap(n, vm))
    }

    #[pygetset]
    fn data(zelf: &Py<Self>, vm: &VirtualMachine) -> PyObjectRef {
        wrap(zelf.tensor().detach(), vm)
    }

    /// `x.data = t`, as classic loops write `p.data -= lr * p.grad`: the
    /// values of `t` go into `x` without recording. PyTorch swaps the
    /// storage (so shape and dtype may change); gradscope copies, and asks
    /// for the same shape and dtype.
    #[pygetset(setter)]
    fn set_data(zelf: &Py<Self>, value: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let src = tensor_arg(&value, vm)?;
        if Rc::ptr_eq(zelf.tensor().storage(), src.storage())
            && zelf.tensor().layout() == src.layout()
        {
            return Ok(());
        }
        if src.shape() != zelf.tensor().shape() || src.dtype() != zelf.tensor().dtype() {
            return Err(vm.new_runtime_error(format!(
                "gradscope can only assign .data of the same shape and dtype ({:?} {} into {:?} {})",
                src.shape(),
                src.dtype().name(),
                zelf.tensor().shape(),
                zelf.tensor().dtype().name()
            )));
        }
        note_line(vm);
        let _no_grad = gradscope_core::grad_mode::GradModeGuard::internal(false);
        zelf.tensor().copy_(&src).py(vm)?;
        Ok(())
    }

    #[pygetset]
    fn _version(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<u64> {
        zelf.tensor().version().py(vm)
    }

    #[pymethod]
    fn is_inference(zelf: &Py<Self>) -> bool {
        zelf.tensor().is_inference()
    }

    #[pymethod]
    fn item(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult {
        convert::item(&zelf.tensor(), vm)
    }

    #[pymethod]
    fn tolist(zelf: &Py<Self>, vm: &VirtualMachine) -> PyObjectRef {
        convert::to_list(&zelf.tensor(), vm)
    }

    #[pymethod]
    fn detach(zelf: &Py<Self>, vm: &VirtualMachine) -> PyObjectRef {
        wrap(zelf.tensor().detach(), vm)
    }

    /// PyTorch's `backward(gradient=None, retain_graph=None, create_graph=False)`;
    /// `torch/_tensor.py` handles `inputs=`.
    #[pymethod]
    fn _backward(
        zelf: &Py<Self>,
        gradient: Option<PyRef<PyTensor>>,
        retain_graph: Option<bool>,
        create_graph: bool,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        note_line(vm);
        let gradient = gradient.map(|g| g.tensor().clone());
        zelf.tensor()
            .backward_with(gradient.as_ref(), retain_graph, create_graph)
            .py(vm)
    }

    #[pymethod]
    fn retain_grad(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<()> {
        zelf.tensor().retain_grad().py(vm)
    }

    #[pygetset]
    fn retains_grad(zelf: &Py<Self>) -> bool {
        zelf.tensor().retains_grad()
    }

    #[pymethod]
    fn register_hook(
        zelf: &Py<Self>,
        hook: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyHookHandle> {
        let handle = zelf.tensor().register_hook(py_hook(hook)).py(vm)?;
        Ok(PyHookHandle::new(handle))
    }

    #[pymethod]
    fn zero_(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<PyRef<PyTensor>> {
        note_line(vm);
        zelf.tensor().zero_().py(vm)?;
        Ok(zelf.to_owned())
    }

    /// The in-place view ops (`unsqueeze_`, `squeeze_`, `t_`,
    /// `transpose_`; `torch/_tensor.py` reads their arguments): this object
    /// takes the engine's new view, and stays the Python object for it.
    #[pymethod]
    fn _view_inplace(
        zelf: &Py<Self>,
        kind: String,
        dims: Vec<i64>,
        vm: &VirtualMachine,
    ) -> PyResult<PyRef<PyTensor>> {
        note_line(vm);
        let t = zelf.tensor();
        let out = match (kind.as_str(), dims.as_slice()) {
            ("unsqueeze_", &[d]) => t.unsqueeze_(d),
            ("squeeze_", &[]) => t.squeeze_(None, false),
            ("squeeze_dim", &[d]) => t.squeeze_(Some(&[d]), true),
            ("squeeze_dims", dims) => t.squeeze_(Some(dims), false),
            ("t_", &[]) => t.t_(),
            ("transpose_", &[a, b]) => t.transpose_(a, b),
            (kind, dims) => {
                return Err(vm.new_runtime_error(format!(
                    "internal error: no in-place view {kind} of {dims:?}"
                )));
            }
        }
        .py(vm)?;
        *zelf.tensor.borrow_mut() = out;
        remember(&zelf.to_owned().into(), vm);
        Ok(zelf.to_owned())
    }

    /// Makes this object stand for `source`'s engine tensor: what an
    /// `out=` tensor of another shape becomes (PyTorch resizes it).
    #[pymethod]
    fn _replace(
        zelf: &Py<Self>,
        source: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyRef<PyTensor>> {
        let source = tensor_arg(&source, vm)?;
        *zelf.tensor.borrow_mut() = source;
        remember(&zelf.to_owned().into(), vm);
        Ok(zelf.to_owned())
    }

    #[pymethod]
    fn fill_(
        zelf: &Py<Self>,
        value: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyRef<PyTensor>> {
        note_line(vm);
        let number =
            convert::scalar(&value, vm)?.ok_or_else(|| convert::expected("Number", &value, vm))?;
        let integral = matches!(number, convert::Scalar::Int(_));
        zelf.tensor()
            .fill_number(number.as_f64(), integral)
            .py(vm)?;
        Ok(zelf.to_owned())
    }

    /// `to(dtype)`; `torch/_tensor.py` sorts out devices and other forms.
    #[pymethod]
    fn _to_dtype(zelf: &Py<Self>, dtype: PyObjectRef, vm: &VirtualMachine) -> PyResult {
        note_line(vm);
        if zelf.tensor().is_meta() {
            let meta = vm.import("torch", 0)?.get_attr("_meta", vm)?;
            return meta
                .get_attr("to_dtype", vm)?
                .call((zelf.to_owned(), dtype), vm);
        }
        let dtype = dtype_of(&dtype, vm)?;
        if dtype == zelf.tensor().dtype() {
            return Ok(wrap(zelf.tensor().clone(), vm));
        }
        wrap_result(zelf.tensor().to_dtype(dtype), vm)
    }

    /// `to(device)`, for a device string `torch/_tensor.py` has checked.
    #[pymethod]
    fn _to_device(zelf: &Py<Self>, device: PyObjectRef, vm: &VirtualMachine) -> PyResult {
        note_line(vm);
        let device = crate::device::parse_device(&device, vm)?;
        wrap_result(zelf.tensor().to_device(device), vm)
    }

    /// The device as `str(torch.device)` writes it: `cpu`, `webgpu:0`.
    #[pygetset]
    fn _device(zelf: &Py<Self>) -> String {
        zelf.tensor().device().to_string()
    }

    #[pymethod]
    fn sum_to_size(zelf: &Py<Self>, args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        note_line(vm);
        let shape = convert::shape_from_args(&args.args, vm)?;
        wrap_result(zelf.tensor().sum_to_size(&shape), vm)
    }
}

impl AsMapping for PyTensor {
    fn as_mapping() -> &'static PyMappingMethods {
        static AS_MAPPING: PyMappingMethods = PyMappingMethods {
            length: Some(|mapping, vm| {
                mapping
                    .obj
                    .downcast_ref::<PyTensor>()
                    .and_then(|t| t.tensor().shape().first().copied())
                    .ok_or_else(|| vm.new_type_error("len() of a 0-d tensor"))
            }),
            subscript: Some(|mapping, index, vm| {
                let t = mapping
                    .obj
                    .downcast_ref::<PyTensor>()
                    .map(|t| t.tensor().clone())
                    .ok_or_else(|| vm.new_type_error("expected a Tensor"))?;
                crate::indexing::get(&t, index, vm)
            }),
            ass_subscript: Some(|mapping, index, value, vm| {
                let t = mapping
                    .obj
                    .downcast_ref::<PyTensor>()
                    .map(|t| t.tensor().clone())
                    .ok_or_else(|| vm.new_type_error("expected a Tensor"))?;
                let value = value
                    .ok_or_else(|| vm.new_type_error("Tensor does not support item deletion"))?;
                crate::indexing::set(&t, index, &value, vm)
            }),
        };
        &AS_MAPPING
    }
}

fn set_requires_grad(t: &Tensor, value: bool, kinds: &str, vm: &VirtualMachine) -> PyResult<()> {
    if !t.is_leaf() {
        let message = if value {
            "you can only change requires_grad flags of leaf variables."
        } else {
            "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
        };
        return Err(vm.new_runtime_error(message));
    }
    if value && !t.dtype().is_float() {
        return Err(vm.new_runtime_error(format!("only Tensors of {kinds} can require gradients")));
    }
    let _ = t.clone().requires_grad_(value);
    Ok(())
}

/// A dimension index with Python's negative indexing, checked as PyTorch does.
fn wrap_dim(dim: isize, rank: usize, vm: &VirtualMachine) -> PyResult<usize> {
    let n = rank.max(1) as isize;
    let d = if dim < 0 { dim + n } else { dim };
    if d < 0 || d >= n {
        return Err(crate::errors::to_py(
            Error::DimOutOfRange {
                dim: dim as i64,
                rank,
            },
            vm,
        ));
    }
    Ok(d as usize)
}

/// `torch.Size(shape)`.
pub(crate) fn size_object(shape: &[usize], vm: &VirtualMachine) -> PyResult {
    let items: Vec<PyObjectRef> = shape.iter().map(|&d| vm.ctx.new_int(d).into()).collect();
    let tuple = vm.ctx.new_tuple(items);
    match state::current().and_then(|s| s.size_class.borrow().clone()) {
        Some(size) => size.call((tuple,), vm),
        None => Ok(tuple.into()),
    }
}

/// The `torch.dtype` singleton for `dtype`.
pub(crate) fn dtype_object(dtype: DType, vm: &VirtualMachine) -> PyObjectRef {
    match state::current() {
        Some(s) => s.dtype(dtype),
        None => PyDType::new_object(dtype, vm),
    }
}
