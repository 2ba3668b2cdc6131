//! Python values to tensors and back: `torch.tensor(data)` with PyTorch's
//! dtype inference, Python numbers as wrapped scalars in `x + 2`, shapes
//! given as `f(2, 3)` or `f((2, 3))`, and `tolist()`.

use gradscope_core::{DType, Tensor};
use rustpython_vm::builtins::{PyBaseExceptionRef, PyFloat, PyInt, PyList, PyTuple};
use rustpython_vm::function::FuncArgs;
use rustpython_vm::{AsObject, PyObjectRef, PyResult, TryFromBorrowedObject, VirtualMachine};

use crate::errors::IntoPy;
use crate::tensor::PyTensor;

/// One Python number, kept exact until the dtype is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::Int64,
            Scalar::Float(_) => DType::default_float(),
        }
    }

    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => f64::from(u8::from(b)),
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }

    fn as_i64(self) -> i64 {
        match self {
            Scalar::Bool(b) => i64::from(b),
            Scalar::Int(i) => i,
            Scalar::Float(f) => f as i64,
        }
    }

    fn as_bool(self) -> bool {
        match self {
            Scalar::Bool(b) => b,
            Scalar::Int(i) => i != 0,
            Scalar::Float(f) => f != 0.0,
        }
    }
}

/// A Python `bool`, `int` or `float` as a [`Scalar`]; `None` for anything else.
pub(crate) fn scalar(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Option<Scalar>> {
    if obj.class().is(vm.ctx.types.bool_type) {
        return Ok(Some(Scalar::Bool(obj.clone().try_to_bool(vm)?)));
    }
    if let Some(i) = obj.downcast_ref::<PyInt>() {
        let value = i64::try_from_borrowed_object(vm, i.as_object())
            .map_err(|_| vm.new_runtime_error("Overflow when unpacking long"))?;
        return Ok(Some(Scalar::Int(value)));
    }
    if let Some(f) = obj.downcast_ref::<PyFloat>() {
        return Ok(Some(Scalar::Float(f.to_f64())));
    }
    Ok(None)
}

/// A Python number as PyTorch wraps it when it meets a tensor (`x * 2`).
pub(crate) fn wrapped(value: Scalar) -> Tensor {
    match value {
        Scalar::Bool(b) => Tensor::scalar_int(i64::from(b)),
        Scalar::Int(i) => Tensor::scalar_int(i),
        Scalar::Float(f) => Tensor::scalar(f),
    }
}

/// An operand of a binary op: a tensor, or a Python number wrapped as one;
/// `None` when it is neither (the op then returns `NotImplemented`).
pub(crate) fn operand(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Option<Tensor>> {
    if let Some(t) = obj.downcast_ref::<PyTensor>() {
        return Ok(Some(t.tensor().clone()));
    }
    Ok(scalar(obj, vm)?.map(wrapped))
}

/// Nested sequences of numbers flattened, with their shape.
struct Nested {
    shape: Vec<usize>,
    values: Vec<Scalar>,
}

fn type_name(obj: &PyObjectRef) -> String {
    obj.class().name().to_string()
}

/// The most dimensions `torch.tensor` reads from nested sequences.
const MAX_DIMS: usize = 128;

fn flatten(obj: &PyObjectRef, dim: usize, out: &mut Nested, vm: &VirtualMachine) -> PyResult<()> {
    if let Some(value) = scalar(obj, vm)? {
        if dim != out.shape.len() {
            return Err(vm.new_type_error(format!("new(): invalid data type '{}'", type_name(obj))));
        }
        out.values.push(value);
        return Ok(());
    }
    if let Some(t) = obj.downcast_ref::<PyTensor>() {
        let t = &t.tensor();
        if t.numel() == 1 && t.shape().is_empty() {
            let value = match t.dtype() {
                DType::Bool => Scalar::Bool(t.to_vec::<bool>()[0]),
                d if d.is_float() => Scalar::Float(t.to_vec::<f64>()[0]),
                _ => Scalar::Int(t.to_vec::<i64>()[0]),
            };
            out.values.push(value);
            return Ok(());
        }
        return Err(
            vm.new_value_error("only one element tensors can be converted to Python scalars")
        );
    }
    let items: Vec<PyObjectRef> = if let Some(list) = obj.downcast_ref::<PyList>() {
        list.borrow_vec().to_vec()
    } else if let Some(tuple) = obj.downcast_ref::<PyTuple>() {
        tuple.as_slice().to_vec()
    } else {
        return Err(vm.new_type_error(format!("new(): invalid data type '{}'", type_name(obj))));
    };
    if dim == out.shape.len() {
        // PyTorch's limit, which also bounds this recursion: a list nested
        // a hundred thousand deep would overflow the stack.
        if dim == MAX_DIMS {
            return Err(vm.new_value_error(format!("too many dimensions '{}'", type_name(obj))));
        }
        out.shape.push(items.len());
    } else if out.shape.get(dim) != Some(&items.len()) {
        let expected = out.shape.get(dim).copied().unwrap_or_default();
        return Err(vm.new_value_error(format!(
            "expected sequence of length {expected} at dim {dim} (got {})",
            items.len()
        )));
    }
    for item in &items {
        flatten(item, dim + 1, out, vm)?;
    }
    Ok(())
}

/// `torch.tensor(data, dtype=...)`: the dtype is inferred as PyTorch does
/// (any float: float32; else any int: int64; else bool) unless given.
pub(crate) fn tensor_from_data(
    data: &PyObjectRef,
    dtype: Option<DType>,
    vm: &VirtualMachine,
) -> PyResult<Tensor> {
    // An array of gradscope's `numpy` holds its values in an engine tensor,
    // `_t`: `torch.Tensor(a)` reads it as PyTorch reads an array's buffer.
    if &*data.class().name() == "ndarray"
        && let Some(inner) = data
            .get_attr("_t", vm)
            .ok()
            .filter(|t| t.downcast_ref::<PyTensor>().is_some())
    {
        return tensor_from_data(&inner, dtype, vm);
    }
    if let Some(t) = data.downcast_ref::<PyTensor>() {
        // PyTorch warns and copies: a new leaf in the requested dtype.
        let t = &t.tensor();
        let data = t
            .storage()
            .data()
            .gather_as(t.layout(), dtype.unwrap_or(t.dtype()));
        return Tensor::from_buffer(data, t.shape()).py(vm);
    }
    let mut nested = Nested {
        shape: vec![],
        values: vec![],
    };
    // Leading empty lists still count as dimensions: torch.tensor([[]]) is 1x0.
    flatten(data, 0, &mut nested, vm)?;
    let inferred = nested
        .values
        .iter()
        .map(|v| v.dtype())
        .max()
        .unwrap_or(DType::default_float());
    from_scalars(&nested.values, &nested.shape, dtype.unwrap_or(inferred), vm)
}

/// A tensor of `dtype` holding `values` with `shape`.
pub(crate) fn from_scalars(
    values: &[Scalar],
    shape: &[usize],
    dtype: DType,
    vm: &VirtualMachine,
) -> PyResult<Tensor> {
    let t = match dtype {
        DType::Bool => Tensor::from_vec(values.iter().map(|v| v.as_bool()).collect(), shape),
        DType::Int64 => Tensor::from_vec(values.iter().map(|v| v.as_i64()).collect(), shape),
        DType::Float32 => {
            Tensor::from_vec(values.iter().map(|v| v.as_f64() as f32).collect(), shape)
        }
        DType::Float64 => Tensor::from_vec(values.iter().map(|v| v.as_f64()).collect(), shape),
        // Rounded through float32, as `c10::BFloat16` converts a double.
        DType::BFloat16 => Tensor::from_buffer(
            gradscope_core::cpu::CpuBuffer::F64(values.iter().map(|v| v.as_f64()).collect())
                .into_dtype(DType::BFloat16),
            shape,
        ),
        narrow => {
            for v in values {
                narrow
                    .check_fits(v.as_f64(), matches!(v, Scalar::Int(_)), DType::name)
                    .py(vm)?;
            }
            let wide = values.iter().map(|v| v.as_i64()).collect();
            Tensor::from_buffer(
                gradscope_core::cpu::CpuBuffer::I64(wide).into_dtype(narrow),
                shape,
            )
        }
    };
    t.py(vm)
}

/// A shape given as `f(2, 3)`, `f((2, 3))`, `f([2, 3])` or `f(torch.Size(...))`.
pub(crate) fn shape_from_args(args: &[PyObjectRef], vm: &VirtualMachine) -> PyResult<Vec<usize>> {
    let dims: Vec<PyObjectRef> = match args {
        [single] if single.downcast_ref::<PyInt>().is_none() => {
            if let Some(tuple) = single.downcast_ref::<PyTuple>() {
                tuple.as_slice().to_vec()
            } else if let Some(list) = single.downcast_ref::<PyList>() {
                list.borrow_vec().to_vec()
            } else {
                return Err(vm.new_type_error(format!(
                    "expected a sequence of integers or a single integer, got '{}'",
                    type_name(single)
                )));
            }
        }
        many => many.to_vec(),
    };
    dims.iter()
        .map(|d| {
            let Some(i) = d.downcast_ref::<PyInt>() else {
                return Err(vm.new_type_error(format!(
                    "expected a sequence of integers or a single integer, got '{}'",
                    type_name(d)
                )));
            };
            let v = i64::try_from_borrowed_object(vm, i.as_object())?;
            if v < 0 {
                return Err(vm.new_runtime_error(format!(
                    "Trying to create tensor with negative dimension {v}: {:?}",
                    dims_debug(&dims, vm)
                )));
            }
            // Only on wasm32, whose address space is 4 GiB: such a size
            // cannot be stored there, and must not be truncated.
            crate::sizes::narrow::<usize>(v).ok_or_else(|| {
                vm.new_runtime_error(crate::sizes::storage_message(&dims_debug(&dims, vm)))
            })
        })
        .collect()
}

fn dims_debug(dims: &[PyObjectRef], vm: &VirtualMachine) -> Vec<i64> {
    dims.iter()
        .filter_map(|d| i64::try_from_borrowed_object(vm, d).ok())
        .collect()
}

/// Positional arguments as a shape, for factories like `torch.ones(2, 3)`.
pub(crate) fn shape_from_funcargs(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<Vec<usize>> {
    shape_from_args(&args.args, vm)
}

/// `tolist()`: nested Python lists of `int`, `float` or `bool`; a Python
/// number for a 0-dim tensor.
pub(crate) fn to_list(t: &Tensor, vm: &VirtualMachine) -> PyObjectRef {
    fn build<T: Copy>(
        data: &[T],
        shape: &[usize],
        vm: &VirtualMachine,
        leaf: &dyn Fn(T) -> PyObjectRef,
    ) -> PyObjectRef {
        match shape.split_first() {
            None => data.first().map_or_else(|| vm.ctx.none(), |v| leaf(*v)),
            Some((&n, rest)) => {
                let stride: usize = rest.iter().product();
                let items = (0..n)
                    .map(|i| {
                        let start = i * stride;
                        build(&data[start..start + stride], rest, vm, leaf)
                    })
                    .collect();
                vm.ctx.new_list(items).into()
            }
        }
    }
    let shape = t.shape();
    match t.dtype() {
        DType::Bool => build(&t.to_vec::<bool>(), shape, vm, &|v| {
            vm.ctx.new_bool(v).into()
        }),
        d if d.is_float() => build(&t.to_vec::<f64>(), shape, vm, &|v| {
            vm.ctx.new_float(v).into()
        }),
        _ => build(&t.to_vec::<i64>(), shape, vm, &|v| vm.ctx.new_int(v).into()),
    }
}

/// `item()`: the one element as a Python number of the tensor's kind.
pub(crate) fn item(t: &Tensor, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    let value = t.item().py(vm)?;
    Ok(match t.dtype() {
        DType::Bool => vm.ctx.new_bool(value != 0.0).into(),
        d if d.is_float() => vm.ctx.new_float(value).into(),
        _ => vm.ctx.new_int(t.to_vec::<i64>()[0]).into(),
    })
}

/// A `TypeError` naming what was expected.
pub(crate) fn expected(what: &str, got: &PyObjectRef, vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_type_error(format!("expected {what}, got '{}'", type_name(got)))
}
