//! `t[...]` and `t[...] = v`: Python subscripts as the engine's
//! [`TensorIndex`] entries.

use gradscope_core::Tensor;
use gradscope_core::ops::view_index::TensorIndex;
use rustpython_vm::builtins::{PyEllipsis, PyInt, PyList, PyRange, PySlice, PyTuple};
use rustpython_vm::{
    AsObject, PyObject, PyObjectRef, PyResult, TryFromBorrowedObject, VirtualMachine,
};

use crate::convert::{self, operand};
use crate::errors::IntoPy;
use crate::limits::note_line;
use crate::tensor::{PyTensor, wrap_result};

fn slice_part(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Option<i64>> {
    if vm.is_none(obj) {
        return Ok(None);
    }
    let index = obj.try_index(vm)?;
    i64::try_from_borrowed_object(vm, index.as_object()).map(Some)
}

/// One entry of a subscript.
fn entry(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<TensorIndex> {
    if vm.is_none(obj) {
        return Ok(TensorIndex::NewAxis);
    }
    if obj.downcast_ref::<PyEllipsis>().is_some() {
        return Ok(TensorIndex::Ellipsis);
    }
    if obj.class().is(vm.ctx.types.bool_type) {
        return Ok(TensorIndex::Bool(obj.clone().try_to_bool(vm)?));
    }
    if obj.downcast_ref::<PyInt>().is_some() {
        return Ok(TensorIndex::Int(i64::try_from_borrowed_object(vm, obj)?));
    }
    if let Some(slice) = obj.downcast_ref::<PySlice>() {
        let start = slice
            .start
            .as_ref()
            .map(|s| slice_part(s, vm))
            .transpose()?
            .flatten();
        let stop = slice_part(&slice.stop, vm)?;
        // A step past the longest dimension takes one element, as that does.
        let step = slice
            .step
            .as_ref()
            .map(|s| slice_part(s, vm))
            .transpose()?
            .flatten()
            .map(crate::sizes::clamp);
        return Ok(TensorIndex::Slice { start, stop, step });
    }
    if let Some(t) = obj.downcast_ref::<PyTensor>() {
        return Ok(TensorIndex::Tensor(t.tensor().clone()));
    }
    // A list, or an array of gradscope's `numpy` (`t[np.arange(2)]`, a mask).
    if obj.downcast_ref::<PyList>().is_some() || &*obj.class().name() == "ndarray" {
        return Ok(TensorIndex::Tensor(convert::tensor_from_data(
            obj, None, vm,
        )?));
    }
    // A `range` indexes as the list of its values (`logprobs[range(n), y]`).
    if obj.downcast_ref::<PyRange>().is_some() {
        let items: Vec<PyObjectRef> = obj.try_to_value(vm)?;
        let list: PyObjectRef = vm.ctx.new_list(items).into();
        return Ok(TensorIndex::Tensor(convert::tensor_from_data(
            &list, None, vm,
        )?));
    }
    Err(vm.new_index_error(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got "
            .to_string()
            + &obj.class().name()
            + ")",
    ))
}

/// The entries of a subscript: a tuple's items, or the one index.
fn entries(index: &PyObject, vm: &VirtualMachine) -> PyResult<Vec<TensorIndex>> {
    match index.downcast_ref::<PyTuple>() {
        Some(tuple) => tuple.as_slice().iter().map(|e| entry(e, vm)).collect(),
        None => Ok(vec![entry(&index.to_owned(), vm)?]),
    }
}

/// `t[index]`.
pub(crate) fn get(t: &Tensor, index: &PyObject, vm: &VirtualMachine) -> PyResult {
    let entries = entries(index, vm)?;
    note_line(vm);
    wrap_result(t.index(&entries), vm)
}

/// `t[index] = value`: basic indices write through the view they select;
/// tensor indices go through `index_put` (the result's graph then shows a
/// copy of the whole tensor rather than PyTorch's `IndexPutBackward0`).
pub(crate) fn set(
    t: &Tensor,
    index: &PyObject,
    value: &PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let entries = entries(index, vm)?;
    let value =
        operand(value, vm)?.ok_or_else(|| convert::expected("Tensor or Number", value, vm))?;
    note_line(vm);
    // A Python number takes the tensor's dtype, as PyTorch's setitem does.
    let value = if value.is_wrapped_number() {
        let number = value.to_vec::<f64>().first().copied().unwrap_or_default();
        t.dtype()
            .check_fits(
                number,
                value.dtype() != gradscope_core::DType::Float64,
                gradscope_core::DType::c_name,
            )
            .py(vm)?;
        value.to_dtype(t.dtype()).py(vm)?
    } else {
        value
    };
    // PyTorch drops the value's leading size-1 dimensions before it
    // broadcasts (`logits[i] = model(x[[i]])` writes a [1, 27] into a [27]).
    let leading = value.shape().iter().take_while(|&&d| d == 1).count();
    let value = if leading > 0 {
        let rest: Vec<i64> = value.shape()[leading..]
            .iter()
            .map(|&d| i64::try_from(d).unwrap_or(i64::MAX))
            .collect();
        value.reshape(&rest).py(vm)?
    } else {
        value
    };
    let advanced = entries.iter().any(|e| matches!(e, TensorIndex::Tensor(_)));
    if !advanced {
        let view = t.index(&entries).py(vm)?;
        view.copy_(&value).py(vm)?;
        return Ok(());
    }
    // `t[mask] = v`, `t[idx] = v`, `t[:, idx] = v`: tensors and full slices.
    let mut indices = Vec::with_capacity(entries.len());
    for e in &entries {
        match e {
            TensorIndex::Tensor(i) => indices.push(Some(i.clone())),
            // Beside tensor indices an integer is one more, broadcast with
            // them (`x[range(n), 3] = v`).
            TensorIndex::Int(i) => indices.push(Some(Tensor::from_vec(vec![*i], &[]).py(vm)?)),
            TensorIndex::Slice {
                start: None,
                stop: None,
                step: None | Some(1),
            } => indices.push(None),
            _ => {
                return Err(vm.new_not_implemented_error(
                    "gradscope cannot yet assign through a subscript mixing tensors with integers or partial slices",
                ));
            }
        }
    }
    let updated = t.index_put(&indices, &value, false).py(vm)?;
    t.copy_(&updated).py(vm)?;
    Ok(())
}
