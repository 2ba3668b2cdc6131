"""gradscope's `numpy`: the part of NumPy that PyTorch programs use, over the engine's CPU tensors.

Arrays hold engine tensors (see `_ndarray`), so `torch.from_numpy` and
`Tensor.numpy()` share memory as in PyTorch. Values, printing, promotion
and random streams are held to NumPy 2.4 by tests/fixtures/record_numpy.py.
"""

import math as _math

__version__ = "2.4.6"

from ._dtype import (  # noqa: F401
    dtype, generic, number, floating, integer, signedinteger, unsignedinteger,
    float64, float32, float16, int64, int32, int16, int8, uint8, uint16,
    uint32, uint64, bool_, True_, False_,
)
from ._ndarray import ndarray  # noqa: F401
from ._creation import (  # noqa: F401
    array, asarray, asanyarray, ascontiguousarray, zeros, ones, full, empty, zeros_like,
    ones_like, empty_like, full_like, arange, linspace, logspace, eye, identity, meshgrid, copy,
)
from ._ufuncs import (  # noqa: F401
    ufunc, add, subtract, multiply, divide, true_divide, floor_divide, remainder, mod, power,
    float_power, maximum, minimum, fmax, fmin, arctan2, hypot, equal, not_equal, less,
    less_equal, greater, greater_equal, logical_and, logical_or, logical_xor, logical_not,
    bitwise_and, bitwise_or, sqrt, exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan,
    arcsin, arccos, arctan, sinh, cosh, tanh, arcsinh, arccosh, arctanh, reciprocal, cbrt,
    negative, positive, absolute, fabs, square, sign, floor, ceil, trunc, fix, rint, isnan,
    isinf, isfinite, signbit, round, around, clip, where, isclose, allclose, array_equal,
    nan_to_num, heaviside,
)
from ._ufuncs import abs  # noqa: F401
from ._reductions import (  # noqa: F401
    sum, mean, var, std, max, min, amax, amin, ptp, argmax, argmin, prod, cumsum, cumprod, any,
    all, count_nonzero, median, percentile, quantile, average, nansum, nanmean,
)
from ._shaping import (  # noqa: F401
    concatenate, concat, stack, vstack, hstack, column_stack, dstack, row_stack, split,
    array_split, hsplit, vsplit, expand_dims, squeeze, transpose, swapaxes, moveaxis, reshape,
    ravel, shape, size, ndim, repeat, tile, flip, fliplr, flipud, roll, broadcast_to,
    broadcast_arrays, tril, triu, diag, trace, pad, atleast_1d, atleast_2d,
)
from ._products import dot, vdot, inner, outer, matmul, tensordot, einsum  # noqa: F401
from ._sorting import (  # noqa: F401
    sort, argsort, unique, bincount, searchsorted, histogram, nonzero, flatnonzero, argwhere,
    take,
)
from ._printing import (  # noqa: F401
    set_printoptions, get_printoptions, printoptions, array2string, array_repr, array_str,
    format_float_positional, format_float_scientific,
)
from ._printing import _gradscope_new_process  # noqa: F401,E402  (called as each program starts)
from ._numeric import (  # noqa: F401
    diff, ediff1d, cross, kron, convolve, correlate, interp, polyval, polyfit, vander, trapezoid, cov,
    corrcoef, digitize, deg2rad, rad2deg, radians, degrees, logaddexp, append, delete, insert, rot90,
    atleast_3d, apply_along_axis, vectorize, select,
)
from ._setops import isin, intersect1d, union1d, setdiff1d, setxor1d  # noqa: F401
from ._index_tricks import (  # noqa: F401
    ix_, r_, c_, mgrid, ogrid, indices, tri, tril_indices, triu_indices, diag_indices, fill_diagonal,
    unravel_index, ravel_multi_index, ndindex, ndenumerate,
)
from ._nanfunctions import (  # noqa: F401
    nanmax, nanmin, nanargmax, nanargmin, nanprod, nancumsum, nanvar, nanstd, nanmedian, nanquantile,
    nanpercentile,
)
from ._elementwise import (  # noqa: F401
    bitwise_xor, left_shift, right_shift, gcd, lcm, invert, bitwise_not, bitwise_invert, copysign, fmod,
    logaddexp2, modf, ldexp, sinc, real, imag, conj, conjugate, iscomplexobj, isrealobj, iscomplex, isreal,
    gradient, lexsort, partition, argpartition, block, fromfunction,
    diagflat, extract, compress, trim_zeros, resize, rollaxis, unique_values, unique_counts, unique_inverse,
    put, choose, asarray_chkfinite,
)
from ._elementwise import divmod_ as divmod  # noqa: F401
from ._strings import str_, genfromtxt, loadtxt  # noqa: F401
from ._npyio import save, load, savez, savez_compressed, savetxt  # noqa: F401
from . import random, linalg, exceptions, lib  # noqa: F401

bool = bool_
double = float64
single = float32
int_ = intp = long = int64
intc = int32
half = float16
short = int16
byte = int8
ubyte = uint8
ushort = uint16
uintc = uint32
uint = uintp = ulong = uint64
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
euler_gamma = 0.5772156649015329
newaxis = None

# Names NumPy 2.0 removed, with its messages; and dtypes the engine lacks.
_REMOVED = {"float_": "np.float64", "PINF": "np.inf", "NINF": "-np.inf", "round_": "np.round",
            "alltrue": "np.all"}


def __getattr__(name):
    if name == "testing":
        # Imported on first use, as NumPy loads it lazily.
        import importlib

        return importlib.import_module("numpy.testing")
    if name in _REMOVED:
        raise AttributeError(f"`np.{name}` was removed in the NumPy 2.0 release. Use `{_REMOVED[name]}` instead.")
    if name in ("complex64", "complex128", "longdouble"):
        raise AttributeError(f"gradscope's numpy has no {name} arrays (only float64, float32, float16, int64, "
                             "int32, int16, int8, uint64, uint32, uint16, uint8 and bool)")
    raise AttributeError(f"module 'numpy' has no attribute '{name}'")


def isscalar(element):
    return isinstance(element, (int, float, complex, str, bytes, generic))


def result_type(*arrays_and_dtypes):
    from ._dtype import promote, _as_dtype

    out = None
    for x in arrays_and_dtypes:
        d = x.dtype if isinstance(x, (ndarray, generic)) else _as_dtype(x)
        out = d if out is None else promote(out, d)
    return out


def issubdtype(arg1, arg2):
    from ._dtype import _as_dtype

    kinds = {floating: "f", integer: "iu", signedinteger: "i", unsignedinteger: "u", number: "iuf",
             generic: "biuf"}
    d = _as_dtype(arg1)
    if arg2 in kinds:
        return d.kind in kinds[arg2]
    return d is _as_dtype(arg2)


class finfo:
    """`np.finfo` for float64 and float32."""

    def __init__(self, dtype=float64):
        from ._dtype import _as_dtype

        d = _as_dtype(dtype)
        self.dtype = d
        if d.name == "float16":
            self.eps = float16(0.000977)
            self.max = float16(65504.0)
            self.min = float16(-65504.0)
            self.tiny = self.smallest_normal = float16(6.104e-05)
            self.precision, self.bits, self.resolution = 3, 16, float16(0.001)
        elif d.name == "float32":
            self.eps = float32(1.1920929e-07)
            self.max = float32(3.4028235e38)
            self.min = float32(-3.4028235e38)
            self.tiny = self.smallest_normal = float32(1.1754944e-38)
            self.precision, self.bits, self.resolution = 6, 32, float32(1e-06)
        else:
            self.eps = float64(2.220446049250313e-16)
            self.max = float64(1.7976931348623157e308)
            self.min = float64(-1.7976931348623157e308)
            self.tiny = self.smallest_normal = float64(2.2250738585072014e-308)
            self.precision, self.bits, self.resolution = 15, 64, float64(1e-15)


class iinfo:
    """`np.iinfo` for int64 and int32."""

    def __init__(self, int_type):
        from ._dtype import _as_dtype

        d = _as_dtype(int_type)
        self.dtype = d
        self.bits = d.itemsize * 8
        if d.kind == "u":
            self.min, self.max = 0, 2 ** self.bits - 1
        else:
            self.max = 2 ** (self.bits - 1) - 1
            self.min = -(2 ** (self.bits - 1))


def errstate(**kwargs):
    import contextlib

    return contextlib.nullcontext()


def seterr(**kwargs):
    return {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


def _attach_methods():
    """ndarray methods that are the module functions (`a.sum()` is `np.sum(a)`)."""
    from . import _reductions, _sorting, _ufuncs, _shaping, _elementwise

    for name in ("sum", "mean", "std", "var", "min", "max", "argmin", "argmax", "cumsum",
                 "cumprod", "prod", "any", "all", "ptp"):
        setattr(ndarray, name, getattr(_reductions, name))
    ndarray.round = _ufuncs.round
    ndarray.clip = _ufuncs.clip
    ndarray.argsort = _sorting.argsort
    ndarray.nonzero = _sorting.nonzero
    ndarray.take = _sorting.take
    ndarray.trace = _shaping.trace

    def sort(self, axis=-1, kind=None, order=None):
        self._t.copy_(self._t.sort(dim=axis, stable=True)[0])

    def diagonal(self, offset=0, axis1=0, axis2=1):
        from ._ndarray import _wrap

        return _wrap(self._t.diagonal(offset, axis1, axis2), self._dtype)

    def searchsorted(self, v, side="left", sorter=None):
        return _sorting.searchsorted(self, v, side)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        sort(self, axis)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return _elementwise.argpartition(self, kth, axis)

    def compress(self, condition, axis=None, out=None):
        return _elementwise.compress(condition, self, axis)

    ndarray.partition = partition
    ndarray.argpartition = argpartition
    ndarray.compress = compress
    ndarray.sort = sort
    ndarray.diagonal = diagonal
    ndarray.searchsorted = searchsorted
    ndarray.conj = ndarray.conjugate = lambda self: self


_attach_methods()


def _bridge():
    from torch import _numpy_bridge

    _numpy_bridge.accept_arrays()


_bridge()
