"""`np.ndarray`: a NumPy view of an engine tensor.

An array holds a detached CPU tensor and its NumPy dtype. Views (slices,
`reshape` where it can, `T`) are views of the tensor, so they share memory
as NumPy's do, and `torch.from_numpy` hands out the same storage.
"""

from ._cpu import torch

from . import _dtype as _d
from ._dtype import float64_dtype, int64_dtype, bool_dtype, int8_dtype, promote, weak_result

_Tensor = torch.Tensor


def _wrap(t, dt):
    a = object.__new__(ndarray)
    a._t = t
    a._dtype = dt
    return a


def _scalar(dt, value):
    return dt.type(value)


def _operand(other):
    """(tensor or Python number, dtype, weak) for the other side of an operator."""
    if isinstance(other, ndarray):
        return other._t, other._dtype, False
    strong = getattr(type(other), "_np_dtype", None)
    if strong is not None:
        return type(other)._py(other), strong, False
    if isinstance(other, (bool, int, float)):
        return other, None, True
    if isinstance(other, _Tensor):
        return None, None, None
    if isinstance(other, (list, tuple, range)):
        from ._creation import asarray

        arr = asarray(other)
        return arr._t, arr._dtype, False
    return None, None, None


def _cast(t, dt):
    td = dt._torch
    if t.dtype is td or t.dtype == td:
        return t
    return t.to(td)


def _result_dtype(mine, theirs, value):
    if theirs is not None:
        return promote(mine, theirs)
    return weak_result(mine, value)


def _binary(name, kind="arith"):
    """An operator method: NumPy promotion, then the engine's op."""
    method = getattr(_Tensor, name, None)
    simple = kind in ("arith", "div") and method is not None

    def op(self, other):
        # The common cases first: a float array with a Python float, or with
        # an array of its own dtype and shape, need no promotion or cast.
        if simple and self._dtype.kind == "f":
            if type(other) is float or (type(other) is _d.float64 and self._dtype is float64_dtype):
                return _wrap(method(self._t, float(other)), self._dtype)
            if type(other) is ndarray and other._dtype is self._dtype:
                try:
                    return _wrap(method(self._t, other._t), self._dtype)
                except RuntimeError:
                    pass  # shapes that do not broadcast: NumPy's error below
        value, theirs, weak = _operand(other)
        if weak is None:
            if isinstance(other, _Tensor):
                return _with_tensor(name, self, other)
            return NotImplemented
        rd = _result_dtype(self._dtype, theirs, value)
        if kind == "div" and rd.kind != "f":
            rd = float64_dtype
        if kind == "pow" and rd.kind in "iu" and _has_negative(value):
            raise ValueError("Integers to negative integer powers are not allowed.")
        a = _cast(self._t, rd)
        b = _cast(value, rd) if isinstance(value, _Tensor) else value
        if kind == "pow" and rd.kind == "f" and not isinstance(b, _Tensor) and b not in _POW_SHORTCUTS:
            # NumPy's power is C's pow except for these exponents; the
            # engine's scalar power multiplies out x**3 and others.
            b = _exponent(float(b), a.dtype, a.dim()) if a.dim() else b
            if not isinstance(b, _Tensor):
                import math

                return _d.float64(math.pow(float(a.item()), float(b))) if False else \
                    _wrap(torch.tensor(math.pow(float(a.item()), float(b)), dtype=a.dtype), rd)
        if rd is bool_dtype and kind != "cmp":
            return _bool_arithmetic(name, a, b)
        try:
            out = getattr(a, name)(b)
        except RuntimeError:
            if weak or value.shape == self._t.shape:
                raise
            raise (_broadcast_error(value.shape, self._t.shape) if name.startswith("__r") else
                   _broadcast_error(self._t.shape, value.shape)) from None
        if kind == "cmp":
            return _wrap(out, bool_dtype)
        return _wrap(_d.fit(out, rd), rd)

    op.__name__ = name
    return op


_POW_SHORTCUTS = (2, 2.0, 0.5, -1, -1.0, 1, 1.0, 0, 0.0)
_EXPONENTS = {}


def _exponent(value, dtype, ndim):
    """A (1,)*ndim tensor holding an exponent, kept: `x ** 3` in a loop makes it once."""
    key = (value, dtype, ndim)
    found = _EXPONENTS.get(key)
    if found is None:
        if len(_EXPONENTS) > 64:
            _EXPONENTS.clear()
        found = _EXPONENTS[key] = torch.full((1,) * ndim, value, dtype=dtype)
    return found

_SYMBOLS = {"sub": "-", "mul": "*", "floordiv": "//", "mod": "%", "pow": "** or pow()",
            "matmul": "@", "and": "&", "or": "|", "xor": "^"}
_CONCATENATION = ("Concatenation operation is not implemented for NumPy arrays, use np.concatenate() instead. "
                  "Please do not rely on this error; it may not be given on all Python implementations.")


def _tensor_array(t):
    """A tensor as NumPy reads it through `Tensor.__array__`: `t.numpy()`, so
    a tensor that requires grad or lives on the GPU is refused as PyTorch does."""
    return t.numpy()


def _tensor_result(result):
    """NumPy's result as the Tensor `Tensor.__array_wrap__` makes of it (0-dim for a scalar)."""
    if isinstance(result, ndarray):
        return result._t
    if result is NotImplemented:
        return result
    return torch.tensor(result.item(), dtype=result.dtype._torch)


def _with_tensor(name, array, t):
    """`array op tensor` and `tensor op array` as NumPy 2.4 and PyTorch 2.15 do them.

    A tensor's `__array_priority__` makes NumPy's operators step aside, and
    the tensor's own operators do not read arrays, so `tensor op array`
    reaches the array's reflected method: NumPy computes it with the tensor
    as an array (NumPy's promotion, float32 + int64 is float64) and the
    result comes back a Tensor (`Tensor.__array_wrap__`). `array op tensor`
    is a TypeError but for `/` (the tensor's `__rtruediv__` multiplies by its
    reciprocal) and `==`.
    """
    op = name.strip("_")
    if op.startswith("r"):
        return _tensor_result(getattr(_tensor_array(t), "__" + op[1:] + "__")(array))
    if op == "truediv":
        return _with_tensor("__rmul__", array, t.reciprocal())
    if op == "eq":
        return t == array._t
    if op == "add":
        raise TypeError(_CONCATENATION)
    if op in _SYMBOLS:
        raise TypeError(f"unsupported operand type(s) for {_SYMBOLS[op]}: 'numpy.ndarray' and 'Tensor'")
    return NotImplemented


def _bool_arithmetic(name, a, b):
    """NumPy's bool arithmetic: + is or, * is and, - is refused."""
    op = name.strip("_")
    op = op[1:] if op.startswith("r") else op
    if not isinstance(b, _Tensor):
        b = torch.tensor(bool(b))
    if op in ("add", "or"):
        return _wrap(a.logical_or(b), bool_dtype)
    if op in ("mul", "and"):
        return _wrap(a.logical_and(b), bool_dtype)
    if op == "xor":
        return _wrap(a.logical_xor(b), bool_dtype)
    if op == "sub":
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.")
    out = getattr(a.to(torch.int64), name)(b.to(torch.int64))
    return _wrap(out, int8_dtype if out.dtype == torch.int64 else _d.from_torch(out.dtype))


def _broadcast_error(a, b):
    def text(shape):
        return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"

    return ValueError(f"operands could not be broadcast together with shapes {text(a)} {text(b)} ")


def _has_negative(value):
    if isinstance(value, _Tensor):
        return value.dtype == torch.int64 and bool((value < 0).any())
    return isinstance(value, int) and value < 0


def _inplace(name, method):
    def op(self, other):
        value, theirs, weak = _operand(other)
        if weak is None:
            if isinstance(other, _Tensor) and method != "div_":
                # `a += t` is NumPy's concatenation refusal; `a /= t` falls
                # back to `a / t`, a Tensor, as with NumPy.
                if method == "add_":
                    raise TypeError(_CONCATENATION)
                sym = _SYMBOLS[method[:3]]
                raise TypeError(f"unsupported operand type(s) for {sym}=: 'numpy.ndarray' and 'Tensor'")
            return NotImplemented
        rd = _result_dtype(self._dtype, theirs, value)
        if method == "div_" and rd.kind != "f":
            rd = float64_dtype
        if rd is not self._dtype and not _can_cast_same_kind(rd, self._dtype):
            from ._ufuncs import UFuncTypeError

            raise UFuncTypeError(
                f"Cannot cast ufunc '{name}' output from {rd!r} to {self._dtype!r} with casting rule 'same_kind'"
            )
        b = _cast(value, rd) if isinstance(value, _Tensor) else value
        if rd is self._dtype:
            getattr(self._t, method)(b)
            if self._dtype in _d._WRAP_BITS or self._dtype is _d.float16_dtype:
                self._t.copy_(_d.fit(self._t, self._dtype))
        else:
            a = _cast(self._t, rd)
            result = getattr(a, method.rstrip("_"))(b)
            self._t.copy_(_convert(result, rd, self._dtype))
        return self

    op.__name__ = name
    return op


def _can_cast_same_kind(src, dst):
    order = {"b": 0, "u": 1, "i": 1, "f": 2}
    return order[src.kind] <= order[dst.kind]


def _index(key):
    """NumPy index -> engine index (arrays become tensors)."""
    if isinstance(key, tuple):
        return tuple(_index(k) for k in key)
    if isinstance(key, ndarray):
        return key._t
    if isinstance(key, _d.bool_):
        return bool(key)
    if isinstance(key, list) and key and any(isinstance(k, ndarray) for k in key):
        return [_index(k) for k in key]
    return key


def _negative_steps(key, shape):
    """For a basic index with a negative-step slice: (the same index with
    each such slice stepping forward over the same elements, the result's
    dims to flip); None when no slice steps backward."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in items):
        return None
    ndim = len(shape)
    consuming = sum(1 for k in items if k is not None and k is not Ellipsis)
    forward, dims = [], []
    axis = out = 0
    for k in items:
        if k is Ellipsis:
            span = ndim - consuming
            forward.append(k)
            axis += span
            out += span
        elif k is None:
            forward.append(k)
            out += 1
        elif isinstance(k, slice):
            if k.step is not None and k.step < 0:
                if axis >= ndim:
                    raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but "
                                     f"{consuming} were indexed")
                picked = range(*k.indices(shape[axis]))
                forward.append(slice(picked[-1], picked[0] + 1, -k.step) if len(picked) else slice(0, 0))
                dims.append(out)
            else:
                forward.append(k)
            axis += 1
            out += 1
        elif isinstance(k, (int, _d.integer)) and not isinstance(k, bool):
            forward.append(k)
            axis += 1
        else:
            raise NotImplementedError("gradscope's numpy takes a negative-step slice with basic indices only "
                                      "(ints, slices, None, ...), not with index arrays")
    return tuple(forward), dims


def _is_scalar_key(key, ndim):
    if isinstance(key, int) and not isinstance(key, bool):
        return ndim == 1
    if isinstance(key, tuple):
        if len(key) != ndim:
            return False
        for k in key:
            if not isinstance(k, int) or isinstance(k, bool):
                return False
        return True
    return False


class ndarray:
    """`np.ndarray`."""

    __module__ = "numpy"
    __slots__ = ("_t", "_dtype", "__weakref__")
    __array_priority__ = 0.0

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        from ._creation import zeros

        return zeros(shape, dtype=dtype)

    # ---- attributes ---------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return tuple(self._t.shape)

    @shape.setter
    def shape(self, value):
        self._t = self._t.view(*(value if isinstance(value, tuple) else (value,)))

    @property
    def ndim(self):
        return self._t.dim()

    @property
    def size(self):
        return self._t.numel()

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self._t.numel() * self._dtype.itemsize

    @property
    def strides(self):
        n = self._dtype.itemsize
        return tuple(s * n for s in self._t.stride())

    @property
    def T(self):
        return _wrap(self._t.permute(*range(self._t.dim() - 1, -1, -1)), self._dtype)

    @property
    def base(self):
        return None

    @property
    def flags(self):
        return _Flags(self)

    @property
    def real(self):
        return self

    @property
    def flat(self):
        return iter(self.ravel())

    # ---- conversion ---------------------------------------------------
    def tolist(self):
        if self._dtype.kind == "U":
            from ._strings import tolist

            return tolist(self)
        return self._t.tolist()

    def item(self, *args):
        if args:
            return self[args if len(args) > 1 else args[0]].item() if len(args) > 1 else \
                self.reshape(-1)[args[0]].item()
        if self._t.numel() != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        if self._dtype.kind == "U":
            return str(self._dtype.type(self._t.item()))
        return self._t.item()

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        dt = _d._as_dtype(dtype)
        if self._dtype.kind == "U":
            from ._strings import astype

            return astype(self, dt)
        if dt is self._dtype:
            return _wrap(self._t.clone(), dt) if copy else self
        return _wrap(_convert(self._t, self._dtype, dt), dt)

    def copy(self, order="C"):
        return _wrap(self._t.clone(), self._dtype)

    def view(self, dtype=None):
        if dtype is None or _d._as_dtype(dtype) is self._dtype:
            return _wrap(self._t.view(*self._t.shape), self._dtype)
        raise NotImplementedError("gradscope's numpy has no view() to another dtype")

    def fill(self, value):
        self._t.fill_(value)

    def __array__(self, dtype=None, copy=None):
        return self if dtype is None else self.astype(dtype)

    def __float__(self):
        if self._t.dim() != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return float(self._t.item())

    def __int__(self):
        if self._t.dim() != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return int(self._t.item())

    def __index__(self):
        if self._t.dim() != 0 or self._dtype.kind not in "iub":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self._t.item())

    def __bool__(self):
        if self._t.numel() != 1:
            if self._t.numel() == 0:
                raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.")
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return bool(self._t.item())

    def __len__(self):
        if self._t.dim() == 0:
            raise TypeError("len() of unsized object")
        return self._t.shape[0]

    def __iter__(self):
        if self._t.dim() == 0:
            raise TypeError("iteration over a 0-d array")
        if self._t.dim() == 1:
            make = self._dtype.type
            return iter([make(v) for v in self._t.tolist()])
        dt = self._dtype
        return iter([_wrap(row, dt) for row in self._t.unbind(0)])

    def __contains__(self, value):
        return bool((self == value).any())

    def __hash__(self):
        raise TypeError("unhashable type: 'numpy.ndarray'")

    # ---- indexing -----------------------------------------------------
    def __getitem__(self, key):
        reversed_key = _negative_steps(key, tuple(self._t.shape))
        if reversed_key is not None:
            # NumPy's view with negative strides, as a flipped copy: the
            # engine's strides are positive.
            forward, dims = reversed_key
            r = self[forward]
            return _wrap(r._t.flip(dims), self._dtype) if dims and isinstance(r, ndarray) else r
        k = _index(key)
        try:
            r = self._t[k]
        except IndexError as error:
            raise IndexError(_index_message(self, key, error)) from None
        if r.dim() == 0 and (_is_scalar_key(key, self._t.dim()) or (key == () and self._t.dim() == 0)):
            return self._dtype.type(r.item())
        return _wrap(r, self._dtype)

    def __setitem__(self, key, value):
        reversed_key = _negative_steps(key, tuple(self._t.shape))
        if reversed_key is not None:
            from ._creation import asarray
            from ._shaping import broadcast_to

            forward, dims = reversed_key
            view = self[forward]
            v = broadcast_to(asarray(value), view.shape)
            view[...] = _wrap(v._t.flip(dims), v._dtype) if dims else v
            return
        k = _index(key)
        if isinstance(value, ndarray):
            v = _convert(value._t, value._dtype, self._dtype)
        elif isinstance(value, (list, tuple)):
            from ._creation import asarray

            arr = asarray(value)
            v = _convert(arr._t, arr._dtype, self._dtype)
        elif isinstance(value, _Tensor):
            v = value.detach().to(self._dtype._torch)
        else:
            if hasattr(value, "item"):
                value = value.item()
            if self._dtype.kind in "iu" and isinstance(value, float):
                value = int(value)
            v = value
        try:
            self._t[k] = v
        except IndexError as error:
            raise IndexError(_index_message(self, key, error)) from None

    # ---- printing -----------------------------------------------------
    def __repr__(self):
        from ._printing import array_repr

        return array_repr(self)

    def __str__(self):
        from ._printing import array_str

        return array_str(self)

    def __format__(self, spec):
        if self._t.dim() == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return str(self)

    # ---- shape --------------------------------------------------------
    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(s) for s in shape)
        try:
            return _wrap(self._t.reshape(shape), self._dtype)
        except RuntimeError:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {_shape_text(shape)}") from None

    def resize(self, *shape):
        raise NotImplementedError("gradscope's numpy has no ndarray.resize")

    def transpose(self, *axes):
        if not axes or axes == (None,):
            return self.T
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return _wrap(self._t.permute(*axes), self._dtype)

    def swapaxes(self, a, b):
        return _wrap(self._t.transpose(a, b), self._dtype)

    def flatten(self, order="C"):
        return _wrap(self._t.reshape(-1).clone(), self._dtype)

    def ravel(self, order="C"):
        return _wrap(self._t.reshape(-1), self._dtype)

    def squeeze(self, axis=None):
        from ._shaping import squeeze

        return squeeze(self, axis)

    def repeat(self, repeats, axis=None):
        from ._shaping import repeat

        return repeat(self, repeats, axis)

    # ---- operators ----------------------------------------------------
    __add__ = _binary("__add__")
    __radd__ = _binary("__radd__")
    __sub__ = _binary("__sub__")
    __rsub__ = _binary("__rsub__")
    __mul__ = _binary("__mul__")
    __rmul__ = _binary("__rmul__")
    __truediv__ = _binary("__truediv__", "div")
    __rtruediv__ = _binary("__rtruediv__", "div")
    __floordiv__ = _binary("__floordiv__")
    __rfloordiv__ = _binary("__rfloordiv__")
    __mod__ = _binary("__mod__")
    __rmod__ = _binary("__rmod__")
    __pow__ = _binary("__pow__", "pow")
    __rpow__ = _binary("__rpow__", "pow")
    __eq__ = _binary("__eq__", "cmp")
    __ne__ = _binary("__ne__", "cmp")
    __lt__ = _binary("__lt__", "cmp")
    __le__ = _binary("__le__", "cmp")
    __gt__ = _binary("__gt__", "cmp")
    __ge__ = _binary("__ge__", "cmp")
    __and__ = _binary("__and__")
    __rand__ = _binary("__rand__")
    __or__ = _binary("__or__")
    __ror__ = _binary("__ror__")
    __xor__ = _binary("__xor__")
    __iadd__ = _inplace("add", "add_")
    __isub__ = _inplace("subtract", "sub_")
    __imul__ = _inplace("multiply", "mul_")
    __itruediv__ = _inplace("divide", "div_")

    def __neg__(self):
        if self._dtype is bool_dtype:
            raise TypeError("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.")
        return _wrap(-self._t, self._dtype)

    def __pos__(self):
        return _wrap(self._t.clone(), self._dtype)

    def __abs__(self):
        return _wrap(self._t.abs(), self._dtype)

    def __invert__(self):
        return _wrap(~self._t, self._dtype)

    def __matmul__(self, other):
        from ._products import matmul

        if isinstance(other, _Tensor):
            return _with_tensor("__matmul__", self, other)
        return matmul(self, other)

    def __rmatmul__(self, other):
        from ._products import matmul

        if isinstance(other, _Tensor):
            return _tensor_result(matmul(_tensor_array(other), self))
        return matmul(other, self)

    def dot(self, other):
        from ._products import dot

        return dot(self, other)


def _shape_text(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def _index_message(a, key, error):
    text = str(error)
    if "out of range" in text or "out of bounds" in text:
        keys = key if isinstance(key, tuple) else (key,)
        for axis, k in enumerate(keys):
            if isinstance(k, int) and axis < a.ndim:
                n = a.shape[axis]
                if not -n <= k < n:
                    return f"index {k} is out of bounds for axis {axis} with size {n}"
    if "too many indices" in text:
        return f"too many indices for array: array is {a.ndim}-dimensional, but {len(key) if isinstance(key, tuple) else 1} were indexed"
    return text


def _convert(t, src, dst):
    """The tensor of `t` (holding `src` values) as `dst` values, NumPy's cast."""
    if src is dst:
        return t
    if dst is _d.float16_dtype:
        return _d._round_half(t)
    return _d.fit(t.to(dst._torch), dst)


class _Flags:
    def __init__(self, a):
        self._a = a

    @property
    def c_contiguous(self):
        return self._a._t.is_contiguous()

    @property
    def writeable(self):
        return True

    def __getitem__(self, key):
        if key in ("C_CONTIGUOUS", "C", "CONTIGUOUS"):
            return self.c_contiguous
        if key in ("WRITEABLE", "W"):
            return True
        if key in ("OWNDATA", "O"):
            return True
        raise KeyError(key)
