"""The torch side of the NumPy bridge: `torch.from_numpy`, `Tensor.numpy()`,
`torch.tensor(ndarray)` and `torch.as_tensor(ndarray)`, as PyTorch has them.

gradscope's `numpy` arrays hold engine tensors, so sharing memory is handing
the same storage over: `from_numpy` and `numpy()` return views of it (an
in-place change on one shows in the other); `torch.tensor` copies. Nothing
here imports `numpy`: an array can only exist once a program has imported
it, so the checks look in `sys.modules` and cost nothing before.
"""

import sys

import _gradscope as _C


def _ndarray_type():
    np = sys.modules.get("numpy")
    return getattr(np, "ndarray", None) if np is not None else None


def _is_ndarray(x):
    nd = _ndarray_type()
    return nd is not None and isinstance(x, nd)


def _has_arrays(data):
    """Whether a list or tuple holds NumPy arrays or NumPy bools (the engine reads neither)."""
    nd = _ndarray_type()
    if nd is None:
        return False
    np_bool = sys.modules["numpy"].bool_
    stack = [data]
    while stack:
        seq = stack.pop()
        for item in seq:
            if isinstance(item, (nd, np_bool)):
                return True
            if isinstance(item, (list, tuple)):
                stack.append(item)
            else:
                break
    return False


def _plain(data):
    """Nested lists of Python numbers for data holding arrays."""
    nd = _ndarray_type()
    np_bool = sys.modules["numpy"].bool_
    if isinstance(data, nd):
        return data.tolist()
    if isinstance(data, np_bool):
        return bool(data)
    if isinstance(data, (list, tuple)):
        return [_plain(x) for x in data]
    return data


def _scalar_dtype(data):
    """The dtype PyTorch gives NumPy scalar data (since 1.5 `torch.tensor(np.float64(x))`
    is float64, not the default dtype): that of a NumPy float64 or float32 scalar
    standing first in the data (a list's first leaf, so a long list is not
    walked in Python), else None for the engine's own inference."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    while isinstance(data, (list, tuple)) and data:
        data = data[0]
    if type(data) is np.float64:
        return _C.float64
    if type(data) is np.float32:
        return _C.float32
    return None


_LIST_OF_ARRAYS_WARNING = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the list to a "
    "single numpy.ndarray with numpy.array() before converting to a tensor. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:249.)"
)


_warned_list_of_arrays = False


def _from_sequence(data, kwargs):
    """Plain data and the dtype PyTorch infers for a list holding arrays: the
    promotion of the arrays' dtypes (float64 arrays make a float64 tensor);
    PyTorch's slow-path warning when the list's first item is an array."""
    global _warned_list_of_arrays
    nd = _ndarray_type()
    if isinstance(data[0], nd):
        if not _warned_list_of_arrays:
            # TORCH_WARN_ONCE: once per process.
            import warnings

            _warned_list_of_arrays = True
            warnings.warn(_LIST_OF_ARRAYS_WARNING, UserWarning, stacklevel=3)
        for item in data:
            if isinstance(item, nd) and item.ndim == 0:
                raise TypeError("len() of unsized object")
    if "dtype" not in kwargs:
        dtype = None
        stack = [data]
        while stack:
            for item in stack.pop():
                if isinstance(item, nd):
                    d = _torch_dtype(item) or item._t.dtype
                    dtype = d if dtype is None else sys.modules["torch"].promote_types(dtype, d)
                elif isinstance(item, (list, tuple)):
                    stack.append(item)
        if dtype is not None:
            kwargs["dtype"] = dtype
    return _plain(data)


# NumPy's narrow integer arrays, which the runtime's NumPy holds in int64
# tensors, and the engine dtype PyTorch gives them.
_NARROW = {"int32": _C.int32, "int16": _C.int16, "int8": _C.int8, "uint8": _C.uint8}


def _torch_dtype(ndarray):
    """The dtype PyTorch gives a tensor of this array, where the engine
    tensor under it holds another (a narrow integer array in int64)."""
    return _NARROW.get(getattr(ndarray._dtype, "name", None))


def from_numpy(ndarray):
    """`torch.from_numpy`: a tensor sharing the array's memory; for an
    int32/int16/int8/uint8 array, a tensor of that dtype, which is a copy
    (the runtime's NumPy holds those arrays in int64)."""
    if not _is_ndarray(ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    t = ndarray._t.detach()
    dtype = _torch_dtype(ndarray)
    return t if dtype is None or t.dtype == dtype else t.to(dtype)


def accept_arrays():
    """Lets the engine's tensor constructor read NumPy arrays, so that what
    builds tensors through it (`torch.FloatTensor(a)`, `torch.Tensor(a)`)
    takes arrays as PyTorch does. `numpy` calls this when it is imported,
    so programs without NumPy keep the engine's constructor untouched."""
    engine_tensor = _C.tensor
    if getattr(engine_tensor, "_reads_arrays", False):
        return

    def tensor(data, *args, **kwargs):
        if _is_ndarray(data):
            data = data._t
        elif isinstance(data, (list, tuple)) and data and _has_arrays(data):
            data = _plain(data)
        return engine_tensor(data, *args, **kwargs)

    tensor._reads_arrays = True
    tensor.__name__ = tensor.__qualname__ = "tensor"
    tensor.__doc__ = engine_tensor.__doc__
    _C.tensor = tensor


def install(namespace):
    """Adds the bridge to the `torch` module's namespace and to `Tensor`."""
    Tensor = namespace["Tensor"]
    engine_tensor = namespace["tensor"]
    engine_as_tensor = namespace["as_tensor"]

    def tensor(data, *args, **kwargs):
        if _is_ndarray(data):
            if "dtype" not in kwargs and _torch_dtype(data) is not None:
                kwargs["dtype"] = _torch_dtype(data)
            data = data._t
        elif isinstance(data, (list, tuple)) and data and _has_arrays(data):
            data = _from_sequence(data, kwargs)
        elif "dtype" not in kwargs:
            dtype = _scalar_dtype(data)
            if dtype is not None:
                kwargs["dtype"] = dtype
        return engine_tensor(data, *args, **kwargs)

    tensor.__name__ = tensor.__qualname__ = "tensor"
    tensor.__module__ = "torch"
    tensor.__doc__ = engine_tensor.__doc__

    def as_tensor(data, dtype=None, device=None):
        if _is_ndarray(data):
            data = from_numpy(data)
        elif isinstance(data, (list, tuple)) and data and _has_arrays(data):
            data = _plain(data)
        return engine_as_tensor(data, dtype=dtype, device=device)

    as_tensor.__name__ = as_tensor.__qualname__ = "as_tensor"
    as_tensor.__module__ = "torch"

    def numpy(self, *, force=False):
        """`Tensor.numpy()`: an array sharing this tensor's memory."""
        if self.requires_grad and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        device = str(self.device)
        if device != "cpu":
            if not force:
                raise TypeError(
                    f"can't convert {device} device type tensor to numpy. Use Tensor.cpu() to copy "
                    "the tensor to host memory first."
                )
            self = self.cpu()
        import numpy as np
        from numpy._dtype import from_torch
        from numpy._ndarray import _wrap

        del np
        t = self.detach()
        narrow = {v: k for k, v in _NARROW.items()}.get(t.dtype)
        if narrow is not None:
            # NumPy holds narrow integers in int64 tensors: a copy, labelled.
            from numpy._dtype import _as_dtype

            return _wrap(t.to(_C.int64), _as_dtype(narrow))
        return _wrap(t, from_torch(t.dtype))

    def __array__(self, dtype=None, copy=None):
        a = numpy(self)
        return a if dtype is None else a.astype(dtype)

    Tensor.numpy = numpy
    Tensor.__array__ = __array__
    namespace["from_numpy"] = from_numpy
    namespace["tensor"] = tensor
    namespace["as_tensor"] = as_tensor
