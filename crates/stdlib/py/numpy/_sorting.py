"""Sorting, searching and counting: `sort`, `argsort`, `unique`, `bincount`, ..."""

from ._cpu import torch

from ._dtype import bool_dtype, float64_dtype, int64_dtype
from ._ndarray import ndarray, _wrap, _cast


def _asarray(a):
    if isinstance(a, ndarray):
        return a
    from ._creation import asarray

    return asarray(a)


def sort(a, axis=-1, kind=None, order=None, stable=None):
    """`np.sort` (stable, as every NumPy sort of these dtypes is in effect for ties)."""
    a = _asarray(a)
    t = a._t
    if axis is None:
        t, axis = t.reshape(-1), 0
    return _wrap(t.sort(dim=axis, stable=True)[0], a._dtype)


def argsort(a, axis=-1, kind=None, order=None, stable=None):
    """`np.argsort`: stable order (NumPy's default quicksort differs only among ties)."""
    a = _asarray(a)
    t = a._t
    if axis is None:
        t, axis = t.reshape(-1), 0
    return _wrap(t.sort(dim=axis, stable=True)[1].cpu(), int64_dtype)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True):
    """`np.unique`: the sorted distinct values (of the flattened array)."""
    a = _asarray(ar)
    if a._dtype.kind == "U":
        from ._strings import unique as string_unique

        return string_unique(a, return_index, return_inverse, return_counts)
    flat = a._t.reshape(-1)
    values, order = flat.sort(stable=True)
    order = order.cpu()  # the engine's sort puts indices on the default device
    n = values.shape[0]
    if n == 0:
        result = [_wrap(values, a._dtype)]
        if return_index:
            result.append(_wrap(order, int64_dtype))
        if return_inverse:
            result.append(_wrap(order.reshape(a.shape), int64_dtype))
        if return_counts:
            result.append(_wrap(order, int64_dtype))
        return result[0] if len(result) == 1 else tuple(result)
    first = torch.ones((n,), dtype=torch.bool)
    if n > 1:
        first[1:] = values[1:] != values[:-1]
    uniq = values[first]
    result = [_wrap(uniq, a._dtype)]
    if return_index:
        result.append(_wrap(order[first], int64_dtype))
    if return_inverse:
        group = first.to(torch.int64).cumsum(0) - 1
        inverse = torch.zeros((n,), dtype=torch.int64)
        inverse[order] = group
        result.append(_wrap(inverse.reshape(a.shape) if a.ndim > 1 else inverse, int64_dtype))
    if return_counts:
        starts = first.nonzero().cpu().reshape(-1)
        ends = torch.cat([starts[1:], torch.tensor([n], dtype=torch.int64)])
        result.append(_wrap(ends - starts, int64_dtype))
    return result[0] if len(result) == 1 else tuple(result)


def bincount(x, weights=None, minlength=0):
    """`np.bincount`."""
    a = _asarray(x)
    if a._dtype.kind not in "iub":
        raise TypeError("Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'")
    t = a._t.to(torch.int64).reshape(-1)
    if t.numel() and bool((t < 0).any()):
        raise ValueError("'list' argument must have no negative elements")
    n = max(int(t.max().item()) + 1 if t.numel() else 0, minlength)
    if weights is None:
        out = torch.zeros((n,), dtype=torch.int64)
        out.index_add_(0, t, torch.ones_like(t))
        return _wrap(out, int64_dtype)
    w = _asarray(weights)._t.to(torch.float64).reshape(-1)
    out = torch.zeros((n,), dtype=torch.float64)
    out.index_add_(0, t, w)
    return _wrap(out, float64_dtype)


def searchsorted(a, v, side="left", sorter=None):
    a = _asarray(a)
    vv = _asarray(v)
    t = torch.searchsorted(a._t, vv._t.to(a._t.dtype) if vv._dtype.kind == a._dtype.kind else vv._t.double(), right=(side == "right")) \
        if vv.ndim else torch.searchsorted(a._t, vv._t.reshape(1).to(a._t.dtype), right=(side == "right"))[0]
    if t.dim() == 0:
        from ._dtype import int64

        return int64(t.item())
    return _wrap(t, int64_dtype)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """`np.histogram`: counts in equal bins (or at the given edges), NumPy's edges."""
    from ._creation import linspace, asarray

    arr = _asarray(a)
    x = arr._t.reshape(-1).to(torch.float64)
    if isinstance(bins, int):
        if range is None:
            lo = float(x.min().item()) if x.numel() else 0.0
            hi = float(x.max().item()) if x.numel() else 1.0
        else:
            lo, hi = float(range[0]), float(range[1])
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = linspace(lo, hi, bins + 1)
        n = bins
        keep = (x >= lo) & (x <= hi)
        xs = x[keep]
        idx = ((xs - lo) * (n / (hi - lo))).floor().to(torch.int64)
        idx = idx.clamp(0, n - 1)
        # NumPy corrects the computed bin against the edges themselves.
        e = edges._t
        idx = torch.where(xs < e[idx], idx - 1, idx)
        idx = torch.where((xs >= e[(idx + 1).clamp(max=n)]) & (idx != n - 1), idx + 1, idx)
    else:
        edges = asarray(bins, dtype=float64_dtype)
        e = edges._t
        n = e.shape[0] - 1
        keep = (x >= e[0]) & (x <= e[-1])
        xs = x[keep]
        idx = torch.searchsorted(e, xs, right=True) - 1
        idx = idx.clamp(0, n - 1)
    if weights is None:
        counts = torch.zeros((n,), dtype=torch.int64)
        counts.index_add_(0, idx, torch.ones_like(idx))
        hist = _wrap(counts, int64_dtype)
    else:
        w = _asarray(weights)._t.reshape(-1).to(torch.float64)[keep]
        sums = torch.zeros((n,), dtype=torch.float64)
        sums.index_add_(0, idx, w)
        hist = _wrap(sums, float64_dtype)
    if density:
        widths = edges._t[1:] - edges._t[:-1]
        hist = _wrap(hist._t.double() / widths / hist._t.sum().double(), float64_dtype)
    return hist, edges


def nonzero(a):
    a = _asarray(a)
    t = a._t if a._dtype is bool_dtype else a._t != 0
    if t.dim() == 0:
        t = t.reshape(1)
    return tuple(_wrap(x.cpu(), int64_dtype) for x in t.nonzero(as_tuple=True))


def flatnonzero(a):
    return nonzero(_asarray(a).ravel())[0]


def argwhere(a):
    a = _asarray(a)
    t = a._t if a._dtype is bool_dtype else a._t != 0
    return _wrap(t.nonzero().cpu(), int64_dtype)


def take(a, indices, axis=None):
    a = _asarray(a)
    idx = _asarray(indices)
    if axis is None:
        return _wrap(a._t.reshape(-1)[idx._t], a._dtype) if idx.ndim else a._dtype.type(a._t.reshape(-1)[int(idx)].item())
    return _wrap(a._t.index_select(axis, idx._t.reshape(-1)).reshape(
        a.shape[:axis] + idx.shape + a.shape[axis + 1:]), a._dtype)
