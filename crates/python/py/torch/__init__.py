"""gradscope's `torch`: PyTorch's API over gradscope's engine."""

import builtins as _builtins

import _gradscope as _C

from ._size import Size
from ._device import device
from ._tensor import Tensor
from . import autograd, cpu, cuda, return_types, webgpu
from . import accelerator  # PyTorch imports it eagerly
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)

__version__ = "2.15.0+gradscope"

dtype = _C.dtype
float32 = float = _C.float32
float64 = double = _C.float64
int64 = long = _C.int64
int32 = _C.int32
int16 = short = _C.int16
int8 = _C.int8
uint8 = _C.uint8
bfloat16 = _C.bfloat16
bool = _C.bool
globals()["int"] = int32  # PyTorch's alias; this module calls _builtins.int


class _MissingDtype:
    """A dtype gradscope has no tensors of (`torch.float16`): code may name
    it (autocast's `dtype=`), but a tensor of it cannot be made."""

    __module__ = "torch"
    is_complex = False

    def __init__(self, name, itemsize, is_floating_point=True):
        self._name = name
        self.itemsize = itemsize
        self.is_floating_point = is_floating_point
        self.is_signed = name != "uint8"

    def __repr__(self):
        return f"torch.{self._name}"

    def refuse(self):
        raise TypeError(
            f"gradscope has no {self!r} tensors (only float32, float64, bfloat16, int64, int32, int16, int8, uint8 "
            "and bool)"
        )


float16 = half = _MissingDtype("float16", 2)

from . import _meta
from ._ops import ops
from . import __future__, _python_dispatch

# `torch._C`'s parts of the `__torch_function__` protocol.
_C.DisableTorchFunctionSubclass = _python_dispatch.DisableTorchFunctionSubclass
_C.DisableTorchFunction = _python_dispatch.DisableTorchFunction
_C._is_torch_function_enabled = _python_dispatch.is_torch_function_enabled
_C._disabled_torch_function_impl = _python_dispatch.disabled_torch_function_impl
_has_compatible_shallow_copy_type = _python_dispatch.has_compatible_shallow_copy_type


def _meta_aware(factory, fills=False):
    """A factory that makes a meta tensor when its `device=` (or, without
    one, the default device) is the meta device, drawing nothing."""

    def function(*args, **kwargs):
        if not _meta.wants_meta(kwargs.get("device")):
            return factory(*args, **kwargs)
        size = kwargs.get("size")
        if size is None:
            if args and isinstance(args[0], (tuple, list)):
                size, args = args[0], args[1:]
            elif fills:
                size, args = args[0], args[1:]
            else:
                size, args = args, ()
        dtype = kwargs.get("dtype")
        if dtype is None and fills:
            value = args[0] if args else kwargs.get("fill_value")
            dtype = bool if isinstance(value, _builtins.bool) else int64 if isinstance(value, _builtins.int) else None
        return _meta.empty(size, dtype, kwargs.get("requires_grad", False))

    function.__name__ = function.__qualname__ = factory.__name__
    function.__module__ = "torch"
    return function


tensor = _C.tensor
ones = _meta_aware(_C.ones)
zeros = _meta_aware(_C.zeros)
full = _meta_aware(_C.full, fills=True)
empty = _meta_aware(_C.empty)
arange = _C.arange
linspace = _C.linspace
eye = _C.eye
from ._legacy import TYPES as _LEGACY_TYPES, tensortype
globals().update(_LEGACY_TYPES)
from ._generator import Generator, drawing as _drawing
from ._einsum import einsum


def _with_generator(factory):
    def function(*args, generator=None, out=None, **kwargs):
        if out is not None:
            kwargs.setdefault("dtype", out.dtype)
        with _drawing(generator):
            return _into_out(factory.__name__, factory(*args, **kwargs), out)

    function.__name__ = function.__qualname__ = factory.__name__
    function.__module__ = "torch"
    return function


rand = _with_generator(_meta_aware(_C.rand))
randn = _with_generator(_meta_aware(_C.randn))
def randint(*args, generator=None, dtype=None, requires_grad=False, **kwargs):
    """Integers drawn uniformly from [low, high), in `dtype` (int64 unless told)."""
    with _drawing(generator):
        out = _C.randint(*args, **kwargs)
    if dtype is not None and dtype != int64:
        out = out.to(dtype)
    return out.requires_grad_() if requires_grad else out


cat = concat = concatenate = _C.cat
stack = _C.stack
def svd(input, some=True, compute_uv=True, *, out=None):
    """`(U, S, V)` with `input = U diag(S) V^T`, the singular vectors' signs
    as PyTorch's CPU gives them (LAPACK's gesdd; see `torch.linalg._svd`).
    No gradient flows through it in gradscope yet."""
    from .linalg import _svd_factors

    u, s, v = _svd_factors("svd", input, some or input.shape[-1] == input.shape[-2])
    if not compute_uv:
        m, n = input.shape[-2], input.shape[-1]
        batch = tuple(input.shape[:-2])
        u = zeros(batch + (m, m), dtype=input.dtype, device=input.device)
        v = zeros(batch + (n, n), dtype=input.dtype, device=input.device)
    return return_types.svd((u, s, v))


def where(condition, input=None, other=None, *, out=None):
    """`input` where `condition` holds, else `other`; given only the
    condition, the indices where it holds (`nonzero(as_tuple=True)`)."""
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    return _C.where(condition, input, other)


initial_seed = _C.initial_seed

OutOfMemoryError = _C.OutOfMemoryError
cuda.OutOfMemoryError = OutOfMemoryError


def _into_out(name, result, out):
    """PyTorch's `out=`: the result written into `out`, which is returned
    (taking the result's shape when its own differs, as PyTorch resizes it)."""
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if is_grad_enabled() and (result.requires_grad or out.requires_grad):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )
    if tuple(out.shape) == tuple(result.shape):
        out.copy_(result)
    else:
        out._replace(result.to(out.dtype).clone())
    return out


def _method_as_function(name):
    def function(input, *args, out=None, **kwargs):
        return _into_out(name, getattr(input, name)(*args, **kwargs), out)

    function.__name__ = name
    function.__qualname__ = name
    function.__module__ = "torch"
    return function


_COMPOSITES = ("sort", "argsort", "topk", "cumsum", "masked_fill", "tril", "triu", "diag",
               "diagonal", "trace", "outer", "square", "ceil", "trunc", "frac",
               "fmod", "flip", "roll", "lerp", "addcmul", "addcdiv", "baddbmm", "cumprod",
               "nonzero", "masked_select", "tile", "all", "any", "equal", "allclose", "isclose",
               "remainder", "floor_divide", "clip")
for _name in _C._FUNCTION_NAMES + _COMPOSITES:
    globals()[_name] = _method_as_function(_name)

from . import _indexing, _math, _products, _reduce, _select, _shape  # noqa: E402

# Functions of a tensor first, as Tensor methods are (`unfold` is a method
# only), and the functions that are not methods.
for _module in (_math, _shape, _select, _reduce, _products, _indexing):
    for _name in _module.METHODS + getattr(_module, "FUNCTIONS", ()):
        if _name != "unfold":
            globals()[_name] = getattr(_module, _name)
for _name in _math.METHODS_MORE + _math.METHODS_GAMMA + ("polygamma",):
    globals()[_name] = getattr(_math, _name)
absolute = abs  # noqa: F821 (defined above from the engine's names)
for _name, _target in _math.ALIASES.items():
    # its own function, as in PyTorch, so fx names `torch.arctan` as written
    globals()[_name] = (lambda f: lambda *a, **k: f(*a, **k))(getattr(_math, _target))
    globals()[_name].__name__ = globals()[_name].__qualname__ = _name
del _target
del _name, _module


def manual_seed(seed):
    """Seeds the generator of `rand`, `randn`, `randint` and dropout."""
    _C.manual_seed(_builtins.int(seed))
    return default_generator


class _DefaultGenerator(Generator):
    """`torch.default_generator`: the global generator itself."""

    def __init__(self):
        self.device = "cpu"

    def manual_seed(self, seed):
        _C.manual_seed(_builtins.int(seed))
        return self

    def initial_seed(self):
        return _C.initial_seed()


default_generator = _DefaultGenerator()


def seed():
    import random as _random

    value = _random.getrandbits(63)
    _C.manual_seed(value)
    return value


def max(input, dim=None, keepdim=False):
    return input.max(dim, keepdim)


def min(input, dim=None, keepdim=False):
    return input.min(dim, keepdim)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.var(dim, unbiased, keepdim, correction=correction)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.std(dim, unbiased, keepdim, correction=correction)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    return input.norm(p, dim, keepdim)


def is_floating_point(input):
    return input.is_floating_point()


def is_nonzero(input):
    if input.numel() != 1:
        if input.numel() == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return _builtins.bool(input.item() != 0)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None):
    if high is None:
        low, high = 0, low
    out = randint(low, high, tuple(input.shape), generator=generator)
    out = out.to(dtype or input.dtype)
    if device is not None:
        out = out.to(device)
    return out.requires_grad_(requires_grad) if requires_grad else out


_PROMOTION = {bool: 0, uint8: 1, int8: 2, int16: 3, int32: 4, int64: 5, bfloat16: 6, float32: 7, float64: 8}
_CATEGORY = {bool: 0, uint8: 1, int8: 1, int16: 1, int32: 1, int64: 1, bfloat16: 2, float32: 2, float64: 2}


def promote_types(type1, type2):
    if {type1, type2} == {uint8, int8}:
        return int16  # neither holds the other
    return type1 if _PROMOTION[type1] >= _PROMOTION[type2] else type2


def result_type(tensor1, tensor2):
    """The dtype an operation of the two would give: a number only lifts
    a tensor of a lower kind (int into float takes the default float)."""

    # Priority: tensors with dimensions, then 0-dim tensors, then numbers.
    def kind(x):
        if isinstance(x, Tensor):
            return x.dtype, 2 if x.dim() > 0 else 1
        if isinstance(x, _builtins.bool):
            return bool, 0
        if isinstance(x, _builtins.int):
            return int64, 0
        return get_default_dtype(), 0

    (a, a_rank), (b, b_rank) = kind(tensor1), kind(tensor2)
    if a_rank == b_rank:
        out = promote_types(a, b)
        return get_default_dtype() if a_rank == 0 and out in (float32, float64) else out
    high, low = (a, b) if a_rank > b_rank else (b, a)
    if _CATEGORY[low] > _CATEGORY[high]:
        return get_default_dtype() if low in (float32, float64) and _builtins.min(a_rank, b_rank) == 0 else low
    return high


def can_cast(from_, to):
    return _CATEGORY[from_] <= _CATEGORY[to]


class finfo:
    """The limits of a float dtype (the default dtype by default), as PyTorch's `finfo`."""

    __module__ = "torch"
    _LIMITS = {
        "float32": (32, 1.1920928955078125e-07, 3.4028234663852886e38, 1.1754943508222875e-38, 1e-06),
        "float64": (64, 2.220446049250313e-16, 1.7976931348623157e308, 2.2250738585072014e-308, 1e-15),
        "bfloat16": (16, 0.0078125, 3.3895313892515355e38, 1.1754943508222875e-38, 0.01),
    }

    def __init__(self, type=None):
        type = get_default_dtype() if type is None else type
        name = str(type)[6:]
        if name not in self._LIMITS:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'")
        self.bits, self.eps, self.max, self.tiny, self.resolution = self._LIMITS[name]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = name

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """The limits of an integer dtype, as PyTorch's `iinfo`."""

    __module__ = "torch"

    _LIMITS = {"uint8": (8, 0, 255), "int8": (8, -128, 127), "int16": (16, -(2**15), 2**15 - 1),
               "int32": (32, -(2**31), 2**31 - 1), "int64": (64, -(2**63), 2**63 - 1)}

    def __init__(self, type):
        name = str(type)[6:]
        if name not in self._LIMITS:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        self.bits, self.min, self.max = self._LIMITS[name]
        self.dtype = name

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def detach(input):
    return input.detach()


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):
    """gradscope runs the model as written: `compile` gives it back (or,
    as a decorator with arguments, a decorator that does)."""
    if model is None:
        return lambda fn: fn
    return model


def autocast(device_type, dtype=None, enabled=True, cache_enabled=None):
    from .amp import autocast as amp_autocast

    return amp_autocast(device_type, dtype, enabled, cache_enabled)


_deterministic = [False, False]
_matmul_precision = ["highest"]


def use_deterministic_algorithms(mode, *, warn_only=False):
    """gradscope's kernels are deterministic already; this records the flag."""
    _deterministic[0], _deterministic[1] = _builtins.bool(mode), _builtins.bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _deterministic[0]


def is_deterministic_algorithms_warn_only_enabled():
    return _deterministic[1]


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        import warnings

        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", stacklevel=2)
        return
    _matmul_precision[0] = precision


def get_float32_matmul_precision():
    return _matmul_precision[0]


def set_default_dtype(d):
    # The engine's setting: factories, torch.tensor of Python floats and the
    # promotion of Python floats read it; each program starts at float32.
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    _C._set_default_dtype(d)


class _Version:
    __name__ = "torch.version"
    __version__ = __version__
    cuda = None
    hip = None
    debug = False
    git_version = "gradscope"


version = _Version()


inf = _builtins.float("inf")
nan = _builtins.float("nan")
pi = 3.141592653589793
e = 2.718281828459045
newaxis = None


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


def get_default_dtype():
    # The module's own singleton, so `get_default_dtype() is torch.float64`.
    return float64 if _C._default_dtype() == float64 else float32


def _like(input, value, dtype, device, requires_grad):
    device = input.device if device is None else device
    return full(tuple(input.shape), value, dtype=input.dtype if dtype is None else dtype, device=device,
                requires_grad=requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 1, dtype, device, requires_grad)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 0, dtype, device, requires_grad)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 0, dtype, device, requires_grad)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
    return _like(input, fill_value, dtype, device, requires_grad)


def _random_like(factory, name):
    def function(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None):
        dtype = input.dtype if dtype is None else dtype
        if dtype in (int64, bool):
            kind = "check_uniform_bounds" if name == "rand_like" else "normal_kernel_cpu"
            raise NotImplementedError(f'"{kind}" not implemented for \'{"Long" if dtype == int64 else "Bool"}\'')
        with _drawing(generator):
            out = factory(tuple(input.shape), dtype=dtype, device=input.device if device is None else device)
        return out.requires_grad_(requires_grad) if requires_grad else out

    function.__name__ = function.__qualname__ = name
    function.__module__ = "torch"
    return function


rand_like = _random_like(_meta_aware(_C.rand), "rand_like")
randn_like = _random_like(_meta_aware(_C.randn), "randn_like")


def set_detect_anomaly(mode, check_nan=True):
    _C.set_detect_anomaly(mode)


def is_anomaly_enabled():
    return _C.is_anomaly_enabled()


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, **kwargs):
    with _drawing(generator):
        out = _C._randperm(_builtins.int(n), None)
    if dtype is not None and dtype != int64:
        out = out.to(dtype)
    return out


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """PyTorch's CPU sampler, draw for draw from the same generator: one
    sample, or any without replacement, is the argmax (top k) of
    `p / q` with `q ~ Exp(1)` (`-log1p(-u)` of uniform doubles); with
    replacement, a binary search of each uniform double in the row's
    normalised cumulative sums."""
    if input.dtype not in (float32, float64):
        names = {int64: "Long", bool: "Bool"}
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {names.get(input.dtype, input.dtype)}"
        )
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    n = _builtins.int(num_samples)
    categories = input.shape[-1]
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and n > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    # On the host: the draws are float64 (which a GPU cannot hold).
    rows = input.detach().cpu().reshape(-1, categories)
    values = rows.tolist()
    with _drawing(generator):
        if not replacement or n == 1:
            flat = [v for row in values for v in row]
            if not _builtins.all(v >= 0 and v != _builtins.float("inf") for v in flat):
                raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
            if _builtins.any(_builtins.sum(row) <= 0 for row in values):
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            q = (-_C.rand(tuple(rows.shape), dtype=float64, device="cpu").neg().log1p()).to(input.dtype)
            keys = rows / q
            index = keys.argmax(-1, keepdim=True) if n == 1 else keys.topk(n).indices
        else:
            draws = _C.rand(len(values) * n, dtype=float64, device="cpu").tolist()
            picked = []
            for i, row in enumerate(values):
                cumulative = _cumulative(row, input.dtype)
                cumulative[-1] = 1.0
                samples = []
                for u in draws[i * n:(i + 1) * n]:
                    left, right = 0, categories
                    while right > left:
                        mid = left + (right - left) // 2
                        if cumulative[mid] < u:
                            left = mid + 1
                        else:
                            right = mid
                    samples.append(left)
                picked.append(samples)
            index = _C.tensor(picked, dtype=int64, device="cpu")
    index = index.reshape(n) if input.dim() == 1 else index.reshape(input.shape[0], n)
    return index.to(input.device)


def _cumulative(row, dtype):
    """A row's cumulative sums over their total, in its dtype's rounding (as
    PyTorch's loop adds them), after PyTorch's checks."""
    single = dtype == float32
    rounded = (lambda v: _C.tensor(v, dtype=float32).item()) if single else (lambda v: v)
    for v in row:
        if v < 0:
            raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
        if v != v or v in (_builtins.float("inf"), _builtins.float("-inf")):
            raise RuntimeError(
                "invalid multinomial distribution (encountering probability entry = infinity or NaN)"
            )
    total, sums = 0.0, []
    for v in row:
        total = rounded(total + v)
        sums.append(total)
    if total <= 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    return [rounded(c / total) for c in sums]


def equal(input, other):
    return input.equal(other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.allclose(other, rtol, atol, equal_nan)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.isclose(other, rtol, atol, equal_nan)


def all(input, dim=None, keepdim=False):
    return input.all(dim, keepdim)


def any(input, dim=None, keepdim=False):
    return input.any(dim, keepdim)


def _number_as_operand(input, other):
    # `torch.floor_divide(7, t)`: the number as a tensor of the dtype the
    # pair promotes to, so the division happens in that dtype.
    if isinstance(input, Tensor):
        return input
    return tensor(input, dtype=result_type(input, other))


def remainder(input, other):
    return _number_as_operand(input, other).remainder(other)


def floor_divide(input, other):
    return _number_as_operand(input, other).floor_divide(other)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, **kwargs):
    """Normal draws: of float `mean` and `std` with a `size`, or elementwise
    of tensor means and/or deviations, as PyTorch draws them (standard
    draws of the output's shape, then scaled and shifted)."""
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal() missing required argument 'size'")
        out = empty(size, dtype=dtype or get_default_dtype())
        with _drawing(generator):
            return _C._normal_(out, _builtins.float(mean), _builtins.float(std))
    like = mean if isinstance(mean, Tensor) else std
    if isinstance(std, Tensor) and _builtins.bool((std < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if not isinstance(std, Tensor) and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    shape = broadcast_shapes(tuple(mean.shape) if isinstance(mean, Tensor) else (),
                             tuple(std.shape) if isinstance(std, Tensor) else ())
    out = empty(tuple(shape), dtype=like.dtype, device=like._device)
    with _drawing(generator):
        _C._normal_(out, 0.0, 1.0 if isinstance(std, Tensor) else _builtins.float(std))
    inputs = [t for t in (mean, std) if isinstance(t, Tensor)]

    def forward():
        return out * std + mean if isinstance(std, Tensor) else out + mean

    # PyTorch's node for the overload; a draw's gradient is zero.
    name = {(True, False): "NormalBackward1", (False, True): "NormalBackward2", (True, True): "NormalBackward3"}[
        (isinstance(mean, Tensor), isinstance(std, Tensor))]
    from . import _composite

    return _composite.op(name, inputs, forward, lambda g: [t.zeros_like() for t in inputs])


def typename(obj):
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in {"", "builtins"}:
        return qualname
    return f"{module}.{qualname}"


def broadcast_shapes(*shapes):
    ndim = _builtins.max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        if isinstance(shape, _builtins.int):
            shape = (shape,)
        for i in range(-1, -1 - len(shape), -1):
            size = shape[i]
            if size < 0:
                raise RuntimeError(
                    f"Trying to create tensor with negative dimension ({size}): ({size})"
                )
            if size == 1 or size == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape")
            result[i] = size
    return Size(result)


def broadcast_tensors(*tensors):
    # Folded pair by pair, as PyTorch's TensorIterator reports a mismatch
    # (unlike broadcast_shapes, whose message names no sizes).
    shape = []
    for t in tensors:
        s = list(t.shape)
        n = _builtins.max(len(shape), len(s))
        a = [1] * (n - len(shape)) + shape
        b = [1] * (n - len(s)) + s
        shape = [1] * n
        # From the last dimension, as PyTorch compares them.
        for d in range(n - 1, -1, -1):
            x, y = a[d], b[d]
            if x == y or y == 1:
                shape[d] = x
            elif x == 1:
                shape[d] = y
            else:
                raise RuntimeError(
                    f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                    f"at non-singleton dimension {d}"
                )
    # A tensor already of the shape is returned itself, as in PyTorch.
    return tuple(t if list(t.shape) == shape else t.expand(shape) for t in tensors)


# The meta device when Python set it (the engine keeps making CPU tensors
# then); otherwise the engine's default is the truth, since `gradscope run
# --device webgpu` and the page set it without going through Python.
_meta_default = False


def set_default_device(device_):
    """Where factories put new tensors: `"cpu"` or `"webgpu"` (alias `"gpu"`).
    Naming the GPU opens it, and fails saying why where there is none."""
    global _meta_default
    new = device("cpu" if device_ is None else device_)
    # The engine's factories make tensors on the CPU under the meta device;
    # the Python factories make meta tensors instead (`_meta_aware`).
    _C._set_default_device(None if device_ is None or new.type == "meta" else str(device_))
    _meta_default = new.type == "meta"


def get_default_device():
    return device("meta") if _meta_default else device(_C._get_default_device())


def set_num_threads(n):
    pass


def get_num_threads():
    return 1


from .serialization import load, save  # noqa: E402  (it imports torch)
from . import overrides  # noqa: E402  (it imports torch)
from ._numpy_bridge import install as _install_numpy_bridge  # noqa: E402
_install_numpy_bridge(globals())

# Submodules imported on first use (PEP 562), not by `import torch`: they
# are most of the start-up's time and many programs use none or a few of
# them. `torch.nn.Linear`, `import torch.nn as nn` and `from torch import
# nn` all work as in PyTorch, which imports them eagerly.
_LAZY_SUBMODULES = ("nn", "optim", "utils", "profiler", "linalg", "special", "distributions", "backends", "amp",
                    "func", "functional", "sparse", "fx", "onnx", "testing")


def __getattr__(name):
    if name == "vmap":
        from .func import vmap

        return vmap
    if name in _LAZY_SUBMODULES:
        __import__(f"torch.{name}")
        # The import system set the attribute on this module.
        return globals()[name]
    raise AttributeError(f"module 'torch' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))


class _PrinterOptions:
    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None

    def __repr__(self):
        return (f"__PrinterOptions(precision={self.precision}, threshold={self.threshold}, "
                f"edgeitems={self.edgeitems}, linewidth={self.linewidth}, sci_mode={self.sci_mode})")


_PRINT_OPTS = _PrinterOptions()


def _gradscope_new_process():
    """Print options as a fresh `import torch` has them (the runtime calls
    this as each program starts; the engine's own state it resets itself),
    `torch.__future__`'s switches off and no function routed to tensor
    subclasses."""
    set_printoptions(profile="default")
    __future__.set_overwrite_module_params_on_conversion(False)
    __future__.set_swap_module_params_on_conversion(False)
    _python_dispatch.new_process()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None):
    """How tensors print, as PyTorch's `set_printoptions`: each option given
    changes, the others stay; a `profile` resets all first."""
    opts = _PRINT_OPTS
    if profile is not None:
        presets = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, _builtins.float("inf"), 3, 80)}
        opts.precision, opts.threshold, opts.edgeitems, opts.linewidth = presets[profile]
    if precision is not None:
        opts.precision = precision
    if threshold is not None:
        opts.threshold = threshold
    if edgeitems is not None:
        opts.edgeitems = edgeitems
    if linewidth is not None:
        opts.linewidth = linewidth
    opts.sci_mode = sci_mode
    threshold = opts.threshold
    threshold = -1 if threshold == _builtins.float("inf") else _builtins.int(threshold)
    _C._set_printoptions(_builtins.int(opts.precision), threshold, _builtins.int(opts.edgeitems),
                         _builtins.int(opts.linewidth), -1 if sci_mode is None else _builtins.int(_builtins.bool(sci_mode)))


def get_printoptions():
    opts = _PRINT_OPTS
    return {"precision": opts.precision, "threshold": opts.threshold, "edgeitems": opts.edgeitems,
            "linewidth": opts.linewidth, "sci_mode": opts.sci_mode}


# PyTorch's in-place functions (`torch.sin_(x)`), where the method exists.
for _name in ("abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_",
              "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_", "clamp_min_",
              "clip_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fill_",
              "fix_", "floor_", "frac_", "gcd_", "i0_", "index_put_", "lcm_", "ldexp_", "log10_", "log1p_", "log2_",
              "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_", "round_",
              "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_",
              "xlogy_", "zero_"):
    if _name not in globals() and hasattr(Tensor, _name):
        globals()[_name] = _method_as_function(_name)
del _name


class layout:
    """`torch.layout`: gradscope's tensors are all `torch.strided`."""

    __module__ = "torch"

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name


strided = layout("strided")
sparse_coo = layout("sparse_coo")
Tensor.layout = property(lambda self: strided)


def matrix_exp(A):
    """`torch.matrix_exp`, as `torch.linalg.matrix_exp`."""
    from .linalg import matrix_exp as _matrix_exp

    return _matrix_exp(A)


Tensor.matrix_exp = matrix_exp


_SPARSE_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur when operating on "
    "a sparse tensor which violates the invariants, but checks incur performance overhead. To silence this warning, "
    "explicitly opt in or out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:916.)"
)


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory=False,
                      requires_grad=False, check_invariants=None, is_coalesced=None):
    """The tensor whose entries at `indices` (one column per entry) are
    `values`, repeated indices summed. gradscope builds it dense (see
    `torch.sparse`), after PyTorch's warning about unchecked invariants."""
    if check_invariants is None:
        from . import sparse as _sparse

        if not _sparse.check_sparse_tensor_invariants.is_enabled():
            import warnings

            warnings.warn(_SPARSE_WARNING, stacklevel=2)
    indices = indices if isinstance(indices, Tensor) else tensor(indices)
    values = values if isinstance(values, Tensor) else tensor(values)
    if size is None:
        size = [_builtins.int(indices[d].max()) + 1 for d in range(indices.shape[0])] + list(values.shape[1:])
    out = zeros(tuple(size), dtype=dtype or values.dtype)
    if indices.shape[1] > 0:
        out = out.index_put(tuple(indices[d] for d in range(indices.shape[0])), values.to(out.dtype),
                            accumulate=True)
    if device is not None:
        out = out.to(device)
    return out.requires_grad_() if requires_grad else out


def spmm(input, mat2):
    return input.mm(mat2)


def _to_sparse(self, *args, layout=None, blocksize=None, dense_dim=None):
    """Dense in gradscope (see `torch.sparse`): the tensor itself."""
    return self


Tensor.to_sparse = _to_sparse
Tensor.to_sparse_coo = _to_sparse
Tensor.to_dense = lambda self, dtype=None, *, masked_grad=None: self if dtype is None else self.to(dtype)
Tensor.coalesce = lambda self: self
