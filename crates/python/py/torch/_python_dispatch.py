"""Tensor subclasses that take over their own ops: `__torch_function__`
(the classmethod PyTorch calls with the public function or method) and
`__torch_dispatch__` (called with the `torch.ops.aten` overload) on
`torch.Tensor._make_wrapper_subclass` wrappers.

A wrapper owns no data: its engine tensor is a meta tensor of the shape,
dtype and requires_grad given (so shape, dtype, strides and autograd
flags are its own, and it counts no memory), its device is remembered
beside it. gradscope has no dispatcher, so the routing is done per class:
every `Tensor` subclass a program defines (when it is defined; torch's own
and those opted out with `_disabled_torch_function_impl`, as
`nn.Parameter` is, are not) and every wrapper class gets, for each public
`Tensor` method and operator it does not define itself, a method that

1. calls the `__torch_function__` of the subclasses among its arguments
   unless `torch._C.DisableTorchFunctionSubclass` is active (`Tensor`'s
   default one runs the method and gives tensor results back as the
   subclass), `func` being `torch.Tensor.<name>` (for the methods written
   in Rust, a stand-in that compares and hashes equal to it: `func ==
   torch.Tensor.add` holds, `func is torch.Tensor.add` does not);
2. otherwise, on a wrapper, calls `cls.__torch_dispatch__(op, types, args,
   kwargs)` with the aten overload PyTorch's dispatcher would reach
   (`t.bfloat16()` is `aten._to_copy.default` with `dtype=`, `t + 1`
   `aten.add.Tensor`, `t[0]` `aten.select.int`);
3. otherwise runs the method itself.

The functions of `torch` and `torch.nn.functional` are routed too, from
the first routed class of a program on (a program without one keeps the
functions as they are, and each program starts with them so): a call with
an instance of a routed class among its arguments (or in a list or tuple
argument) calls `__torch_function__` with the function (`func is
torch.add`), and a `torch` function on a wrapper dispatches
`aten.<name>` with the arguments as given. A name bound before the first
routed class (`from torch import add`) is not routed.

What differs from PyTorch: `nn.functional` functions on a wrapper reach
`__torch_function__` but not `__torch_dispatch__` (PyTorch decomposes them
into aten ops first: `F.linear` is `aten.t` and `aten.addmm`); autograd
does not record through `__torch_dispatch__` results; size, stride, dim,
numel and dtype queries are answered from the wrapper without dispatch, as
PyTorch's default `dispatch_sizes_strides_policy` does.
"""

import _gradscope as _C

import torch

_DEVICE_KEY = "_gradscope_wrapper_device"
_STRIDES_KEY = "_gradscope_wrapper_strides"
_OFFSET_KEY = "_gradscope_wrapper_storage_offset"

# How many `DisableTorchFunctionSubclass` / `DisableTorchFunction` blocks
# are open.
_disabled = [0, 0]


class DisableTorchFunctionSubclass:
    """`torch._C.DisableTorchFunctionSubclass()`: inside, methods of
    subclasses run without calling `__torch_function__`."""

    __module__ = "torch._C"

    def __enter__(self):
        _disabled[0] += 1
        return self

    def __exit__(self, *exc):
        _disabled[0] -= 1
        return False


class DisableTorchFunction:
    """`torch._C.DisableTorchFunction()`: `__torch_function__` is off for
    subclasses and modes alike."""

    __module__ = "torch._C"

    def __enter__(self):
        _disabled[1] += 1
        return self

    def __exit__(self, *exc):
        _disabled[1] -= 1
        return False


def is_torch_function_enabled():
    return _disabled[0] == 0 and _disabled[1] == 0


def is_wrapper(t):
    """Whether `t` was made by `_make_wrapper_subclass`."""
    try:
        return _DEVICE_KEY in object.__getattribute__(t, "__dict__")
    except AttributeError:
        return False


def wrapper_device(t):
    return object.__getattribute__(t, "__dict__")[_DEVICE_KEY]


def _default_dispatch(cls):
    return getattr(cls.__torch_dispatch__, "__func__", None) is getattr(
        torch.Tensor.__torch_dispatch__, "__func__", None
    )


def disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """`torch._C._disabled_torch_function_impl`: as a class's
    `__torch_function__`, it opts the class out of the protocol."""
    with DisableTorchFunctionSubclass():
        return func(*args, **({} if kwargs is None else kwargs))


def opted_out(cls):
    """Whether `cls` takes no part in `__torch_function__` (`Tensor`
    itself, or `__torch_function__ = _disabled_torch_function_impl`, as
    `nn.Parameter` has it)."""
    if cls is torch.Tensor:
        return True
    tf = getattr(cls, "__torch_function__", None)
    return getattr(tf, "__func__", tf) is disabled_torch_function_impl


def overloaded_types(values):
    """The types among `values` that take part in `__torch_function__`, in
    the order PyTorch calls them: left to right, except that a subclass
    goes before the first of its bases already listed."""
    types = []
    for v in values:
        t = type(v)
        if t in types or opted_out(t):
            continue
        index = next((i for i, old in enumerate(types) if issubclass(t, old)), len(types))
        types.insert(index, t)
    return types


_plain_method_warned = [False]


def _user_stacklevel():
    """The `stacklevel` that attributes a warning to the first frame
    outside gradscope's own modules (the program's line), as a warning
    PyTorch raises in C++ is attributed."""
    import sys

    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith("<gradscope"):
        frame, level = frame.f_back, level + 1
    return level


def call_overloads(func, types, values, args, kwargs):
    """Each of `types`' `__torch_function__` in turn until one does not
    return `NotImplemented`; its result, or `NotImplemented`. A
    `__torch_function__` written as a plain method (not a classmethod) is
    called on the first instance among `values`, after PyTorch's one-time
    deprecation warning."""
    for cls in types:
        raw = next((k.__dict__["__torch_function__"] for k in cls.__mro__ if "__torch_function__" in k.__dict__),
                   None)
        if raw is None or isinstance(raw, (classmethod, staticmethod)):
            result = cls.__torch_function__(func, types, args, kwargs)
        else:
            if not _plain_method_warned[0]:
                _plain_method_warned[0] = True
                import warnings

                warnings.warn(
                    "Defining your `__torch_function__` as a plain method is deprecated and will be an error in "
                    "future, please define it as a classmethod. (Triggered internally at "
                    "/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:359.)",
                    UserWarning,
                    stacklevel=_user_stacklevel(),
                )
            instance = next(v for v in values if type(v) is cls)
            result = instance.__torch_function__(func, types, args, kwargs)
        if result is not NotImplemented:
            return result
    return NotImplemented


def _failed_dispatch(func, types):
    """PyTorch's TypeError when every `__torch_function__` returned
    `NotImplemented`: its dispatcher's message for the functions it
    implements natively (`torch.mul`, `torch.Tensor.mul`), Python's
    `handle_torch_function` message for those written in Python
    (`torch.nn.functional.relu`)."""
    name = getattr(func, "__name__", str(func))
    module = getattr(func, "__module__", None) or ""
    if isinstance(func, _TensorMethod) or getattr(func, "__qualname__", "").startswith("Tensor."):
        qualified = f"torch.Tensor.{name}"
    elif module.startswith("torch.nn.functional"):
        from .fx._symbolic_trace import _NATIVE_FUNCTIONAL

        if name not in _NATIVE_FUNCTIONAL:
            return TypeError(f"no implementation found for 'torch.nn.functional.{name}' on types that implement "
                             f"__torch_function__: {list(types)}")
        qualified = f"torch.{name}" if name in vars(torch) else f"torch.nn.{name}"
    else:
        qualified = f"torch.{name}"
    handlers = "".join(f"  - tensor subclass {t}\n" for t in types)
    return TypeError(f"Multiple dispatch failed for '{qualified}'; all __torch_function__ handlers returned "
                     f"NotImplemented:\n\n{handlers}\nFor more information, try re-running with "
                     "TORCH_LOGS=not_implemented")


def handle(func, found, args, kwargs):
    """`func(*args, **kwargs)` through the `__torch_function__` of the
    types among `found` that take part, subclasses before their bases,
    until one does not return `NotImplemented`."""
    types = tuple(overloaded_types(found))
    result = call_overloads(func, types, found, args, kwargs)
    if result is NotImplemented:
        raise _failed_dispatch(func, types)
    return result


def _takes_part(cls):
    """Whether `cls`, a program's class that is no `Tensor`, defines
    `__torch_function__` (and so takes part in the protocol, as any such
    type does in PyTorch). torch's own such classes (fx's `Proxy`) register
    as their first instance is made instead: defining them, as importing
    `torch.fx` does, must not route a program's functions."""
    module = getattr(cls, "__module__", None)
    module = module if isinstance(module, str) else ""
    if module == "torch" or module.startswith("torch."):
        return False
    return not issubclass(cls, torch.Tensor) and hasattr(cls, "__torch_function__") and not opted_out(cls)


def _watch_class_definitions():
    """Registers each class a program defines that is no `Tensor` but has
    `__torch_function__` (PyTorch's "Tensor-like" types, such as the
    `ScalarTensor` of its extending notes) as it is defined, so that
    `torch`'s functions route its instances. PyTorch checks every argument
    of every call for the attribute; gradscope keeps calls without such
    types free of that check by learning of the types up front."""
    import builtins

    original = builtins.__build_class__
    if getattr(original, "_gradscope_watch", False):
        return

    def build_class(func, name, *bases, **kwargs):
        cls = original(func, name, *bases, **kwargs)
        if isinstance(cls, type) and _takes_part(cls):
            install_function_type(cls)
        return cls

    build_class._gradscope_watch = True
    build_class.__wrapped__ = original
    builtins.__build_class__ = build_class


def make_wrapper_subclass(cls, size, strides=None, storage_offset=None, memory_format=None, dtype=None,
                          layout=None, device=None, pin_memory=False, requires_grad=False,
                          dispatch_sizes_strides_policy=None, dispatch_device=False, dispatch_layout=False,
                          _extra_dispatch_keys=None, storage_size=None):
    """`torch.Tensor._make_wrapper_subclass`: an instance of `cls` with the
    metadata given and no data of its own."""
    if not (isinstance(cls, type) and issubclass(cls, torch.Tensor)):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    if _default_dispatch(cls):
        raise TypeError(f"{cls.__name__} must define __torch_dispatch__")
    if dtype is None:
        dtype = torch.get_default_dtype()
    if getattr(dtype, "refuse", None) is not None:
        dtype.refuse()
    device = torch.device("cpu") if device is None else torch.device(device)
    meta = _C.TensorBase._meta([int(s) for s in size], dtype)
    out = _C.TensorBase._make_subclass(cls, meta, bool(requires_grad))
    own = object.__getattribute__(out, "__dict__")
    own[_DEVICE_KEY] = device
    if strides is not None:
        own[_STRIDES_KEY] = tuple(int(s) for s in strides)
    own[_OFFSET_KEY] = int(storage_offset or 0)
    install(cls)
    return out


def _layout_methods():
    """`stride`, `storage_offset` and `is_contiguous` answering a
    wrapper's own layout (what `_make_wrapper_subclass` was given)."""

    def stride(self, dim=None):
        strides = object.__getattribute__(self, "__dict__").get(_STRIDES_KEY) if is_wrapper(self) else None
        if strides is None:
            return torch.Tensor.stride(self, dim)
        return strides if dim is None else strides[dim]

    def storage_offset(self):
        if is_wrapper(self):
            return object.__getattribute__(self, "__dict__").get(_OFFSET_KEY, 0)
        return torch.Tensor.storage_offset(self)

    def is_contiguous(self, memory_format=None):
        if is_wrapper(self):
            expected = torch._meta.contiguous_strides(self.shape)
            return all(s == e for s, e, n in zip(self.stride(), expected, self.shape) if n > 1)
        return torch.Tensor.is_contiguous(self) if memory_format is None else \
            torch.Tensor.is_contiguous(self, memory_format=memory_format)

    return {"stride": stride, "storage_offset": storage_offset, "is_contiguous": is_contiguous}


# Methods answered from the tensor itself, never dispatched (PyTorch reads
# them off the TensorImpl), and methods whose own body calls routed ones.
_NOT_ROUTED = frozenset({
    "size", "stride", "dim", "ndimension", "numel", "nelement", "element_size", "is_floating_point",
    "is_complex", "is_signed", "storage_offset", "requires_grad_", "get_device", "backward",
    "register_hook", "retain_grad", "module_load", "type", "storage", "untyped_storage",
    "register_post_accumulate_grad_hook", "is_contiguous", "data_ptr", "as_subclass", "name", "layout",
})

# Operators as the aten overloads PyTorch's dispatcher reaches. An entry
# maps a method to (aten name, overload for a tensor operand, overload for
# a Python number); a reflected operator (`1 + w`) passes the tensor first.
_OPERATORS = {
    "__add__": ("add", "Tensor", "Tensor"), "__radd__": ("add", "Tensor", "Tensor"),
    "add": ("add", "Tensor", "Tensor"), "__iadd__": ("add_", "Tensor", "Tensor"),
    "__sub__": ("sub", "Tensor", "Tensor"), "sub": ("sub", "Tensor", "Tensor"),
    "__rsub__": ("rsub", "Tensor", "Scalar"),
    "__mul__": ("mul", "Tensor", "Tensor"), "__rmul__": ("mul", "Tensor", "Tensor"),
    "mul": ("mul", "Tensor", "Tensor"), "__imul__": ("mul_", "Tensor", "Tensor"),
    "__truediv__": ("div", "Tensor", "Tensor"), "div": ("div", "Tensor", "Tensor"),
    "__matmul__": ("mm", "default", "default"), "matmul": ("mm", "default", "default"),
    "mm": ("mm", "default", "default"),
    "__pow__": ("pow", "Tensor_Tensor", "Tensor_Scalar"), "pow": ("pow", "Tensor_Tensor", "Tensor_Scalar"),
    "__eq__": ("eq", "Tensor", "Scalar"), "eq": ("eq", "Tensor", "Scalar"),
    "__ne__": ("ne", "Tensor", "Scalar"), "ne": ("ne", "Tensor", "Scalar"),
    "__lt__": ("lt", "Tensor", "Scalar"), "lt": ("lt", "Tensor", "Scalar"),
    "__le__": ("le", "Tensor", "Scalar"), "le": ("le", "Tensor", "Scalar"),
    "__gt__": ("gt", "Tensor", "Scalar"), "gt": ("gt", "Tensor", "Scalar"),
    "__ge__": ("ge", "Tensor", "Scalar"), "ge": ("ge", "Tensor", "Scalar"),
    "__neg__": ("neg", "default", "default"), "__abs__": ("abs", "default", "default"),
}
# Methods PyTorch dispatches under another overload than `.default`.
_OVERLOADS = {"select": "int", "transpose": "int", "view": "default", "sum": "default", "mean": "default",
              "max": "default", "min": "default", "reshape": "default", "expand": "default",
              "copy_": "default", "fill_": "Scalar", "add_": "Tensor", "mul_": "Tensor", "sub_": "Tensor",
              "div_": "Tensor", "zero_": "default", "t": "default", "contiguous": "default"}
# Conversions: PyTorch's `to` returns the tensor itself when nothing
# changes, else dispatches `aten._to_copy.default` with what changes.
_CONVERSIONS = {"float": "float32", "double": "float64", "bfloat16": "bfloat16", "half": "float16",
                "long": "int64", "int": "int32", "short": "int16", "char": "int8", "byte": "uint8",
                "bool": "bool"}

# The `func` PyTorch hands `__torch_function__` for an operator: `t + 1`
# and `1 + t` are `Tensor.add`, `t < 1` is `Tensor.lt`.
_OPERATOR_FUNCS = {"__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul", "__rmul__": "mul",
                   "__truediv__": "div", "__neg__": "neg", "__abs__": "abs", "__matmul__": "matmul", "__pow__": "pow",
                   "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge"}
# Methods whose sizes PyTorch passes as one list (`view(2, 3)` is `view.default(t, [2, 3])`).
_SIZE_METHODS = frozenset({"view", "reshape", "expand", "permute", "repeat", "new_zeros", "new_ones",
                           "new_empty", "tile"})

_routed_classes = set()


class _TensorMethod:
    """`func` for a `Tensor` method written in Rust: equal to (and hashing
    as) `torch.Tensor.<name>`, and calling it dispatches a wrapper."""

    __slots__ = ("_name", "_method")

    def __init__(self, name):
        self._name = name
        self._method = getattr(torch.Tensor, name)

    @property
    def __name__(self):
        return self._name

    def __eq__(self, other):
        if isinstance(other, _TensorMethod):
            return other._name == self._name
        return other is self._method or other == self._method

    def __hash__(self):
        return hash(self._method)

    def __repr__(self):
        return repr(self._method)

    def __call__(self, *args, **kwargs):
        if args and is_wrapper(args[0]):
            return _dispatch(self._name, args[0], args[1:], kwargs)
        return self._method(*args, **kwargs)


_COMPOSITE = frozenset({"module_load"})
_methods = {}


def _func_for(name):
    func = _methods.get(name)
    if func is None:
        method = getattr(torch.Tensor, name)
        func = method if name in _COMPOSITE else _TensorMethod(name)
        _methods[name] = func
    return func


def _types_of(values):
    seen = []
    for v in values:
        if isinstance(v, torch.Tensor) and type(v) is not torch.Tensor and type(v) not in seen:
            seen.append(type(v))
    return tuple(seen)


def call_method(name, self, args, kwargs):
    """A routed method's body: `__torch_function__`, else dispatch, else the method."""
    if is_torch_function_enabled() and not opted_out(type(self)):
        func = _func_for(_OPERATOR_FUNCS.get(name, name))
        args = (self,) + tuple(args)
        found = _routed_args(args, kwargs) or [self]
        if name.startswith("__") and name.endswith("__"):
            # An operator whose handlers all decline gives Python's
            # NotImplemented, so `s * 2` raises "unsupported operand
            # type(s)" as in PyTorch.
            return call_overloads(func, tuple(overloaded_types(found)), found, args, dict(kwargs))
        return handle(func, found, args, dict(kwargs))
    if is_wrapper(self):
        return _dispatch(name, self, args, kwargs)
    return getattr(torch.Tensor, name)(self, *args, **kwargs)


def _aten(name, overload):
    return getattr(getattr(torch.ops.aten, name), overload)


def _conversion(self, name, args, kwargs):
    """The `_to_copy` kwargs a conversion asks for, or None when it keeps
    the tensor as it is."""
    if name in _CONVERSIONS:
        dtype = getattr(torch, _CONVERSIONS[name])
        if getattr(dtype, "refuse", None) is not None:
            dtype.refuse()
        return {"dtype": dtype} if dtype != self.dtype else None
    dtype, device = kwargs.get("dtype"), kwargs.get("device")
    for arg in args:
        if isinstance(arg, torch.dtype):
            dtype = arg
        elif isinstance(arg, torch.Tensor):
            dtype, device = arg.dtype, arg.device
        elif isinstance(arg, (str, torch.device)):
            device = arg
    changes = {}
    if dtype is not None and dtype != self.dtype:
        changes["dtype"] = dtype
    if device is not None and torch.device(device) != self.device:
        changes["device"] = torch.device(device)
    return changes or None


def _dispatch(name, self, args, kwargs):
    """`name` on a wrapper as its class's `__torch_dispatch__` sees it."""
    cls = type(self)
    args = tuple(args)
    if name in _CONVERSIONS or name == "to":
        changes = _conversion(self, name, args, kwargs)
        if changes is None:
            return self
        op, args, kwargs = _aten("_to_copy", "default"), (self,), changes
    elif name in _OPERATORS:
        aten_name, tensor_overload, number_overload = _OPERATORS[name]
        other = args[0] if args else None
        overload = tensor_overload if other is None or isinstance(other, torch.Tensor) else number_overload
        op, args = _aten(aten_name, overload), (self,) + args
    elif name == "__getitem__":
        index = args[0]
        if isinstance(index, int) and not isinstance(index, bool):
            op, args = _aten("select", "int"), (self, 0, index)
        elif isinstance(index, slice):
            op, args = _aten("slice", "Tensor"), (self, 0, index.start, index.stop, index.step or 1)
        else:
            op, args = _aten("index", "Tensor"), (self, [index])
    else:
        if name in _SIZE_METHODS and not (len(args) == 1 and isinstance(args[0], (tuple, list))):
            args = (list(args),)
        elif name in _SIZE_METHODS:
            args = (list(args[0]),)
        op, args = _aten(name, _OVERLOADS.get(name, "default")), (self,) + args
    types = _types_of(args) or (cls,)
    return cls.__torch_dispatch__(op, types, args, dict(kwargs))


def _routed(name):
    def method(self, *args, **kwargs):
        return call_method(name, self, args, kwargs)

    method.__name__ = method.__qualname__ = name
    return method


def _data_property():
    def get(self):
        if is_torch_function_enabled() and not opted_out(type(self)):
            return call_method("detach", self, (), {})
        if is_wrapper(self):
            return _dispatch("detach", self, (), {})
        return _C.TensorBase.data.__get__(self)

    def set(self, value):
        set_data(self, value)

    return property(get, set)


# Functions PyTorch does not hand to `__torch_function__`
# (`torch.overrides.get_ignored_functions`), among those gradscope has.
_IGNORED_FUNCTIONS = frozenset({
    "is_tensor", "is_storage", "typename", "save", "load", "manual_seed", "seed", "initial_seed",
    "set_printoptions", "get_default_dtype", "set_default_dtype", "get_default_device", "set_default_device",
    "is_grad_enabled", "set_grad_enabled", "is_inference_mode_enabled", "compile", "from_numpy",
    "use_deterministic_algorithms", "are_deterministic_algorithms_enabled", "set_num_threads",
    "get_num_threads", "promote_types", "can_cast", "get_rng_state", "set_rng_state", "set_anomaly_enabled",
    "is_anomaly_enabled", "tensor", "as_tensor", "zeros", "ones", "empty", "full", "rand", "randn", "randint",
    "arange", "linspace", "logspace", "eye", "randperm", "set_default_tensor_type",
})
# Functions answered from a wrapper's own metadata.
_NOT_DISPATCHED = _NOT_ROUTED | {"is_same_size", "is_nonzero"}
# name: (module, function as it was before routing).
_original_functions = {}


def _routed_args(args, kwargs):
    found = []
    for value in list(args) + list(kwargs.values()):
        if type(value) in _routed_classes:
            found.append(value)
        elif type(value) in (list, tuple):
            found.extend(v for v in value if type(v) in _routed_classes)
    return found


def _routed_function(name, fn, dispatches):
    def function(*args, **kwargs):
        found = _routed_args(args, kwargs) if _routed_classes else ()
        if not found:
            return fn(*args, **kwargs)
        if is_torch_function_enabled() and any(not opted_out(type(v)) for v in found):
            if not dispatches:
                args, kwargs = _functional_arguments(name, fn, args, kwargs)
            return handle(function, found, args, kwargs)
        wrappers = [v for v in found if is_wrapper(v)]
        if wrappers and dispatches and name not in _NOT_DISPATCHED:
            entry = _OPERATORS.get(name)
            if entry is None:
                op = _aten(name, _OVERLOADS.get(name, "default"))
            else:
                other = args[1] if len(args) > 1 else None
                op = _aten(entry[0], entry[1] if other is None or isinstance(other, torch.Tensor) else entry[2])
            return type(wrappers[0]).__torch_dispatch__(op, _types_of(found), tuple(args), dict(kwargs))
        return fn(*args, **kwargs)

    function.__name__ = function.__qualname__ = getattr(fn, "__name__", name)
    function.__module__ = getattr(fn, "__module__", "torch")
    function.__doc__ = getattr(fn, "__doc__", None)
    function.__wrapped__ = fn
    function._gradscope_routed = fn
    return function


def original_function(fn):
    """The function a routed `torch`/`nn.functional` function stands for
    (`fn` itself when it is not one): what a graph records as the target."""
    return getattr(fn, "_gradscope_routed", fn)


def install_function_type(cls):
    """Routes `torch`'s and `nn.functional`'s functions for `cls`, a class
    that is no `Tensor` but defines `__torch_function__` (fx's `Proxy`):
    a call with an instance of it among its arguments (or in a list or
    tuple argument) calls `cls.__torch_function__`, as PyTorch's
    `handle_torch_function` does for any such type. Classes register as
    their first instance is made, so a program without one keeps the
    functions as they are."""
    if cls in _routed_classes:
        return
    _routed_classes.add(cls)
    _route_functions()


def _functional_arguments(name, fn, args, kwargs):
    """The arguments an `nn.functional` function written in Python hands
    `__torch_function__`, as its `handle_torch_function` call passes them:
    parameters without a default by position, the rest by keyword with
    defaults filled in (`F.relu(x)` gives `inplace=False`); the native
    ones (`F.linear`) pass them as called."""
    from .fx._symbolic_trace import _NATIVE_FUNCTIONAL, _as_functional_records

    if name in _NATIVE_FUNCTIONAL:
        return args, kwargs
    return _as_functional_records(fn, args, kwargs)


def _route_functions():
    """`torch`'s and `torch.nn.functional`'s functions, routed (once a
    program has a routed class)."""
    if _original_functions:
        return
    import types as _types

    import torch.nn.functional as F

    for module, dispatches in ((torch, True), (F, False)):
        for name, fn in list(vars(module).items()):
            if (name.startswith("_") or name in _IGNORED_FUNCTIONS or isinstance(fn, (type, _types.ModuleType))
                    or not callable(fn) or isinstance(fn, torch.dtype)):
                continue
            _original_functions[(module.__name__, name)] = (module, fn)
            setattr(module, name, _routed_function(name, fn, dispatches))


def new_process():
    """As a fresh `import torch` has it: functions unrouted, no routed
    class, `__torch_function__` enabled (the runtime calls this as each
    program starts)."""
    for (_, name), (module, fn) in _original_functions.items():
        setattr(module, name, fn)
    _original_functions.clear()
    _routed_classes.clear()
    _methods.clear()
    _disabled[0] = _disabled[1] = 0
    _plain_method_warned[0] = False


def install(cls):
    """Routes `cls`'s tensor methods (those it does not define itself)
    through `__torch_function__` and `__torch_dispatch__`, once."""
    if cls in _routed_classes:
        return
    _routed_classes.add(cls)
    _route_functions()
    own = set()
    for k in cls.__mro__:
        if k is torch.Tensor or k is _C.TensorBase or k is object:
            break
        own.update(vars(k))
    names = [n for n in dir(torch.Tensor) if not n.startswith("_") and n not in _NOT_ROUTED]
    names += list(_OPERATORS) + ["__getitem__"]
    for name in names:
        if name in own or name in ("data",):
            continue
        attr = getattr(torch.Tensor, name, None)
        if not callable(attr) or isinstance(attr, type):
            continue
        setattr(cls, name, _routed(name))
    if "data" not in own:
        cls.data = _data_property()
    for name, method in _layout_methods().items():
        if name not in own:
            setattr(cls, name, method)


def set_data(param, value):
    """`param.data = value`, as PyTorch's `set_data`: `param` (the same
    object, still a leaf with its `requires_grad`) takes `value`'s shape,
    dtype and values. Of the same shape and dtype, the values are copied
    into its storage; otherwise it takes `value`'s storage."""
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"data must be a Tensor, not {type(value).__name__}")
    same = (not is_wrapper(param) and not is_wrapper(value) and param.dtype == value.dtype
            and tuple(param.shape) == tuple(value.shape) and param.device == value.device)
    if same:
        _C.TensorBase.data.__set__(param, value)
        return
    requires_grad = _C.TensorBase.requires_grad.__get__(param)
    role_parameter = isinstance(param, torch.nn.Parameter)
    _C.TensorBase._replace(param, _C.TensorBase.detach(value))
    if requires_grad:
        _C.TensorBase.requires_grad_(param, True)
    if role_parameter:
        _C._set_memory_role(param, "parameter")
    params = object.__getattribute__(param, "__dict__")
    source = object.__getattribute__(value, "__dict__") if is_wrapper(value) else {}
    for key in (_DEVICE_KEY, _STRIDES_KEY, _OFFSET_KEY):
        if key in source:
            params[key] = source[key]
        else:
            params.pop(key, None)


def has_compatible_shallow_copy_type(a, b):
    """`torch._has_compatible_shallow_copy_type`: whether `a.data = b`
    keeps `a`'s kind (dense tensors on real devices together, wrappers
    together, meta with meta)."""
    if is_wrapper(a) or is_wrapper(b):
        return is_wrapper(a) and is_wrapper(b)
    return a.is_meta == b.is_meta


def is_traceable_wrapper_subclass(t):
    return is_wrapper(t) and hasattr(t, "__tensor_flatten__") and hasattr(t, "__tensor_unflatten__")


_watch_class_definitions()
