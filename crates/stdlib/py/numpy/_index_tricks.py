"""Index helpers (NumPy's index_tricks and twodim_base): `ix_`, `r_`, `c_`,
`mgrid`, `ogrid`, `indices`, `tri` and the triangle and diagonal indices,
`unravel_index`, `ravel_multi_index`, `ndindex`, `ndenumerate`."""

import itertools as _itertools
import operator as _operator

from ._cpu import torch

from . import _dtype as _d
from ._dtype import bool_dtype, float64_dtype, int64_dtype
from ._ndarray import _wrap


def _asarray(a, dtype=None):
    from ._creation import asarray

    return asarray(a, dtype=dtype)


def ix_(*args):
    """`np.ix_`: each sequence shaped to index one axis of an open mesh."""
    out = []
    nd = len(args)
    for k, seq in enumerate(args):
        a = _asarray(seq)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a._dtype is bool_dtype:
            from ._sorting import nonzero

            a = nonzero(a)[0]
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _slice_values(s):
    """A slice of r_/mgrid as values: arange, or linspace for a complex step."""
    from ._creation import arange, linspace

    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if isinstance(step, complex):
        return linspace(start, s.stop, int(abs(step)))
    return arange(start, s.stop, step)


class _Concatenator:
    """`np.r_` (rows, axis 0) and `np.c_` (columns, the last axis)."""

    def __init__(self, columns):
        self._columns = columns

    def __getitem__(self, key):
        from ._shaping import concatenate

        if not isinstance(key, tuple):
            key = (key,)
        parts = []
        for item in key:
            if isinstance(item, str):
                raise NotImplementedError("gradscope's numpy has no string directives in np.r_/np.c_")
            a = _slice_values(item) if isinstance(item, slice) else _asarray(item)
            if a.ndim == 0:
                a = a.reshape(1)
            if self._columns and a.ndim == 1:
                a = a.reshape(-1, 1)
            parts.append(a)
        return concatenate(parts, axis=-1 if self._columns else 0)

    def __len__(self):
        return 0


r_ = _Concatenator(False)
c_ = _Concatenator(True)


class _Grid:
    """`np.mgrid` (dense) and `np.ogrid` (open)."""

    def __init__(self, sparse):
        self._sparse = sparse

    def __getitem__(self, key):
        from ._creation import meshgrid
        from ._shaping import stack

        if isinstance(key, slice):
            return _slice_values(key)
        axes = [_slice_values(s) for s in key]
        floats = any(a._dtype.kind == "f" for a in axes)
        if floats:
            axes = [a.astype(float64_dtype) for a in axes]
        grids = meshgrid(*axes, indexing="ij", sparse=self._sparse)
        if self._sparse:
            return tuple(grids)
        return stack(grids)


mgrid = _Grid(False)
ogrid = _Grid(True)


def indices(dimensions, dtype=int, sparse=False):
    """`np.indices`: the index along each axis at every position of a grid."""
    from ._creation import arange
    from ._shaping import stack

    dimensions = tuple(dimensions)
    dt = _d._as_dtype(dtype)
    nd = len(dimensions)
    parts = []
    for k, n in enumerate(dimensions):
        a = arange(n, dtype=dt).reshape((1,) * k + (n,) + (1,) * (nd - k - 1))
        parts.append(a if sparse else _wrap(a._t.expand(dimensions).contiguous(), dt))
    if sparse:
        return tuple(parts)
    return stack(parts) if parts else _wrap(torch.zeros((0,), dtype=dt._torch), dt)


def tri(N, M=None, k=0, dtype=float):
    """`np.tri`: ones at and below the k-th diagonal."""
    dt = _d._as_dtype(dtype)
    M = N if M is None else M
    i = torch.arange(N).reshape(-1, 1)
    j = torch.arange(M).reshape(1, -1)
    mask = j <= i + k
    return _wrap(mask.to(dt._torch) if dt is not bool_dtype else mask, dt)


def tril_indices(n, k=0, m=None):
    """`np.tril_indices`: (rows, cols) of the lower triangle, row by row."""
    from ._sorting import nonzero

    return nonzero(tri(n, m, k, dtype=bool))


def triu_indices(n, k=0, m=None):
    """`np.triu_indices`: (rows, cols) of the upper triangle, row by row."""
    from ._sorting import nonzero

    return nonzero(~tri(n, m, k - 1, dtype=bool))


def diag_indices(n, ndim=2):
    """`np.diag_indices`: (arange(n),) * ndim."""
    from ._creation import arange

    idx = arange(n)
    return (idx,) * ndim


def fill_diagonal(a, val, wrap=False):
    """`np.fill_diagonal`: in place, on a[i, i, ...]."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    n = min(a.shape)
    if wrap and a.ndim == 2 and a.shape[0] > a.shape[1]:
        rows = [r for r in range(a.shape[0]) if r % (a.shape[1] + 1) < a.shape[1]]
        cols = [r % (a.shape[1] + 1) for r in rows]
    else:
        rows = cols = list(range(n))
    vals = _asarray(val).reshape(-1).tolist()
    if not vals:
        return None
    for i, (r, c) in enumerate(zip(rows, cols)):
        a[(r,) + (c,) * (a.ndim - 1)] = vals[i % len(vals)]
    return None


def unravel_index(indices, shape, order="C"):
    """`np.unravel_index`: flat indices to a tuple of coordinate arrays."""
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(shape)
    size = 1
    for s in shape:
        size *= s
    idx = _asarray(indices)
    if idx._dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    flat = idx.reshape(-1).tolist()
    for v in flat:
        if not 0 <= v < size:
            raise ValueError(f"index {v} is out of bounds for array with size {size}")
    dims = shape if order == "C" else shape[::-1]
    coords = []
    for v in flat:
        c = []
        for s in reversed(dims):
            v, r = divmod(v, s)
            c.append(r)
        coords.append(c[::-1] if order == "C" else c)
    out = []
    for k in range(len(shape)):
        col = [c[k] for c in coords]
        if idx.ndim == 0:
            out.append(_d.int64(col[0]))
        else:
            out.append(_wrap(torch.tensor(col, dtype=torch.int64).reshape(idx.shape), int64_dtype))
    return tuple(out)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """`np.ravel_multi_index`: coordinate arrays to flat indices."""
    dims = tuple(dims)
    arrays = [_asarray(m) for m in multi_index]
    if len(arrays) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    from ._shaping import broadcast_arrays

    arrays = broadcast_arrays(*arrays)
    acc = 1
    order_dims = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    stride_of = {}
    for k in order_dims:
        stride_of[k] = acc
        acc *= dims[k]
    total = None
    for k, a in enumerate(arrays):
        if mode == "raise" and bool(((a < 0) | (a >= dims[k])).any()):
            raise ValueError("invalid entry in coordinates array")
        term = a * stride_of[k]
        total = term if total is None else total + term
    return total[()] if total.ndim == 0 else total


class ndindex:
    """`np.ndindex`: every index tuple of a shape, last axis fastest."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        self._it = _itertools.product(*[range(_operator.index(s)) for s in shape])

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


def ndenumerate(arr):
    """`np.ndenumerate`: (index tuple, element) pairs."""
    a = _asarray(arr)
    for idx in _itertools.product(*map(range, a.shape)):
        yield idx, a[idx]
