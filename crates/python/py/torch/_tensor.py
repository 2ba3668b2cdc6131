"""`torch.Tensor`: the Python class over the native `torch._C.TensorBase`,
as in PyTorch, for the parts PyTorch writes in Python."""

import _gradscope as _C

from . import _composite
from ._device import cpu as _cpu, device as _device_type
from ._size import Size
from . import _meta

_meta_device = _device_type("meta")
_WRAPPER_DEVICE = "_gradscope_wrapper_device"


def _convert(ret, cls):
    """`torch._tensor._convert`: tensor results as `cls` (lists and tuples through)."""
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        ret = ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        items = [_convert(r, cls) for r in ret]
        # A named tuple (`torch.return_types.max`) takes its fields one by one.
        ret = type(ret)(*items) if hasattr(ret, "_fields") else type(ret)(items)
    return ret


def _torch():
    import sys

    return sys.modules["torch"]


def _dtype_of(name):
    return getattr(_C, name)


_CPP_TYPES = {_C.bool: "bool", _C.uint8: "unsigned char", _C.int8: "signed char", _C.int16: "short int",
              _C.int32: "int", _C.int64: "long int", _C.float32: "float", _C.float64: "double",
              _C.bfloat16: "c10::BFloat16"}


class Tensor(_C.TensorBase):
    __module__ = "torch"

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if inputs is not None:
            raise NotImplementedError("gradscope does not support backward(inputs=...) yet")
        self._backward(gradient, retain_graph, create_graph)

    @property
    def device(self):
        if self._is_meta:
            # A `_make_wrapper_subclass` wrapper is a meta tensor with the device it was given.
            return self.__dict__.get(_WRAPPER_DEVICE, _meta_device)
        name = self._device
        return _cpu if name == "cpu" else _device_type(name)

    @property
    def is_meta(self):
        return self._is_meta and self.device.type == "meta"

    @staticmethod
    def _make_wrapper_subclass(cls, size, *args, **kwargs):
        from . import _python_dispatch

        return _python_dispatch.make_wrapper_subclass(cls, size, *args, **kwargs)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """The default `__torch_function__`: runs `func` with subclass
        handling off and gives tensor results back as `cls`."""
        from . import _python_dispatch

        kwargs = {} if kwargs is None else kwargs
        if not all(issubclass(cls, t) for t in types):
            return NotImplemented
        with _python_dispatch.DisableTorchFunctionSubclass():
            return _convert(func(*args, **kwargs), cls)

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return NotImplemented

    def as_subclass(self, cls):
        """An alias of this tensor (its storage, and its history through an
        `AliasBackward0` node when it requires grad) as an instance of `cls`."""
        if not (isinstance(cls, type) and issubclass(cls, Tensor)):
            raise TypeError(f"as_subclass(): argument 'cls' must be a subclass of Tensor, not {cls!r}")
        alias = self
        if _C.TensorBase.requires_grad.__get__(self, type(self)) and _torch().is_grad_enabled():
            alias = _composite.node("AliasBackward0", self, lambda: _C.TensorBase.detach(self), lambda g: g)
        out = _C.TensorBase._make_subclass(cls, alias, False)
        _C.TensorBase._replace(out, alias)
        return out

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # A program's subclass has its methods routed through
        # `__torch_function__` (the default one gives results back as the
        # subclass); torch's own subclasses and those opted out
        # (`nn.Parameter`) are not.
        from . import _python_dispatch

        if not cls.__module__.startswith("torch.") and not _python_dispatch.opted_out(cls):
            _python_dispatch.install(cls)

    def __repr__(self):
        if self._is_meta:
            return _meta.repr_of(self)
        return _C.TensorBase.__repr__(self)

    def stride(self, dim=None):
        if self._is_meta:
            # A meta tensor reports the strides of a contiguous one (its
            # engine view reads one element through strides of 0).
            strides = _meta.contiguous_strides(self.shape)
            if dim is None:
                return strides
            return strides[dim]
        if dim is None:
            return _C.TensorBase.stride(self)
        return _C.TensorBase.stride(self, dim)

    def item(self):
        if self._is_meta:
            _meta.no_data("item")
        return _C.TensorBase.item(self)

    def tolist(self):
        if self._is_meta:
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        return _C.TensorBase.tolist(self)

    @property
    def is_cpu(self):
        return self._device == "cpu"

    @property
    def is_webgpu(self):
        return self._device != "cpu"

    is_cuda = False
    is_sparse = False
    is_quantized = False

    def cpu(self):
        if self._is_meta:
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        return self._to_device("cpu")

    def webgpu(self, device=None, non_blocking=False):
        return self._to_device("webgpu" if device is None else device)

    def cuda(self, device=None, non_blocking=False):
        raise AssertionError("Torch not compiled with CUDA enabled")

    def get_device(self):
        return -1 if self._device == "cpu" else 0

    def to(self, *args, **kwargs):
        dtype = kwargs.pop("dtype", None)
        device = kwargs.pop("device", None)
        kwargs.pop("non_blocking", None)
        kwargs.pop("copy", None)
        kwargs.pop("memory_format", None)
        if kwargs:
            raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if getattr(dtype, "refuse", None) is not None:
            dtype.refuse()
        for arg in args:
            if getattr(arg, "refuse", None) is not None:
                arg.refuse()
            if isinstance(arg, _C.dtype):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype, device = arg.dtype, arg.device
            elif isinstance(arg, (str, _device_type)):
                device = arg
            elif not isinstance(arg, bool):
                raise TypeError(f"to() received an invalid combination of arguments - got ({type(arg).__name__})")
        out = self
        if device is not None and _meta.wants_meta(device):
            out = _meta.to_meta(out)
            return out if dtype is None else _meta.to_dtype(out, dtype)
        if out._is_meta and device is not None:
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        if out._is_meta and dtype is not None:
            return _meta.to_dtype(out, dtype)
        if dtype is not None:
            out = out._to_dtype(dtype)
        if device is not None:
            out = out._to_device(str(device))
        return out

    def add(self, other, *, alpha=1):
        if alpha == 1:
            return _C.TensorBase.add(self, other)
        return _C._add_alpha(self, other, alpha, False)

    def sub(self, other, *, alpha=1):
        if alpha == 1:
            return _C.TensorBase.sub(self, other)
        return _C._add_alpha(self, other, alpha, True)

    subtract = sub

    def add_(self, other, *, alpha=1):
        if alpha == 1:
            return _C.TensorBase.add_(self, other)
        return _C._inplace_with(self, "add_", lambda t: _C._add_alpha(t, other, alpha, False))

    def sub_(self, other, *, alpha=1):
        if alpha == 1:
            return _C.TensorBase.sub_(self, other)
        return _C._inplace_with(self, "sub_", lambda t: _C._add_alpha(t, other, alpha, True))

    def fill_(self, value):
        if self._is_meta:
            return self
        # A Python int stays one: uint8 takes ints down to -255, no negative float.
        plain_int = isinstance(value, int) and not isinstance(value, bool)
        return _C.TensorBase.fill_(self, value if plain_int else float(value))

    def all(self, dim=None, keepdim=False):
        falses = self.logical_not().long()
        if dim is None:
            return falses.sum() == 0
        return falses.sum(dim, keepdim=keepdim) == 0

    def any(self, dim=None, keepdim=False):
        trues = self.bool().long()
        if dim is None:
            return trues.sum() > 0
        return trues.sum(dim, keepdim=keepdim) > 0

    def equal(self, other):
        if tuple(self.shape) != tuple(other.shape):
            return False
        return bool((self == other).all())

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        # ATen's `isclose`: equal, or (for nonzero tolerances) a finite
        # |self - other| within atol + |rtol * other|; bool tensors compare
        # in the default dtype, and zero tolerances mean equality.
        if not isinstance(other, Tensor):
            raise TypeError(
                f"isclose(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
        if self.dtype != other.dtype:
            names = {"torch.float32": "Float", "torch.float64": "Double", "torch.float16": "Half",
                     "torch.bfloat16": "BFloat16", "torch.int64": "Long", "torch.int32": "Int",
                     "torch.int16": "Short", "torch.int8": "Char", "torch.uint8": "Byte", "torch.bool": "Bool"}
            mine, theirs = (names.get(str(d), str(d)) for d in (self.dtype, other.dtype))
            raise RuntimeError(f"{mine} did not match {theirs}")
        if rtol < 0:
            raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
        if atol < 0:
            raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
        close = self == other
        if equal_nan and self.dtype.is_floating_point:
            close = close.logical_or(self.isnan().logical_and(other.isnan()))
        if rtol == 0 and atol == 0:
            return close
        cast_self, cast_other = self, other
        if self.dtype == _C.bool:
            cast_self = self.to(_torch().get_default_dtype())
            cast_other = other.to(_torch().get_default_dtype())
        allowed = atol + (rtol * cast_other).abs()
        actual = (cast_self - cast_other).abs()
        return close.logical_or(actual.isfinite().logical_and(actual <= allowed))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        if not isinstance(other, Tensor):
            raise TypeError(
                f"allclose(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
        return bool(self.isclose(other, rtol, atol, equal_nan).all())

    def _integral_with(self, other):
        # Whether `self op other` promotes to an integer dtype (or bool): then
        # the rounding divisions compute exactly in integers in the engine.
        if self.is_floating_point() or isinstance(other, float):
            return False
        return not (isinstance(other, Tensor) and other.is_floating_point())

    def remainder(self, other):
        if self._integral_with(other):
            return _C.TensorBase._remainder_int(self, other)

        def forward():
            return self - (self / other).floor() * other

        if isinstance(other, Tensor):
            # remainder's formula: grad for self, -grad * floor(self / other) for other.
            return _composite.op("RemainderBackward1", [self, other], forward,
                                 lambda g, x, y: [g, -g * (x / y).floor()], ("self", "other"))
        return _composite.node("RemainderBackward0", self, forward, lambda g: g)

    __mod__ = remainder

    def __rmod__(self, other):
        return _C.tensor(other, dtype=self.dtype).remainder(self)

    def floor_divide(self, other):
        if self._integral_with(other):
            return _C.TensorBase._floor_divide_int(self, other)
        return (self / other).floor()

    __floordiv__ = floor_divide

    def __rfloordiv__(self, other):
        return _torch().floor_divide(other, self)

    def div(self, other, *, rounding_mode=None):
        if rounding_mode is None:
            return _C.TensorBase.div(self, other)
        if rounding_mode == "floor":
            return self.floor_divide(other)
        if rounding_mode == "trunc":
            if self._integral_with(other):
                return _C.TensorBase._trunc_divide_int(self, other)
            return _C.TensorBase.div(self, other).trunc()
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")

    divide = div

    def masked_fill(self, mask, value):
        if isinstance(value, Tensor):
            # MaskedFillBackward1, with a gradient for the value too: its
            # pieces' nodes for now.
            return _C.where(mask, value.to(self.dtype), self)
        def forward():
            out = _C.where(mask, value, self)
            # The fill takes self's dtype (True into bools stays bool).
            return out if out.dtype == self.dtype else out.to(self.dtype)

        return _composite.node("MaskedFillBackward0", self, forward, lambda g, m: g.masked_fill(m, 0), (mask,),
                               ("mask",))

    def index_add(self, dim, index, source, *, alpha=1):
        # The engine's op adds the source as is; alpha scales it first.
        return _C.TensorBase.index_add(self, dim, index, source if alpha == 1 else source * alpha)

    def scatter_(self, dim, index, src=None, value=None, *, reduce=None):
        args = {"reduce": reduce} if reduce is not None else {}
        given = src if src is not None else value
        return _C._inplace_with(self, "scatter_", lambda t: t.scatter(dim, index, given, **args))

    def round(self, decimals=None):
        """`round()`, or with `decimals` PyTorch's `RoundBackward1`:
        `round(x * 10**d) / 10**d` in the tensor's dtype."""
        if decimals is None:
            return super().round()
        if self.dtype not in (_C.float32, _C.float64):
            name = {_C.int64: "Long", _C.bool: "Bool"}.get(self.dtype, str(self.dtype))
            raise NotImplementedError(f'"round_cpu" not implemented for \'{name}\'')
        d = int(decimals)

        def forward():
            if d >= 0:
                return (self * 10.0**d).round() / 10.0**d
            return (self / 10.0**-d).round() * 10.0**-d

        return _composite.node("RoundBackward1", self, forward, Tensor.zeros_like)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        from . import multinomial

        return multinomial(self, num_samples, replacement, generator=generator)

    def masked_fill_(self, mask, value):
        return _C._inplace_with(self, "masked_fill_", lambda t: t.masked_fill(mask, value))

    def argsort(self, dim=-1, descending=False, stable=False):
        return self._sort_index(dim, descending)

    def _sort_index(self, dim, descending):
        """The indices that sort `self` along `dim` (ties in order)."""
        if self.dim() == 0:
            return _C.zeros((), dtype=_C.int64, device=self.device)
        # Values only: no view of self enters the graph.
        values = self.detach()
        moved = values.transpose(dim, -1) if dim not in (-1, self.dim() - 1) else values
        rows = moved.reshape(-1, moved.shape[-1]).tolist()
        order = [sorted(range(len(r)), key=r.__getitem__, reverse=descending) for r in rows]
        index = _C.tensor(order, dtype=_C.int64, device=self.device).reshape(moved.shape)
        return index.transpose(dim, -1) if moved is not values else index

    def sort(self, dim=-1, descending=False, stable=None):
        from . import return_types

        index = self._sort_index(dim, descending)
        # `stable=` picks PyTorch's other overload, and its node's name.
        name = "SortBackward0" if stable is None else "SortBackward1"
        return return_types.sort((_composite.select_by(name, self, dim, index), index))

    def topk(self, k, dim=-1, largest=True, sorted=True):
        from . import return_types

        n = self.shape[dim] if self.dim() > 0 else 1
        if not 0 <= k <= n:
            raise RuntimeError("selected index k out of range")
        index = self._sort_index(dim, largest)
        if self.dim() > 0:
            index = index.narrow(dim, 0, k)
        return return_types.topk((_composite.select_by("TopkBackward0", self, dim, index), index))

    def cumsum(self, dim=None, dtype=None, *, axis=None):
        # PyTorch's argument parser takes NumPy's `axis` for `dim`.
        return _composite.cumsum(self, _dim_or_axis("cumsum", dim, axis), dtype)

    # Composites of the engine's ops: the values are PyTorch's; those
    # through `_composite` record PyTorch's one node, the rest their pieces'.

    def repeat(self, *sizes):
        if not sizes:
            raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
        if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
            sizes = tuple(sizes[0])
        elif len(sizes) == 1 and not isinstance(sizes[0], int):
            raise TypeError(
                f"repeat(): argument 'repeats' (position 1) must be tuple of ints, not {type(sizes[0]).__name__}"
            )
        for pos, r in enumerate(sizes):
            if not -(2**63) <= r < 2**63:
                raise TypeError(
                    f"repeat(): argument 'repeats' failed to unpack the object at pos {pos + 1} "
                    'with error "Overflow when unpacking long long"'
                )
        if len(sizes) < self.dim():
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
            )
        shape = (1,) * (len(sizes) - self.dim()) + tuple(self.shape)
        # PyTorch multiplies the sizes in int64, wrapping, and allocates the
        # result first: its size errors come before any from the copy.
        out = [(r * n + 2**63) % 2**64 - 2**63 for r, n in zip(sizes, shape)]
        for d in out:
            if d < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {d}: {out}")
        _C._check_new_buffer(self, out)
        if 0 in sizes or 0 in shape:
            return self.flatten().narrow(0, 0, 0).reshape(out)
        # It then unfolds the result into blocks of the input's shape.
        for i, (d, n) in enumerate(zip(out, shape)):
            if d < n:
                raise RuntimeError(f"maximum size for tensor at dimension {i} is {d} but size is {n}")
        return _composite.repeat(self, [d // n for d, n in zip(out, shape)], shape)

    def tile(self, *dims):
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        dims = (1,) * (self.dim() - len(dims)) + tuple(dims)
        return self.repeat(*dims)

    def _triangle(self, keep):
        rows, cols = self.shape[-2], self.shape[-1]
        r = _C.arange(rows, device=self.device).unsqueeze(1)
        c = _C.arange(cols, device=self.device).unsqueeze(0)
        return _C.where(keep(r, c), self, _C.zeros((), dtype=self.dtype, device=self.device))

    def tril(self, diagonal=0):
        return _composite.node("TrilBackward0", self, lambda: self._triangle(lambda r, c: c - r <= diagonal),
                               lambda g: g.tril(diagonal))

    def triu(self, diagonal=0):
        return _composite.node("TriuBackward0", self, lambda: self._triangle(lambda r, c: c - r >= diagonal),
                               lambda g: g.triu(diagonal))

    def diag(self, diagonal=0):
        if self.dim() == 1:
            n = self.shape[0] + abs(diagonal)
            out = self.unsqueeze(0) * _C.eye(self.shape[0], dtype=self.dtype, device=self.device)
            if diagonal == 0:
                return out
            from .nn import functional as F

            pad = (diagonal, 0, 0, diagonal) if diagonal > 0 else (0, -diagonal, -diagonal, 0)
            return F.pad(out, pad)
        def backward(g):
            # The gradient back on the diagonal of zeros.
            out = _C.zeros(tuple(self.shape), dtype=g.dtype, device=g.device)
            out.diagonal(diagonal).copy_(g)
            return out

        # A copy, as PyTorch's diagonal_copy: writing to it leaves self be.
        return _composite.node("DiagonalBackward0_copy", self, lambda: self.diagonal(diagonal).clone(), backward)

    def trace(self):
        # trace_backward: the gradient on the diagonal, zeros elsewhere.
        return _composite.node("TraceBackward0", self, lambda: self.diagonal().sum(),
                               lambda g: _C.eye(self.shape[0], self.shape[1], dtype=g.dtype, device=g.device) * g)

    def outer(self, vec2):
        return self.unsqueeze(1) * vec2.unsqueeze(0)

    ger = outer

    def square(self):
        return self**2

    def ceil(self):
        return _composite.node("CeilBackward0", self, lambda: -((-self).floor()), Tensor.zeros_like)

    def trunc(self):
        return _composite.node("TruncBackward0", self, lambda: _C.where(self >= 0, self.floor(), self.ceil()),
                               Tensor.zeros_like)

    fix = trunc

    def frac(self):
        return _composite.node("FracBackward0", self, lambda: self - self.trunc(), lambda g: g)

    def fmod(self, other):
        if self._integral_with(other):
            return _C.TensorBase._fmod_int(self, other)

        def forward():
            return self - (self / other).trunc() * other

        if isinstance(other, Tensor):
            # FmodBackward1, with a gradient for `other`: its pieces' nodes for now.
            return forward()
        return _composite.node("FmodBackward0", self, forward, lambda g: g)

    def flip(self, *dims):
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        return _composite.flip(self, tuple(dims))

    def roll(self, shifts, dims=None):
        if isinstance(shifts, int):
            shifts = (shifts,)
        if dims is not None:
            dims = (dims,) if isinstance(dims, int) else tuple(dims)
        return _composite.roll(self, tuple(shifts), dims)

    def lerp(self, end, weight):
        # PyTorch's formula: from the nearer end, with the product and the
        # sum fused on the CPU (float32 rounded once, as its kernel's fma).
        for name, other in (("end", end), ("weight", weight)):
            # A 0-dim weight may have any dtype.
            if isinstance(other, Tensor) and other.dtype != self.dtype and (name == "end" or other.dim() > 0):
                raise RuntimeError(
                    f"expected dtype {_CPP_TYPES[self.dtype]} for `{name}` but got dtype {_CPP_TYPES[other.dtype]}"
                )
        diff = end - self
        fused = self.dtype == _C.float32 and self._device == "cpu"
        if fused:
            if not isinstance(weight, Tensor):
                weight = _C.tensor(weight, dtype=_C.float32).item()
            self, end, diff = self.double(), end.double(), diff.double()
            if isinstance(weight, Tensor):
                weight = weight.double()
        if isinstance(weight, Tensor):
            near = weight.abs() < 0.5
            out = _C.where(near, self + weight * diff, end - diff * (1 - weight))
        elif abs(weight) < 0.5:
            out = self + weight * diff
        else:
            out = end - diff * (1 - weight)
        return out.float() if fused else out

    def lerp_(self, end, weight):
        return _C._inplace_with(self, "lerp_", lambda t: t.lerp(end, weight))

    def addcmul(self, tensor1, tensor2, *, value=1):
        return self + tensor1 * value * tensor2

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return _C._inplace_with(self, "addcmul_", lambda t: t.addcmul(tensor1, tensor2, value=value))

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return self + tensor1 * value / tensor2

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return _C._inplace_with(self, "addcdiv_", lambda t: t.addcdiv(tensor1, tensor2, value=value))

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return self * beta + batch1.bmm(batch2) * alpha

    def cumprod(self, dim=None, dtype=None, *, axis=None):
        dim = _dim_or_axis("cumprod", dim, axis)
        n = self.shape[dim]
        parts = [self.narrow(dim, 0, i + 1).prod(dim, keepdim=True) for i in range(n)]
        out = _C.cat(parts, dim)
        return out if dtype is None else out.to(dtype)

    def nonzero(self, *, as_tuple=False):
        values = self.flatten().tolist()
        shape = tuple(self.shape)
        found = []
        for flat, v in enumerate(values):
            if v:
                index = []
                for n in reversed(shape):
                    index.append(flat % n)
                    flat //= n
                found.append(index[::-1])
        out = _C.tensor(found, dtype=_C.int64, device=self.device).reshape(len(found), len(shape))
        if as_tuple:
            return tuple(out[:, i] for i in range(len(shape)))
        return out

    def masked_select(self, mask):
        return self[mask.expand_as(self)] if tuple(mask.shape) != tuple(self.shape) else self[mask]

    def new_zeros(self, *size, dtype=None, **kwargs):
        return _C.zeros(*size, dtype=dtype or self.dtype)

    def new_ones(self, *size, dtype=None, **kwargs):
        return _C.ones(*size, dtype=dtype or self.dtype)

    def new_full(self, size, fill_value, *, dtype=None, **kwargs):
        return _C.full(size, fill_value, dtype=dtype or self.dtype)

    def new_tensor(self, data, *, dtype=None, requires_grad=False, **kwargs):
        return _C.tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, **kwargs):
        return _C.zeros(*size, dtype=dtype or self.dtype)

    def type_as(self, other):
        return self.to(other.dtype)

    def uniform_(self, from_=0, to=1, *, generator=None):
        from ._generator import drawing

        with drawing(generator):
            return _C._uniform_(self, float(from_), float(to))

    def normal_(self, mean=0, std=1, *, generator=None):
        from ._generator import drawing

        with drawing(generator):
            return _C._normal_(self, float(mean), float(std))

    def _check_bounds_cast(self, bounds):
        """PyTorch's check on number bounds of `clamp_` and kin, whose
        message names the tensor's C++ type (`long int`)."""
        if self.dtype not in (_C.int64, _C.bool) or any(isinstance(b, Tensor) for b in bounds):
            return
        to = "long int" if self.dtype == _C.int64 else "bool"
        if any(isinstance(b, float) for b in bounds):
            found = "Double" if _C.tensor(1.0).dtype == _C.float64 else "Float"
        elif self.dtype == _C.bool and any(isinstance(b, int) and not isinstance(b, bool) for b in bounds):
            found = "Long"
        else:
            return
        raise RuntimeError(f"result type {found} can't be cast to the desired output type {to}")

    def clamp_min_(self, min):
        self._check_bounds_cast([min])
        return _C._inplace_with(self, "clamp_min_", lambda t: t.clamp_min(min))

    def clamp_max_(self, max):
        self._check_bounds_cast([max])
        return _C._inplace_with(self, "clamp_max_", lambda t: t.clamp_max(max))

    def clip(self, min=None, max=None):
        return self.clamp(min, max)

    def clip_(self, min=None, max=None):
        return self.clamp_(min, max)

    def clamp_(self, min=None, max=None):
        self._check_bounds_cast([b for b in (min, max) if b is not None])
        try:
            return _C._inplace_with(self, "clamp_", lambda t: t.clamp(min, max))
        except TypeError as e:
            message = str(e)
            if not message.startswith("clamp() "):
                raise
        raise TypeError("clamp_" + message[len("clamp"):])

    def relu_(self):
        return _C._unary_inplace(self, "relu_")

    def sigmoid_(self):
        return _C._unary_inplace(self, "sigmoid_")

    def tanh_(self):
        return _C._unary_inplace(self, "tanh_")

    def exp_(self):
        return _C._unary_inplace(self, "exp_")

    def sqrt_(self):
        return _C._unary_inplace(self, "sqrt_")

    def neg_(self):
        return _C._unary_inplace(self, "neg_")

    def abs_(self):
        return _C._unary_inplace(self, "abs_")

    def log_(self):
        return _C._unary_inplace(self, "log_")

    def sin_(self):
        return _C._unary_inplace(self, "sin_")

    def cos_(self):
        return _C._unary_inplace(self, "cos_")

    def rsqrt_(self):
        return _C._unary_inplace(self, "rsqrt_")

    def reciprocal_(self):
        return _C._unary_inplace(self, "reciprocal_")

    def type(self, dtype=None, non_blocking=False, **kwargs):
        from . import _legacy

        if dtype is None:
            return _legacy.type_name(self.dtype)
        return self.to(_legacy.dtype_of_type(dtype))

    def half(self):
        from . import float16

        float16.refuse()

    def bfloat16(self):
        return self._to_dtype(_C.bfloat16)

    def float(self):
        return self._to_dtype(_C.float32)

    def double(self):
        return self._to_dtype(_C.float64)

    def long(self):
        return self._to_dtype(_C.int64)

    def int(self):
        return self._to_dtype(_C.int32)

    def svd(self, some=True, compute_uv=True):
        return _torch().svd(self, some, compute_uv)

    # In-place views: this object takes the new shape (its version counts it).
    def unsqueeze_(self, dim):
        return self._view_inplace("unsqueeze_", [dim])

    def squeeze_(self, dim=None):
        if dim is None:
            return self._view_inplace("squeeze_", [])
        if isinstance(dim, (tuple, list)):
            return self._view_inplace("squeeze_dims", list(dim))
        return self._view_inplace("squeeze_dim", [dim])

    def t_(self):
        return self._view_inplace("t_", [])

    def transpose_(self, dim0, dim1):
        return self._view_inplace("transpose_", [dim0, dim1])

    def short(self):
        return self._to_dtype(_C.int16)

    def char(self):
        return self._to_dtype(_C.int8)

    def byte(self):
        return self._to_dtype(_C.uint8)

    def bool(self):
        return self._to_dtype(_C.bool)

    def max(self, dim=None, keepdim=False):
        if dim is None:
            return self._max_all()
        if isinstance(dim, Tensor):
            return self.maximum(dim)
        from . import return_types

        return return_types.max(self._max_dim(dim, keepdim))

    def min(self, dim=None, keepdim=False):
        if dim is None:
            return self._min_all()
        if isinstance(dim, Tensor):
            return self.minimum(dim)
        from . import return_types

        return return_types.min(self._min_dim(dim, keepdim))

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return self._var(dim, **_correction(unbiased, correction), keepdim=keepdim)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return self._std(dim, **_correction(unbiased, correction), keepdim=keepdim)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        if p == "fro" or p is None:
            p = 2
        return self._norm(float(p), dim, keepdim)

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reversed__(self):
        return iter(tuple(self)[::-1])

    def __contains__(self, element):
        return bool((self == element).any()) if hasattr(self, "any") else element in self.tolist()

    @property
    def T(self):
        if self.dim() <= 2:
            return self.t()
        return self.permute(*range(self.dim() - 1, -1, -1))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def __format__(self, format_spec):
        if self.dim() == 0:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __str__(self):
        return self.__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        if not self.is_leaf:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                "because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        new = _meta.empty(self.shape, self.dtype) if self._is_meta else self.detach().clone()
        if self.requires_grad:
            new.requires_grad_(True)
        memo[id(self)] = new
        if self.grad is not None:
            new.grad = self.grad.__deepcopy__(memo)
        return new

    def __array__(self, dtype=None):
        raise TypeError("gradscope tensors cannot become NumPy arrays")

    def numpy(self):
        raise TypeError("gradscope has no NumPy: use tolist()")

    __hash__ = object.__hash__


def _dim_or_axis(name, dim, axis):
    if dim is None:
        dim = axis
    if dim is None:
        raise TypeError(f"{name}() missing 1 required positional arguments: \"dim\"")
    return dim


def _correction(unbiased, correction):
    if correction is not None:
        return {"correction": correction}
    if unbiased is not None:
        return {"unbiased": unbiased}
    return {}


# In-place forms of the engine's elementwise ops and composites (`x.floor_()`).
_INPLACE_ELEMENTWISE = ("floor", "ceil", "round", "trunc", "frac", "sign", "expm1", "log1p", "log2", "log10",
                        "fmod", "remainder", "erf", "square", "negative", "logical_and", "logical_or",
                        "logical_xor", "logical_not")


def _in_place(name):
    """`x.name_(...)`: `x.name(...)` written back into `x`."""

    def method(self, *args, **kwargs):
        return _C._inplace_with(self, name + "_", lambda t: getattr(t, name)(*args, **kwargs))

    method.__name__ = name + "_"
    return method


def _bernoulli_(self, p=0.5, *, generator=None):
    """Fills `self` with 0/1 draws: of the probability tensor `p` as
    `torch.bernoulli` draws them, or of a number `p` as PyTorch's CPU
    `bernoulli_(p)` does (the noise of `dropout(1 - p)`)."""
    from ._generator import drawing

    if isinstance(p, Tensor):
        draws = p.expand(tuple(self.shape)).bernoulli(generator=generator)
    else:
        with drawing(generator):
            ones = _C.ones(tuple(self.shape), dtype=_C.float32, device=self._device)
            draws = _C._dropout(ones, 1.0 - float(p), True) != 0 if p < 1 else ones
    return _C._inplace_with(self, "bernoulli_", lambda t: draws.to(t.dtype).detach())


def _random_(self, from_=0, to=None, *, generator=None):
    """Whole numbers drawn uniformly from [from, to) (or [0, from) given
    one bound), as `torch.randint` draws them."""
    from . import randint

    if to is None:
        if from_ == 0:
            raise NotImplementedError("gradscope's random_ needs its bounds: random_(to) or random_(from, to)")
        from_, to = 0, from_
    draws = randint(int(from_), int(to), tuple(self.shape), dtype=self.dtype, generator=generator)
    return _C._inplace_with(self, "random_", lambda t: draws.to(t._device))


def _attach_methods():
    """The methods written as functions in `_math`, `_shape`, `_select`,
    `_reduce`, `_products` and `_indexing`."""
    from . import _indexing, _math, _products, _reduce, _select, _shape

    for module in (_math, _shape, _select, _reduce, _products, _indexing):
        for name in module.METHODS + getattr(module, "TENSOR_ONLY", ()):
            setattr(Tensor, name, getattr(module, name))
    for name in _indexing.INPLACE + _INPLACE_ELEMENTWISE:
        setattr(Tensor, name + "_", _in_place(name))
    for name in _math.METHODS_MORE + _math.METHODS_GAMMA:
        setattr(Tensor, name, getattr(_math, name))
    Tensor.polygamma = _math._polygamma_method
    Tensor.bernoulli_ = _bernoulli_
    Tensor.random_ = _random_
    Tensor.absolute = Tensor.abs
    Tensor.absolute_ = Tensor.abs_
    Tensor.__and__ = Tensor.__rand__ = _math.bitwise_and
    Tensor.__or__ = Tensor.__ror__ = _math.bitwise_or
    Tensor.__xor__ = Tensor.__rxor__ = _math.bitwise_xor
    Tensor.__invert__ = _math.bitwise_not
    Tensor.__lshift__ = _math.bitwise_left_shift
    Tensor.__rshift__ = _math.bitwise_right_shift
    for alias, name in _math.ALIASES.items():
        setattr(Tensor, alias, getattr(_math, name))
    for name in _math.INPLACE:
        setattr(Tensor, name + "_", _math._in_place(name))
    for alias, name in _math.ALIASES_INPLACE.items():
        setattr(Tensor, alias, _math._in_place(name))


_attach_methods()
_C._register(Tensor, Size)


class TypedStorage:
    """What `Tensor.storage()` returns: the tensor's storage, shared by its
    views, by size and dtype (gradscope gives no access to its bytes)."""

    __module__ = "torch.storage"

    def __init__(self, tensor):
        self._tensor = tensor
        self.dtype = tensor.dtype
        self.device = tensor.device

    def size(self):
        return self._tensor._storage_numel()

    __len__ = size

    def element_size(self):
        return self.dtype.itemsize

    def nbytes(self):
        return self.size() * self.dtype.itemsize


class UntypedStorage:
    """What `Tensor.untyped_storage()` returns: the tensor's storage, shared
    by its views, in bytes."""

    __module__ = "torch"

    def __init__(self, tensor):
        self._tensor = tensor
        self.device = tensor.device

    def size(self):
        return self._tensor._storage_numel() * self._tensor.dtype.itemsize

    nbytes = __len__ = size

    def element_size(self):
        return 1


def _untyped_storage(self):
    return UntypedStorage(self)


_typed_storage_warned = [False]


def _storage(self):
    # PyTorch warns the first time only, wherever it is called from.
    if not _typed_storage_warned[0]:
        _typed_storage_warned[0] = True
        _warn_typed_storage()
    return TypedStorage(self)


def _warn_typed_storage():
    import warnings

    warnings.warn(
        "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage "
        "class. This should only matter to you if you are using storages directly.  To access UntypedStorage "
        "directly, use tensor.untyped_storage() instead of tensor.storage()",
        stacklevel=3,
    )


def _values(self):
    raise RuntimeError("values expected sparse tensor layout but got Strided")


def _indices(self):
    raise RuntimeError("indices expected sparse coordinate tensor layout but got Strided")


def _module_load(self, other, assign=False):
    """How `load_state_dict` puts `other` into this parameter or buffer:
    `other` detached when assigning, else copied into `self`. A subclass
    takes it over through `__torch_function__` (`func is
    torch.Tensor.module_load`)."""
    from . import _python_dispatch

    if _python_dispatch.is_torch_function_enabled():
        found = [t for t in (self, other) if isinstance(t, Tensor) and not _python_dispatch.opted_out(type(t))]
        if found:
            return _python_dispatch.handle(Tensor.module_load, found, (self, other), {"assign": assign})
    if assign:
        return other.detach()
    with _C_no_grad():
        return self.copy_(other).detach()


def _C_no_grad():
    import torch

    return torch.no_grad()


Tensor.storage = _storage
Tensor.untyped_storage = _untyped_storage
Tensor.values = _values
Tensor.indices = _indices
Tensor.module_load = _module_load
Tensor.name = None
