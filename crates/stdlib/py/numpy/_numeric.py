"""Differences, products of vectors, polynomials, interpolation, covariance,
and the array editing functions (`append`, `insert`, `delete`, `rot90`):
written over this package's own arrays in NumPy's steps, so that results
round as NumPy's do (`cov` multiplies by the reciprocal of its divisor,
`trapezoid` halves after adding, `interp` takes the slope first).
"""

import math as _math

from ._cpu import torch

from . import _dtype as _d
from ._dtype import bool_dtype, float64_dtype, int64_dtype
from ._ndarray import ndarray, _wrap


def _asarray(a, dtype=None):
    from ._creation import asarray

    return asarray(a, dtype=dtype)


def _axis(axis, ndim):
    from ._ufuncs import _normalise_axis

    return _normalise_axis(axis, ndim)


def _slice_along(ndim, axis, sl):
    key = [slice(None)] * ndim
    key[axis] = sl
    return tuple(key)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """`np.diff`: a[1:] - a[:-1] along an axis, n times (`!=` for bools)."""
    from ._shaping import concatenate, broadcast_to

    a = _asarray(a)
    if n == 0:
        return a
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _axis(axis, a.ndim)
    parts = []
    for extra in (prepend, None, append):
        if extra is None:
            if not parts:
                parts.append(None)
            continue
        e = _asarray(extra)
        if e.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            e = broadcast_to(e, tuple(shape))
        parts.append(e)
    if prepend is not None or append is not None:
        pieces = ([parts[0]] if prepend is not None else []) + [a] + ([parts[-1]] if append is not None else [])
        a = concatenate(pieces, axis=axis)
    hi = _slice_along(a.ndim, axis, slice(1, None))
    lo = _slice_along(a.ndim, axis, slice(None, -1))
    for _ in range(n):
        a = (a[hi] != a[lo]) if a._dtype is bool_dtype else a[hi] - a[lo]
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """`np.ediff1d`: the differences of the flattened array, with ends added."""
    from ._shaping import concatenate

    a = _asarray(ary).reshape(-1)
    d = a[1:] - a[:-1]
    pieces = []
    if to_begin is not None:
        pieces.append(_asarray(to_begin, dtype=d.dtype).reshape(-1))
    pieces.append(d)
    if to_end is not None:
        pieces.append(_asarray(to_end, dtype=d.dtype).reshape(-1))
    return concatenate(pieces) if len(pieces) > 1 else d


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """`np.cross` of 3-vectors (and 2-vectors, whose product is a scalar
    per pair) along the last axis, NumPy's formulas term for term."""
    from ._shaping import moveaxis, stack

    a, b = _asarray(a), _asarray(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    if a2 is None:
        cp = [a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0]
    elif b2 is None:
        cp = [-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0]
    else:
        cp = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    return moveaxis(stack(cp, axis=-1), -1, axisc)


def kron(a, b):
    """`np.kron`: every a[i, j] times b, laid out in blocks."""
    a, b = _asarray(a), _asarray(b)
    nd = max(a.ndim, b.ndim)
    a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    b = b.reshape((1,) * (nd - b.ndim) + b.shape)
    # a's axes interleaved with b's: (a0, b0, a1, b1, ...).
    ea = a.reshape(tuple(x for s in a.shape for x in (s, 1)))
    eb = b.reshape(tuple(x for s in b.shape for x in (1, s)))
    return (ea * eb).reshape(tuple(p * q for p, q in zip(a.shape, b.shape)))


def _correlate_list(a, v):
    """NumPy's 'full' correlation of two Python lists, each sum in order."""
    n, m = len(a), len(v)
    out = []
    for k in range(-(m - 1), n):
        s = 0
        first = True
        for j in range(m):
            i = k + j
            if 0 <= i < n:
                s = a[i] * v[j] if first else s + a[i] * v[j]
                first = False
        out.append(s)
    return out


def _correlate(a, v, mode, reverse):
    from ._dtype import promote

    a, v = _asarray(a), _asarray(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    if a.size == 0:
        raise ValueError("a cannot be empty")
    if v.size == 0:
        raise ValueError("v cannot be empty")
    dt = promote(a._dtype, v._dtype)
    if dt is bool_dtype:
        dt = bool_dtype
    la, lv = a.tolist(), v.tolist()
    if reverse:
        lv = lv[::-1]
    swapped = len(lv) > len(la)
    full = _correlate_list(lv, la)[::-1] if swapped else _correlate_list(la, lv)
    n, m = max(len(la), len(lv)), min(len(la), len(lv))
    if mode == "full":
        vals = full
    elif mode == "same":
        start = (m - 1) // 2 if not swapped or reverse else m // 2
        vals = full[start:start + n]
    elif mode == "valid":
        vals = full[m - 1:n]
    else:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return _wrap(torch.tensor(vals, dtype=dt._torch), dt) if vals else _wrap(torch.zeros(0, dtype=dt._torch), dt)


def convolve(a, v, mode="full"):
    """`np.convolve` of two vectors: correlation with v reversed."""
    a, v = _asarray(a), _asarray(v)
    if v.size > a.size:
        a, v = v, a
    return _correlate(a, v, mode, reverse=True)


def correlate(a, v, mode="valid"):
    """`np.correlate` of two vectors."""
    return _correlate(a, v, mode, reverse=False)


def interp(x, xp, fp, left=None, right=None, period=None):
    """`np.interp`: piecewise-linear, NumPy's slope-first formula."""
    import bisect

    if period is not None:
        raise NotImplementedError("gradscope's numpy has no np.interp(period=)")
    xa = _asarray(x, dtype=float64_dtype)
    xs, ys = _asarray(xp, dtype=float64_dtype).tolist(), _asarray(fp, dtype=float64_dtype).tolist()
    if len(xs) == 0:
        raise ValueError("array of sample points is empty")
    if len(xs) != len(ys):
        raise ValueError("fp and xp are not of the same length.")
    lo = ys[0] if left is None else float(left)
    hi = ys[-1] if right is None else float(right)

    def one(v):
        if v != v:
            return v
        if v < xs[0]:
            return lo
        if v > xs[-1]:
            return hi
        if v == xs[-1]:
            return ys[-1]
        j = bisect.bisect_right(xs, v) - 1
        if xs[j] == v:
            return ys[j]
        slope = (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j])
        r = slope * (v - xs[j]) + ys[j]
        if r != r:
            r = slope * (v - xs[j + 1]) + ys[j + 1]
            if r != r and ys[j] == ys[j + 1]:
                r = ys[j]
        return r

    if xa.ndim == 0:
        return _d.float64(one(float(xa)))
    vals = [one(v) for v in xa.reshape(-1).tolist()]
    return _wrap(torch.tensor(vals, dtype=torch.float64).reshape(xa.shape), float64_dtype)


def polyval(p, x):
    """`np.polyval`: Horner's rule, highest power first."""
    from ._creation import zeros_like

    p = _asarray(p)
    x = x if isinstance(x, ndarray) else _asarray(x)
    y = zeros_like(x)
    for pv in p:
        y = y * x + pv
    return y[()] if isinstance(y, ndarray) and y.ndim == 0 else y


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """`np.polyfit`: least squares on the Vandermonde matrix with NumPy's
    column scaling (through this package's SVD: values to rounding)."""
    from . import linalg

    if w is not None or cov:
        raise NotImplementedError("gradscope's numpy has no np.polyfit(w=) or (cov=)")
    deg = int(deg)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    x = _asarray(x, dtype=float64_dtype) + 0.0
    y = _asarray(y, dtype=float64_dtype) + 0.0
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    lhs = vander(x, deg + 1)
    scale = (lhs * lhs).sum(axis=0) ** 0.5
    lhs = lhs / scale
    if rcond is None:
        rcond = len(x) * 2.220446049250313e-16
    c, resids, rank, s = linalg.lstsq(lhs, y, rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, s, rcond
    return c


def vander(x, N=None, increasing=False):
    """`np.vander`: columns x**(N-1), ..., x, 1, each power the product of
    the one below and x (NumPy's multiply.accumulate)."""
    from ._shaping import stack
    from ._creation import ones

    x = _asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = len(x)
    dt = _d.promote(x._dtype, int64_dtype)
    if N == 0:
        return _wrap(torch.zeros((len(x), 0), dtype=dt._torch), dt)
    cols = [ones(len(x), dtype=dt)]
    acc = x.astype(dt)
    for _ in range(1, N):
        cols.append(acc)
        acc = acc * x
    if not increasing:
        cols = cols[::-1]
    return stack(cols, axis=1)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """`np.trapezoid`: (d * (y[1:] + y[:-1]) / 2.0).sum(axis)."""
    y = _asarray(y)
    axis = _axis(axis, y.ndim)
    if x is None:
        d = dx
    else:
        x = _asarray(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(tuple(shape))
        else:
            d = diff(x, axis=axis)
    hi = _slice_along(y.ndim, axis, slice(1, None))
    lo = _slice_along(y.ndim, axis, slice(None, -1))
    return (d * (y[hi] + y[lo]) / 2.0).sum(axis)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """`np.cov`: deviations from the mean, X @ X.T, times 1 / (N - ddof)."""
    from ._shaping import concatenate

    if fweights is not None or aweights is not None:
        raise NotImplementedError("gradscope's numpy has no np.cov(fweights=) or (aweights=)")
    X = _asarray(m)
    if X.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    dt = dtype if dtype is not None else (X._dtype if X._dtype.kind == "f" else float64_dtype)
    X = X.astype(dt).reshape((1, -1) if X.ndim < 2 else X.shape)
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if X.shape[0] == 0:
        return _wrap(torch.zeros((0, 0), dtype=torch.float64), float64_dtype)
    if y is not None:
        Y = _asarray(y).astype(dt)
        Y = Y.reshape((1, -1) if Y.ndim < 2 else Y.shape)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    avg = X.mean(axis=1)
    fact = X.shape[1] - ddof
    if fact <= 0:
        import warnings

        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = X - avg[:, None]
    c = X @ X.T
    c = c * (1.0 / fact if fact else _math.inf)
    return c.squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """`np.corrcoef`: `cov` divided by the outer product of the deviations, clipped to [-1, 1]."""
    from ._ufuncs import clip

    c = cov(x, y, rowvar, dtype=dtype)
    if not isinstance(c, ndarray) or c.ndim == 0:
        return c / c
    d = c.diagonal()
    stddev = d ** 0.5
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    return clip(c, -1, 1)


def digitize(x, bins, right=False):
    """`np.digitize`: the bin of each x (`searchsorted` on the edges)."""
    from ._sorting import searchsorted

    x, bins = _asarray(x), _asarray(bins)
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array")
    side = "left" if right else "right"
    b = bins.tolist()
    increasing = all(p <= q for p, q in zip(b, b[1:]))
    decreasing = all(p >= q for p, q in zip(b, b[1:]))
    if not increasing and not decreasing:
        raise ValueError("bins must be monotonically increasing or decreasing")
    if increasing:
        return searchsorted(bins, x, side=side)
    return len(b) - searchsorted(bins[::-1], x, side=side)


def deg2rad(x):
    """`np.deg2rad` (`np.radians`): x * (pi / 180)."""
    return _float_scaled(x, _math.pi / 180.0)


def rad2deg(x):
    """`np.rad2deg` (`np.degrees`): x * (180 / pi)."""
    return _float_scaled(x, 180.0 / _math.pi)


def _float_scaled(x, factor):
    from ._ufuncs import _arr, _finish

    import struct

    a, scalar = _arr(x)
    dt = a._dtype if a._dtype.kind == "f" else float64_dtype
    if dt is not float64_dtype:
        # NumPy's float32 loop multiplies by a float32 constant made of
        # float32 pi (180.0f / NPY_PIf), not by the double rounded.
        f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]  # noqa: E731
        pi32 = f32(_math.pi)
        factor = f32(180.0 / pi32) if factor > 1 else f32(pi32 / 180.0)
    return _finish(a._t.to(dt._torch) * factor, dt, scalar, None)


radians, degrees = deg2rad, rad2deg


def logaddexp(x1, x2):
    """`np.logaddexp`: log(exp(x1) + exp(x2)) as NumPy's npy_logaddexp."""
    from ._ufuncs import _binary_dtype, _finish

    a, b, rd, scalar = _binary_dtype(x1, x2)
    rd = rd if rd.kind == "f" else float64_dtype
    a, b = a.to(rd._torch), (b.to(rd._torch) if isinstance(b, torch.Tensor) else torch.tensor(b, dtype=rd._torch))
    a, b = torch.broadcast_tensors(a, b)
    tmp = a - b
    big = a + torch.log1p(torch.exp(-tmp))
    small = b + torch.log1p(torch.exp(tmp))
    r = torch.where(tmp > 0, big, torch.where(tmp <= 0, small, tmp))
    r = torch.where(a == b, a + _math.log(2.0), r)
    return _finish(r, rd, scalar, None)


def append(arr, values, axis=None):
    """`np.append`: flattened then joined when axis is None."""
    from ._shaping import concatenate

    arr, values = _asarray(arr), _asarray(values)
    if axis is None:
        return concatenate((arr.reshape(-1), values.reshape(-1)))
    return concatenate((arr, values), axis=axis)


def delete(arr, obj, axis=None):
    """`np.delete`: the array without the given indices (or slice) along an axis."""
    arr = _asarray(arr)
    if axis is None:
        arr = arr.reshape(-1)
        axis = 0
    axis = _axis(axis, arr.ndim)
    n = arr.shape[axis]
    keep = [True] * n
    if isinstance(obj, slice):
        for i in range(*obj.indices(n)):
            keep[i] = False
    else:
        idx = _asarray(obj)
        if idx._dtype is bool_dtype:
            if idx.shape != (n,):
                raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the "
                                 f"axis length of {n}")
            keep = [not v for v in idx.tolist()]
        else:
            for i in idx.reshape(-1).tolist():
                if not -n <= i < n:
                    raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
                keep[i % n] = False
    mask = _wrap(torch.tensor(keep, dtype=torch.bool), bool_dtype)
    return arr[_slice_along(arr.ndim, axis, mask)]


def insert(arr, obj, values, axis=None):
    """`np.insert` at one index (an int): the values before that position."""
    from ._shaping import concatenate, broadcast_to, moveaxis

    arr = _asarray(arr)
    if axis is None:
        arr = arr.reshape(-1)
        axis = 0
    axis = _axis(axis, arr.ndim)
    if not isinstance(obj, int):
        raise NotImplementedError("gradscope's numpy inserts at one index (an int), not at several")
    n = arr.shape[axis]
    if not -n <= obj <= n:
        raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
    obj = obj % (n + 1) if obj < 0 else obj
    values = _asarray(values, dtype=arr.dtype)
    if values.ndim == 0 or arr.ndim == 1:
        shape = list(arr.shape)
        shape[axis] = 1 if values.ndim == 0 else values.size
        values = broadcast_to(values.reshape(-1) if values.ndim else values, tuple(shape)) if arr.ndim == 1 else \
            broadcast_to(values, tuple(shape))
    else:
        values = moveaxis(values.reshape((1,) + values.shape) if values.ndim < arr.ndim else values, 0, axis)
        shape = list(arr.shape)
        shape[axis] = values.shape[axis]
        values = broadcast_to(values, tuple(shape))
    before = arr[_slice_along(arr.ndim, axis, slice(None, obj))]
    after = arr[_slice_along(arr.ndim, axis, slice(obj, None))]
    return concatenate((before, values, after), axis=axis)


def rot90(m, k=1, axes=(0, 1)):
    """`np.rot90`: a view turned k quarter turns from axes[0] toward axes[1]."""
    from ._shaping import flip, transpose

    m = _asarray(m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    order = list(range(m.ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), order)
    return flip(transpose(m, order), axes[1])


def atleast_3d(*arys):
    """`np.atleast_3d`: (1, 1, 1), (1, N, 1) and (M, N, 1) for 0, 1 and 2 dims."""
    out = []
    for a in arys:
        a = _asarray(a)
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, -1, 1)
        elif a.ndim == 2:
            a = a.reshape(a.shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """`np.apply_along_axis`: func1d on every 1-D slice; its result's axes
    take the place of `axis`."""
    from ._shaping import moveaxis, stack
    import itertools

    arr = _asarray(arr)
    axis = _axis(axis, arr.ndim)
    moved = moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    results = [_asarray(func1d(moved[idx], *args, **kwargs)) for idx in itertools.product(*map(range, outer))]
    if not results:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    out = stack(results).reshape(tuple(outer) + results[0].shape)
    for i in range(results[0].ndim):
        out = moveaxis(out, len(outer) + i, axis + i)
    return out


class vectorize:
    """`np.vectorize`: the Python function over broadcast elements; the
    output dtype is that of its first result (or `otypes`)."""

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if signature is not None:
            raise NotImplementedError("gradscope's numpy has no np.vectorize(signature=)")
        self.pyfunc = pyfunc
        self.otypes = otypes
        self.__doc__ = doc if doc is not None else pyfunc.__doc__

    def __call__(self, *args, **kwargs):
        from ._shaping import broadcast_arrays
        from ._creation import array

        arrays = broadcast_arrays(*[_asarray(a) for a in args])
        shape = arrays[0].shape if arrays else ()
        flats = [a.reshape(-1).tolist() for a in arrays]
        outs = [self.pyfunc(*vals, **kwargs) for vals in zip(*flats)]
        if self.otypes:
            dt = _d._as_dtype(self.otypes[0] if not isinstance(self.otypes, str) else self.otypes[0])
        elif outs:
            dt = _asarray(outs[0]).dtype
        else:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        r = array(outs, dtype=dt).reshape(shape)
        return r[()] if r.ndim == 0 else r


def select(condlist, choicelist, default=0):
    """`np.select`: from the first condition that holds, its choice."""
    from ._ufuncs import where
    from ._shaping import broadcast_arrays

    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [_asarray(c) for c in condlist]
    for c in conds:
        if c._dtype is not bool_dtype:
            raise TypeError("invalid entry 0 in condlist: should be boolean ndarray")
    from . import result_type

    choices = [_asarray(c) if not isinstance(c, (int, float)) else c for c in choicelist]
    dt = result_type(*[c if isinstance(c, ndarray) else _asarray(c) for c in choices + [default]]) \
        if not all(isinstance(c, (int, float)) for c in choices) else _asarray(choices + [default]).dtype
    result = _asarray(default).astype(dt)
    for cond, choice in zip(conds[::-1], choices[::-1]):
        result = where(cond, choice, result).astype(dt)
    parts = broadcast_arrays(result, *conds)
    return parts[0].copy()
