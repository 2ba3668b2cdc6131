"""gradscope's `torch`: PyTorch's API over gradscope's engine."""

import builtins as _builtins

import _gradscope as _C

from ._size import Size
from ._device import device
from ._tensor import Tensor
from . import autograd, cuda, return_types
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
bool = _C.bool

tensor = _C.tensor
ones = _C.ones
zeros = _C.zeros
full = _C.full
empty = _C.empty
arange = _C.arange
linspace = _C.linspace
eye = _C.eye
rand = _C.rand
randn = _C.randn
randint = _C.randint
cat = concat = concatenate = _C.cat
stack = _C.stack
where = _C.where
initial_seed = _C.initial_seed

OutOfMemoryError = _C.OutOfMemoryError
cuda.OutOfMemoryError = OutOfMemoryError


def _method_as_function(name):
    def function(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)

    function.__name__ = name
    function.__qualname__ = name
    function.__module__ = "torch"
    return function


for _name in _C._FUNCTION_NAMES:
    globals()[_name] = _method_as_function(_name)
del _name


def manual_seed(seed):
    """Seeds the generator of `rand`, `randn`, `randint` and dropout."""
    _C.manual_seed(int(seed))


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


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


def get_default_dtype():
    return float32


def _like(input, value, dtype, requires_grad):
    return full(tuple(input.shape), value, dtype=input.dtype if dtype is None else dtype,
                requires_grad=requires_grad)


def ones_like(input, *, dtype=None, requires_grad=False, **kwargs):
    return _like(input, 1, dtype, requires_grad)


def zeros_like(input, *, dtype=None, requires_grad=False, **kwargs):
    return _like(input, 0, dtype, requires_grad)


def empty_like(input, *, dtype=None, requires_grad=False, **kwargs):
    return _like(input, 0, dtype, requires_grad)


def full_like(input, fill_value, *, dtype=None, requires_grad=False, **kwargs):
    return _like(input, fill_value, dtype, requires_grad)


def set_detect_anomaly(mode, check_nan=True):
    _C.set_detect_anomaly(mode)


def is_anomaly_enabled():
    return _C.is_anomaly_enabled()


def set_num_threads(n):
    pass


def get_num_threads():
    return 1
