//! The methods of `torch.Tensor` that only forward to the engine, one row
//! per method, grouped by signature; binding a new core op is one line in
//! the table of its signature. `torch/__init__.py` also exposes every
//! method as a function (`torch.exp(x)`), from [`FUNCTION_NAMES`].
//!
//! Methods with signatures of their own (`backward`, `size`, `to`) are in
//! `tensor.rs`; operators are the number slots there.

use gradscope_core::ops::int_division::IntDivision;
use gradscope_core::ops::{ArithOp, UnaryOp};
use gradscope_core::{Result, Tensor};
use rustpython_vm::builtins::{PyInt, PyList, PyTuple};
use rustpython_vm::function::FuncArgs;
use rustpython_vm::{
    PyObjectRef, PyPayload, PyRef, PyResult, TryFromBorrowedObject, VirtualMachine,
};

use crate::convert::{self, operand};
use crate::errors::IntoPy;
use crate::limits::note_line;
use crate::tensor::{PyTensor, wrap_result};

type Unary = fn(&Tensor) -> Result<Tensor>;
type Binary = fn(&Tensor, &Tensor) -> Result<Tensor>;
type WithDim = fn(&Tensor, i64) -> Result<Tensor>;
type OverDims = fn(&Tensor, &[i64], bool) -> Result<Tensor>;
type WithSizes = fn(&Tensor, &[i64]) -> Result<Tensor>;
type Statistic = fn(&Tensor, Option<&[i64]>, f64, bool) -> Result<Tensor>;

/// `x.isnan()`, `torch.isnan(x)`: the unary methods beside the unary ops'
/// own rows, which come from core's table ([`UnaryOp::METHODS`]).
const UNARY: &[(&str, Unary)] = &[
    ("negative", Tensor::neg),
    ("logical_not", Tensor::logical_not),
    ("isnan", Tensor::isnan),
    ("isinf", Tensor::isinf),
    ("isfinite", Tensor::isfinite),
    ("t", Tensor::t),
    ("contiguous", Tensor::contiguous),
    ("clone", Tensor::clone_tensor),
    ("zeros_like", |t| Ok(t.zeros_like())),
    ("ones_like", |t| Ok(t.ones_like())),
    ("rand_like", Tensor::rand_like),
    ("randn_like", Tensor::randn_like),
];

/// `x.matmul(y)`, `torch.eq(x, 2)`: the binary methods beside the
/// arithmetic ops' own rows, which come from core's table
/// ([`ArithOp::PYTHON`]); the other operand a tensor or a number, by
/// position or by PyTorch's name for it (`torch.mm(input=a, mat2=b)`).
const BINARY: &[(&str, &str, Binary)] = &[
    ("matmul", "other", Tensor::matmul),
    ("mm", "mat2", Tensor::mm),
    ("bmm", "mat2", Tensor::bmm),
    ("dot", "tensor", Tensor::dot),
    ("mv", "vec", Tensor::mv),
    ("maximum", "other", Tensor::maximum),
    ("minimum", "other", Tensor::minimum),
    ("eq", "other", Tensor::eq),
    ("ne", "other", Tensor::ne),
    ("lt", "other", Tensor::lt),
    ("le", "other", Tensor::le),
    ("gt", "other", Tensor::gt),
    ("ge", "other", Tensor::ge),
    ("logical_and", "other", Tensor::logical_and),
    ("logical_or", "other", Tensor::logical_or),
    ("logical_xor", "other", Tensor::logical_xor),
    ("expand_as", "other", Tensor::expand_as),
    ("view_as", "other", Tensor::view_as),
    ("reshape_as", "other", Tensor::reshape_as),
    // Integer rounding division, exact in integers; `torch/_tensor.py`
    // calls these for integer operands and composes the float forms.
    ("_floor_divide_int", "other", |a, b| {
        a.int_division(b, IntDivision::Floor)
    }),
    ("_trunc_divide_int", "other", |a, b| {
        a.int_division(b, IntDivision::Trunc)
    }),
    ("_remainder_int", "other", |a, b| {
        a.int_division(b, IntDivision::Remainder)
    }),
    ("_fmod_int", "other", |a, b| {
        a.int_division(b, IntDivision::Fmod)
    }),
];

/// In-place methods returning the tensor itself: `x.add_(1) is x`.
pub(crate) const INPLACE: &[(&str, Binary)] = &[
    ("add_", Tensor::add_),
    ("sub_", Tensor::sub_),
    ("subtract_", Tensor::sub_),
    ("mul_", Tensor::mul_),
    ("multiply_", Tensor::mul_),
    ("div_", Tensor::div_),
    ("divide_", Tensor::div_),
    ("copy_", Tensor::copy_),
    ("pow_", |t, exponent| {
        t.apply_inplace("pow_", |x| x.pow(exponent))
    }),
];

/// `x.softmax(dim)`, `x.unsqueeze(0)`: one dimension, by position or `dim=`.
pub(crate) const DIM: &[(&str, WithDim)] = &[
    ("softmax", Tensor::softmax),
    ("log_softmax", Tensor::log_softmax),
    ("unsqueeze", Tensor::unsqueeze),
];

/// Reductions: `x.sum()` over everything, `x.sum(dim, keepdim=False)` over
/// one dimension or a tuple of them.
pub(crate) const REDUCE: &[(&str, Unary, OverDims)] = &[
    ("sum", Tensor::sum, Tensor::sum_dim),
    ("mean", Tensor::mean, Tensor::mean_dim),
    ("amax", |t| t.amax(&[], false), Tensor::amax),
    ("amin", |t| t.amin(&[], false), Tensor::amin),
    ("logsumexp", |t| t.logsumexp(&[], false), Tensor::logsumexp),
    ("prod", Tensor::prod, |t, dims, keepdim| match dims {
        [dim] => t.prod_dim(*dim, keepdim),
        _ => Err(gradscope_core::Error::Backend(
            "prod(): argument 'dim' must be int, not tuple".into(),
        )),
    }),
];

/// Sizes as `x.view(2, 3)`, `x.view((2, 3))` or by PyTorch's name for
/// them (`torch.reshape(x, shape=(2, 3))`).
pub(crate) const SIZES: &[(&str, &str, WithSizes)] = &[
    ("view", "size", Tensor::view),
    ("reshape", "shape", Tensor::reshape),
    ("permute", "dims", Tensor::permute),
    ("expand", "size", Tensor::expand_sizes),
];

/// `x.exp()`, `torch.exp(x)`: every method taking only the tensor, the
/// unary ops' rows of core's table first.
pub(crate) fn unary() -> impl Iterator<Item = &'static (&'static str, Unary)> {
    UnaryOp::METHODS.iter().chain(UNARY)
}

/// Every binary method: the arithmetic table's rows, then [`BINARY`].
pub(crate) fn binary() -> impl Iterator<Item = &'static (&'static str, &'static str, Binary)> {
    ArithOp::PYTHON.iter().chain(BINARY)
}

/// Every name that is also a `torch.` function.
pub(crate) fn function_names() -> Vec<&'static str> {
    unary()
        .map(|e| e.0)
        .chain(binary().map(|e| e.0))
        .chain(DIM.iter().map(|e| e.0))
        .chain(REDUCE.iter().map(|e| e.0))
        .chain([
            "reshape",
            "permute",
            "transpose",
            "flatten",
            "squeeze",
            "narrow",
            "select",
            "diagonal",
            "clamp",
        ])
        .chain(["argmax", "argmin", "unbind", "chunk", "split"])
        .chain([
            "gather",
            "index_select",
            "scatter_add",
            "scatter",
            "index_add",
            "addmm",
            "clamp_min",
            "clamp_max",
            "unflatten",
        ])
        .collect()
}

/// The one operand of a binary method, by position or as the keyword
/// `param`, with Python's errors for none or too many.
fn one_operand(
    name: &str,
    param: &str,
    args: &mut FuncArgs,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let keyword = args.kwargs.swap_remove(param);
    no_stray_keywords(name, args, vm)?;
    match (keyword, &args.args[..]) {
        (Some(other), []) => Ok(other),
        (None, [other]) => Ok(other.clone()),
        (None, []) => Err(vm.new_type_error(format!(
            "{name}() missing 1 required positional arguments: \"{param}\""
        ))),
        _ => Err(vm.new_type_error(format!(
            "{name}() takes 1 positional argument but {} were given",
            args.args.len() + 1
        ))),
    }
}

/// The `i`th positional argument, or the keyword `name`.
pub(crate) fn take_arg(args: &mut FuncArgs, i: usize, name: &str) -> Option<PyObjectRef> {
    args.kwargs
        .swap_remove(name)
        .or_else(|| numpy_name(name).and_then(|alias| args.kwargs.swap_remove(alias)))
        .or_else(|| args.args.get(i).cloned())
}

/// NumPy's name for an argument, which PyTorch takes too: `sum(axis=1,
/// keepdims=True)`, as makemore's notebooks write it.
fn numpy_name(name: &str) -> Option<&'static str> {
    match name {
        "dim" => Some("axis"),
        "keepdim" => Some("keepdims"),
        _ => None,
    }
}

/// PyTorch's error for a keyword argument no parameter took, rather than
/// ignoring it (an ignored `keepdims=True` silently changed shapes).
fn no_stray_keywords(name: &str, args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    match args.kwargs.keys().next() {
        Some(key) => Err(vm.new_type_error(format!(
            "{name}() got an unexpected keyword argument '{key}'"
        ))),
        None => Ok(()),
    }
}

fn int_arg(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<i64> {
    if obj.downcast_ref::<PyInt>().is_none() {
        return Err(convert::expected("int", obj, vm));
    }
    i64::try_from_borrowed_object(vm, obj)
}

/// An int, or a tuple or list of ints.
pub(crate) fn dims_arg(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<i64>> {
    if let Some(t) = obj.downcast_ref::<PyTuple>() {
        return t.as_slice().iter().map(|d| int_arg(d, vm)).collect();
    }
    if let Some(l) = obj.downcast_ref::<PyList>() {
        return l.borrow_vec().iter().map(|d| int_arg(d, vm)).collect();
    }
    Ok(vec![int_arg(obj, vm)?])
}

/// Sizes given as separate ints or as one sequence.
fn sizes_arg(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<Vec<i64>> {
    match &args.args[..] {
        [one] if one.downcast_ref::<PyInt>().is_none() => dims_arg(one, vm),
        many => many.iter().map(|d| int_arg(d, vm)).collect(),
    }
}

fn bool_kw(args: &mut FuncArgs, i: usize, name: &str, vm: &VirtualMachine) -> PyResult<bool> {
    take_arg(args, i, name).map_or(Ok(false), |v| v.try_to_bool(vm))
}

/// Adds every table's methods to `TensorBase`, once per class.
pub(crate) fn register(vm: &VirtualMachine) {
    let class = PyTensor::class(&vm.ctx);
    if class.get_direct_attr(vm.ctx.intern_str("exp")).is_some() {
        return;
    }
    let add = |name: &'static str, method| class.set_str_attr(name, method, &vm.ctx);
    for &(name, op) in unary() {
        add(
            name,
            vm.new_method(
                name,
                class,
                move |zelf: PyRef<PyTensor>, vm: &VirtualMachine| {
                    note_line(vm);
                    wrap_result(op(&zelf.tensor()), vm)
                },
            ),
        );
    }
    for &(name, param, op) in binary() {
        add(
            name,
            vm.new_method(
                name,
                class,
                move |zelf: PyRef<PyTensor>, mut args: FuncArgs, vm: &VirtualMachine| {
                    let other = one_operand(name, param, &mut args, vm)?;
                    let other = operand(&other, vm)?
                        .ok_or_else(|| convert::expected("Tensor or Number", &other, vm))?;
                    note_line(vm);
                    wrap_result(op(&zelf.tensor(), &other), vm)
                },
            ),
        );
    }
    for &(name, op) in INPLACE {
        let param = if name == "pow_" { "exponent" } else { "other" };
        add(
            name,
            vm.new_method(
                name,
                class,
                move |zelf: PyRef<PyTensor>, mut args: FuncArgs, vm: &VirtualMachine| {
                    let other = one_operand(name, param, &mut args, vm)?;
                    let other = operand(&other, vm)?
                        .ok_or_else(|| convert::expected("Tensor or Number", &other, vm))?;
                    note_line(vm);
                    op(&zelf.tensor(), &other).py(vm)?;
                    Ok::<_, rustpython_vm::builtins::PyBaseExceptionRef>(zelf)
                },
            ),
        );
    }
    for &(name, op) in DIM {
        add(
            name,
            vm.new_method(
                name,
                class,
                move |zelf: PyRef<PyTensor>, mut args: FuncArgs, vm: &VirtualMachine| {
                    let dim = take_arg(&mut args, 0, "dim").ok_or_else(|| {
                        vm.new_type_error(format!(
                            "{name}() missing 1 required positional argument: \"dim\""
                        ))
                    })?;
                    let dim = int_arg(&dim, vm)?;
                    no_stray_keywords(name, &args, vm)?;
                    note_line(vm);
                    wrap_result(op(&zelf.tensor(), dim), vm)
                },
            ),
        );
    }
    for &(name, all, dims) in REDUCE {
        add(
            name,
            vm.new_method(
                name,
                class,
                move |zelf: PyRef<PyTensor>, mut args: FuncArgs, vm: &VirtualMachine| {
                    let dim = take_arg(&mut args, 0, "dim").filter(|d| !vm.is_none(d));
                    let keepdim = bool_kw(&mut args, 1, "keepdim", vm)?;
                    no_stray_keywords(name, &args, vm)?;
                    note_line(vm);
                    match dim {
                        None => wrap_result(all(&zelf.tensor()), vm),
                        Some(d) => {
                            wrap_result(dims(&zelf.tensor(), &dims_arg(&d, vm)?, keepdim), vm)
                        }
                    }
                },
            ),
        );
    }
    for &(name, op) in CUSTOM {
        add(
            name,
            vm.new_method(
                name,
                class,
                move |zelf: PyRef<PyTensor>, args: FuncArgs, vm: &VirtualMachine| {
                    note_line(vm);
                    op(&zelf.tensor(), args, vm)
                },
            ),
        );
    }
    for &(name, param, op) in SIZES {
        add(
            name,
            vm.new_method(
                name,
                class,
                move |zelf: PyRef<PyTensor>, mut args: FuncArgs, vm: &VirtualMachine| {
                    if let Some(sizes) = args.kwargs.swap_remove(param) {
                        args.args.push(sizes);
                    }
                    no_stray_keywords(name, &args, vm)?;
                    let sizes = sizes_arg(&args, vm)?;
                    crate::sizes::check_view(name, &sizes, vm)?;
                    note_line(vm);
                    wrap_result(op(&zelf.tensor(), &sizes), vm)
                },
            ),
        );
    }
}

type Custom = fn(&Tensor, FuncArgs, &VirtualMachine) -> PyResult;

/// Methods whose arguments need their own reading.
pub(crate) const CUSTOM: &[(&str, Custom)] = &[
    ("transpose", |t, mut a, vm| {
        let (d0, d1) = (req(&mut a, 0, "dim0", vm)?, req(&mut a, 1, "dim1", vm)?);
        wrap_result(t.transpose(int_arg(&d0, vm)?, int_arg(&d1, vm)?), vm)
    }),
    ("flatten", |t, mut a, vm| {
        let start = opt_int(&mut a, 0, "start_dim", vm)?.unwrap_or(0);
        let end = opt_int(&mut a, 1, "end_dim", vm)?.unwrap_or(-1);
        wrap_result(t.flatten(start, end), vm)
    }),
    ("squeeze", |t, mut a, vm| {
        match take_arg(&mut a, 0, "dim").filter(|d| !vm.is_none(d)) {
            None => wrap_result(t.squeeze(), vm),
            Some(d) if d.downcast_ref::<PyInt>().is_some() => {
                wrap_result(t.squeeze_dim(int_arg(&d, vm)?), vm)
            }
            Some(d) => wrap_result(t.squeeze_dims(&dims_arg(&d, vm)?), vm),
        }
    }),
    ("narrow", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let start = int_arg(&req(&mut a, 1, "start", vm)?, vm)?;
        let length = int_arg(&req(&mut a, 2, "length", vm)?, vm)?;
        wrap_result(t.narrow(dim, start, length), vm)
    }),
    ("diagonal", |t, mut a, vm| {
        let offset = opt_int(&mut a, 0, "offset", vm)?.unwrap_or(0);
        let dim1 = opt_int(&mut a, 1, "dim1", vm)?.unwrap_or(0);
        let dim2 = opt_int(&mut a, 2, "dim2", vm)?.unwrap_or(1);
        wrap_result(t.diagonal(offset, dim1, dim2), vm)
    }),
    ("select", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let index = int_arg(&req(&mut a, 1, "index", vm)?, vm)?;
        wrap_result(t.select(dim, index), vm)
    }),
    ("clamp", |t, mut a, vm| {
        if let Some((min, max)) = tensor_bounds(&mut a, "clamp", vm)? {
            return wrap_result(t.clamp_tensor(min.as_ref(), max.as_ref()), vm);
        }
        let min = opt_scalar(&mut a, 0, "min", vm)?;
        let max = opt_scalar(&mut a, 1, "max", vm)?;
        wrap_result(t.clamp(min, max), vm)
    }),
    ("argmax", |t, mut a, vm| {
        let dim = opt_int(&mut a, 0, "dim", vm)?;
        wrap_result(t.argmax(dim, bool_kw(&mut a, 1, "keepdim", vm)?), vm)
    }),
    ("argmin", |t, mut a, vm| {
        let dim = opt_int(&mut a, 0, "dim", vm)?;
        wrap_result(t.argmin(dim, bool_kw(&mut a, 1, "keepdim", vm)?), vm)
    }),
    ("_max_all", |t, _a, vm| wrap_result(t.max(), vm)),
    ("_min_all", |t, _a, vm| wrap_result(t.min(), vm)),
    ("_max_dim", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        pair(t.max_dim(dim, bool_kw(&mut a, 1, "keepdim", vm)?), vm)
    }),
    ("_min_dim", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        pair(t.min_dim(dim, bool_kw(&mut a, 1, "keepdim", vm)?), vm)
    }),
    ("_var", |t, mut a, vm| statistic(t, &mut a, vm, Tensor::var)),
    ("_std", |t, mut a, vm| statistic(t, &mut a, vm, Tensor::std)),
    ("_norm", |t, mut a, vm| {
        let ord =
            take_arg(&mut a, 0, "p").map_or(Ok(2.0), |p| p.try_float(vm).map(|f| f.to_f64()))?;
        let dims = take_arg(&mut a, 1, "dim")
            .filter(|d| !vm.is_none(d))
            .map(|d| dims_arg(&d, vm))
            .transpose()?;
        let keepdim = bool_kw(&mut a, 2, "keepdim", vm)?;
        wrap_result(t.norm(ord, dims.as_deref(), keepdim), vm)
    }),
    ("gather", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let index = crate::tensor::tensor_arg(&req(&mut a, 1, "index", vm)?, vm)?;
        wrap_result(t.gather(dim, &index), vm)
    }),
    ("index_select", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let index = crate::tensor::tensor_arg(&req(&mut a, 1, "index", vm)?, vm)?;
        wrap_result(t.index_select(dim, &index), vm)
    }),
    ("scatter_add", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let index = crate::tensor::tensor_arg(&req(&mut a, 1, "index", vm)?, vm)?;
        let src = crate::tensor::tensor_arg(&req(&mut a, 2, "src", vm)?, vm)?;
        wrap_result(t.scatter_add(dim, &index, &src), vm)
    }),
    ("scatter", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let index = crate::tensor::tensor_arg(&req(&mut a, 1, "index", vm)?, vm)?;
        if let Some(reduce) = take_arg(&mut a, 3, "reduce") {
            return Err(vm.new_runtime_error(format!(
                "gradscope does not support scatter's reduce={}: use scatter_add",
                reduce.repr(vm)?
            )));
        }
        let src = take_arg(&mut a, 2, "src").or_else(|| take_arg(&mut a, 2, "value"));
        let src = src.ok_or_else(|| {
            vm.new_type_error("scatter() missing 1 required positional arguments: \"src\"")
        })?;
        if src.downcast_ref::<PyTensor>().is_some() {
            let src = crate::tensor::tensor_arg(&src, vm)?;
            wrap_result(t.scatter(dim, &index, &src), vm)
        } else {
            let value = src.try_float(vm)?.to_f64();
            wrap_result(t.scatter_value(dim, &index, value), vm)
        }
    }),
    ("index_add", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let index = crate::tensor::tensor_arg(&req(&mut a, 1, "index", vm)?, vm)?;
        let source = crate::tensor::tensor_arg(&req(&mut a, 2, "source", vm)?, vm)?;
        wrap_result(t.index_add(dim, &index, &source), vm)
    }),
    ("addmm", |t, mut a, vm| {
        let mat1 = crate::tensor::tensor_arg(&req(&mut a, 0, "mat1", vm)?, vm)?;
        let mat2 = crate::tensor::tensor_arg(&req(&mut a, 1, "mat2", vm)?, vm)?;
        wrap_result(t.addmm(&mat1, &mat2), vm)
    }),
    ("clamp_min", |t, mut a, vm| {
        if let Some(min) = tensor_bound(&a, 0, "min") {
            return wrap_result(
                t.clamp_min_tensor(&crate::tensor::tensor_arg(&min, vm)?),
                vm,
            );
        }
        match opt_scalar(&mut a, 0, "min", vm)? {
            Some(min) => wrap_result(t.clamp_min(min), vm),
            None => Err(vm.new_type_error("clamp_min() missing required argument 'min'")),
        }
    }),
    ("clamp_max", |t, mut a, vm| {
        if let Some(max) = tensor_bound(&a, 0, "max") {
            return wrap_result(
                t.clamp_max_tensor(&crate::tensor::tensor_arg(&max, vm)?),
                vm,
            );
        }
        match opt_scalar(&mut a, 0, "max", vm)? {
            Some(max) => wrap_result(t.clamp_max(max), vm),
            None => Err(vm.new_type_error("clamp_max() missing required argument 'max'")),
        }
    }),
    ("unflatten", |t, mut a, vm| {
        let dim = int_arg(&req(&mut a, 0, "dim", vm)?, vm)?;
        let sizes = dims_arg(&req(&mut a, 1, "sizes", vm)?, vm)?;
        crate::sizes::check_view("unflatten", &sizes, vm)?;
        wrap_result(t.unflatten(dim, &sizes), vm)
    }),
    ("unbind", |t, mut a, vm| {
        let dim = opt_int(&mut a, 0, "dim", vm)?.unwrap_or(0);
        tensors(t.unbind(dim), vm)
    }),
    ("chunk", |t, mut a, vm| {
        let chunks = int_arg(&req(&mut a, 0, "chunks", vm)?, vm)?;
        let dim = opt_int(&mut a, 1, "dim", vm)?.unwrap_or(0);
        // An empty dimension gives `chunks` empty pieces: a list the
        // engine counts in `usize`.
        let rank = i64::try_from(t.shape().len()).unwrap_or(i64::MAX);
        let wrapped = usize::try_from(if dim < 0 { dim + rank } else { dim });
        let empty = wrapped.is_ok_and(|d| t.shape().get(d) == Some(&0));
        if empty && crate::sizes::first_past::<usize>(&[chunks]).is_some() {
            return Err(crate::sizes::storage_overflow(&[chunks], vm));
        }
        tensors(t.chunk(chunks, dim), vm)
    }),
    ("split", |t, mut a, vm| {
        // `torch.split` names it `split_size_or_sections`.
        let size = match a.kwargs.swap_remove("split_size_or_sections") {
            Some(size) => size,
            None => req(&mut a, 0, "split_size", vm)?,
        };
        let dim = opt_int(&mut a, 1, "dim", vm)?.unwrap_or(0);
        match size.downcast_ref::<PyInt>() {
            // A split size past the longest dimension splits as that does.
            Some(_) => tensors(t.split(crate::sizes::clamp(int_arg(&size, vm)?), dim), vm),
            None => {
                let sizes = dims_arg(&size, vm)?;
                crate::sizes::check_view("split", &sizes, vm)?;
                tensors(t.split_with_sizes(&sizes, dim), vm)
            }
        }
    }),
];

fn req(args: &mut FuncArgs, i: usize, name: &str, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    take_arg(args, i, name).ok_or_else(|| {
        vm.new_type_error(format!(
            "missing required argument \"{name}\" (pos {})",
            i + 1
        ))
    })
}

fn opt_int(
    args: &mut FuncArgs,
    i: usize,
    name: &str,
    vm: &VirtualMachine,
) -> PyResult<Option<i64>> {
    take_arg(args, i, name)
        .filter(|v| !vm.is_none(v))
        .map(|v| int_arg(&v, vm))
        .transpose()
}

/// The `i`th positional argument or keyword `name` where it is a tensor.
fn tensor_bound(args: &FuncArgs, i: usize, name: &str) -> Option<PyObjectRef> {
    args.kwargs
        .get(name)
        .or_else(|| args.args.get(i))
        .filter(|v| v.downcast_ref::<PyTensor>().is_some())
        .cloned()
}

/// `clamp(min, max)`'s tensor overload: `None` when neither bound is a
/// tensor (the number overload), else the bounds as tensors. A tensor with
/// a number matches neither of PyTorch's overloads.
#[allow(clippy::type_complexity)]
fn tensor_bounds(
    args: &mut FuncArgs,
    op: &str,
    vm: &VirtualMachine,
) -> PyResult<Option<(Option<Tensor>, Option<Tensor>)>> {
    if tensor_bound(args, 0, "min").is_none() && tensor_bound(args, 1, "max").is_none() {
        return Ok(None);
    }
    let keywords = !args.kwargs.is_empty();
    let min = take_arg(args, 0, "min").filter(|v| !vm.is_none(v));
    let max = take_arg(args, 1, "max").filter(|v| !vm.is_none(v));
    let bound = |v: Option<PyObjectRef>| v.map(|v| crate::tensor::tensor_arg(&v, vm));
    match (
        bound(min.clone()).transpose(),
        bound(max.clone()).transpose(),
    ) {
        (Ok(lo), Ok(hi)) => Ok(Some((lo, hi))),
        _ => {
            let name = |v: &PyObjectRef| match v.downcast_ref::<PyTensor>() {
                Some(_) => "Tensor".to_string(),
                None => v.class().name().to_string(),
            };
            let given: Vec<(&str, PyObjectRef)> = [("min", min), ("max", max)]
                .into_iter()
                .filter_map(|(k, v)| v.map(|v| (k, v)))
                .collect();
            let (got, why) = if keywords {
                let mut named: Vec<_> = given
                    .iter()
                    .map(|(k, v)| format!("{k}={}, ", name(v)))
                    .collect();
                named.sort();
                let mut keys: Vec<_> = given.iter().map(|(k, _)| *k).collect();
                keys.sort_unstable();
                (
                    named.concat(),
                    format!("some of the keywords were incorrect: {}", keys.join(", ")),
                )
            } else {
                let names: Vec<_> = given.iter().map(|(_, v)| name(v)).collect();
                let marked: Vec<_> = names.iter().map(|n| format!("!{n}!")).collect();
                (
                    names.join(", "),
                    format!(
                        "some of the arguments have invalid types: ({})",
                        marked.join(", ")
                    ),
                )
            };
            Err(vm.new_type_error(format!(
                "{op}() received an invalid combination of arguments - got ({got}), but expected one of:\n \
                 * (Tensor min = None, Tensor max = None)\n      didn't match because {why}\n \
                 * (Number min = None, Number max = None)\n      didn't match because {why}\n"
            )))
        }
    }
}

fn opt_scalar(
    args: &mut FuncArgs,
    i: usize,
    name: &str,
    vm: &VirtualMachine,
) -> PyResult<Option<gradscope_core::Scalar>> {
    let Some(v) = take_arg(args, i, name).filter(|v| !vm.is_none(v)) else {
        return Ok(None);
    };
    match convert::scalar(&v, vm)? {
        Some(convert::Scalar::Float(f)) => Ok(Some(gradscope_core::Scalar::Float(f))),
        Some(convert::Scalar::Int(i)) => Ok(Some(gradscope_core::Scalar::Int(i))),
        Some(convert::Scalar::Bool(b)) => Ok(Some(gradscope_core::Scalar::Int(i64::from(b)))),
        None => Err(convert::expected("Number", &v, vm)),
    }
}

/// `var`/`std(dim=None, *, correction=1, keepdim=False)`, with the older
/// `unbiased=` spelling.
fn statistic(t: &Tensor, args: &mut FuncArgs, vm: &VirtualMachine, op: Statistic) -> PyResult {
    let dims = take_arg(args, 0, "dim")
        .filter(|d| !vm.is_none(d))
        .map(|d| dims_arg(&d, vm))
        .transpose()?;
    let mut correction = 1.0;
    if let Some(u) = args.kwargs.swap_remove("unbiased") {
        correction = if u.try_to_bool(vm)? { 1.0 } else { 0.0 };
    }
    if let Some(c) = args.kwargs.swap_remove("correction") {
        correction = c.try_float(vm)?.to_f64();
    }
    let keepdim = args
        .kwargs
        .swap_remove("keepdim")
        .or_else(|| args.kwargs.swap_remove("keepdims"))
        .map_or(Ok(false), |k| k.try_to_bool(vm))?;
    wrap_result(op(t, dims.as_deref(), correction, keepdim), vm)
}

fn pair(result: Result<(Tensor, Tensor)>, vm: &VirtualMachine) -> PyResult {
    let (a, b) = result.py(vm)?;
    let items = vec![crate::tensor::wrap(a, vm), crate::tensor::wrap(b, vm)];
    Ok(vm.ctx.new_tuple(items).into())
}

fn tensors(result: Result<Vec<Tensor>>, vm: &VirtualMachine) -> PyResult {
    let items = result
        .py(vm)?
        .into_iter()
        .map(|t| crate::tensor::wrap(t, vm))
        .collect();
    Ok(vm.ctx.new_tuple(items).into())
}
