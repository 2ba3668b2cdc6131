//! `torch.dtype`: the singletons `torch.float32`, `torch.int64`, ... and
//! how Python spells a dtype in arguments.

use gradscope_core::DType;
use rustpython_vm::common::hash::PyHash;
use rustpython_vm::function::PyComparisonValue;
use rustpython_vm::types::{Comparable, Hashable, PyComparisonOp, Representable};
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyPayload, PyResult, VirtualMachine, pyclass,
};

use crate::convert;

/// `torch.dtype`: `torch.float32` and friends.
#[pyclass(module = "torch", name = "dtype")]
#[derive(Debug, PyPayload)]
pub(crate) struct PyDType {
    pub(crate) dtype: DType,
}

impl PyDType {
    pub(crate) fn new_object(dtype: DType, vm: &VirtualMachine) -> PyObjectRef {
        PyDType { dtype }.into_ref(&vm.ctx).into()
    }

    /// A `torch.dtype`, or Python's `float`/`int`/`bool` as PyTorch reads
    /// them (`float64`, `int64`, `bool`); `None` for `None`.
    pub(crate) fn from_object(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Option<DType>> {
        if vm.is_none(obj) {
            return Ok(None);
        }
        if let Some(d) = obj.downcast_ref::<PyDType>() {
            return Ok(Some(d.dtype));
        }
        let types = &vm.ctx.types;
        let dtype = if obj.is(types.float_type) {
            DType::Float64
        } else if obj.is(types.int_type) {
            DType::Int64
        } else if obj.is(types.bool_type) {
            DType::Bool
        } else {
            return Err(convert::expected("torch.dtype", obj, vm));
        };
        Ok(Some(dtype))
    }
}

impl Representable for PyDType {
    fn repr_str(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<String> {
        Ok(zelf.dtype.to_string())
    }
}

impl Comparable for PyDType {
    fn cmp(
        zelf: &Py<Self>,
        other: &PyObject,
        op: PyComparisonOp,
        _vm: &VirtualMachine,
    ) -> PyResult<PyComparisonValue> {
        op.eq_only(|| {
            Ok(match other.downcast_ref::<PyDType>() {
                Some(o) => PyComparisonValue::Implemented(o.dtype == zelf.dtype),
                None => PyComparisonValue::NotImplemented,
            })
        })
    }
}

impl Hashable for PyDType {
    fn hash(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<PyHash> {
        Ok(zelf.dtype as i64)
    }
}

#[pyclass(with(Representable, Comparable, Hashable))]
impl PyDType {
    #[pygetset]
    fn is_floating_point(zelf: &Py<Self>) -> bool {
        zelf.dtype.is_float()
    }

    /// `dtype.is_complex`: always false, gradscope has no complex dtypes.
    #[pygetset]
    fn is_complex(_zelf: &Py<Self>) -> bool {
        false
    }

    #[pygetset]
    fn itemsize(zelf: &Py<Self>) -> usize {
        zelf.dtype.size()
    }

    #[pygetset]
    fn is_signed(zelf: &Py<Self>) -> bool {
        !matches!(zelf.dtype, DType::Bool | DType::UInt8)
    }
}
