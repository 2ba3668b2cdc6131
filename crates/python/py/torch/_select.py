"""PyTorch's functions that pick values by their order (`median`,
`kthvalue`, `cummax`, `aminmax`, `unique`, `searchsorted`) or count them
(`bincount`), and `bernoulli`. The indices are found on the host; the
values are gathered with the engine's ops inside PyTorch's one node
(`MedianBackward1`, `CummaxBackward0`), whose backward puts the gradient
back where each value came from."""

import bisect
import builtins as _builtins

import _gradscope as _C

from . import _composite, return_types
from ._shape import _wrap


# PyTorch's names of the dtypes in "not implemented for 'Long'" messages.
_TYPE_NAMES = {_C.float32: "Float", _C.float64: "Double", _C.int64: "Long", _C.bool: "Bool", _C.bfloat16: "BFloat16"}


def _rows(x, dim):
    """`x`'s values as rows along `dim` (moved last), and the moved shape."""
    moved = x.detach().cpu().movedim(dim, -1)
    shape = tuple(moved.shape)
    n = shape[-1] if shape else 1
    return moved.reshape(-1, n).tolist(), shape


def _index_tensor(rows, shape, dim, device):
    return _C.tensor(rows, dtype=_C.int64, device=device).reshape(shape).movedim(-1, dim)


def _scatter_back(x, dim):
    def backward(g, index):
        return _C.zeros(tuple(x.shape), dtype=g.dtype, device=g.device).scatter_add(dim, index, g)

    return backward


def _cumulative(name, better, x, dim):
    """`cummax`/`cummin`: the running best along `dim` and where it was
    (a later equal value, or a NaN, takes over, as in PyTorch)."""
    dim = _wrap(dim, x.dim())
    if x.dim() == 0:
        index = _C.zeros((), dtype=_C.int64, device=x._device)
        return getattr(return_types, name)((x.clone(), index))
    rows, shape = _rows(x, dim)
    indices = []
    for row in rows:
        best, at, picks = None, 0, []
        for i, v in enumerate(row):
            if best is None or v != v or (best == best and better(v, best)):
                best, at = v, i
            picks.append(at)
        indices.append(picks)
    index = _index_tensor(indices, shape, dim, x._device)
    values = _composite.node(f"{name.capitalize()}Backward0", x, lambda: x.gather(dim, index),
                             _scatter_back(x, dim), (index,), ("indices",))
    return getattr(return_types, name)((values, index))


def cummax(self, dim):
    return _cumulative("cummax", lambda v, best: v >= best, self, dim)


def cummin(self, dim):
    return _cumulative("cummin", lambda v, best: v <= best, self, dim)


def _kth(name, x, k, dim, keepdim, what):
    """The `k`-th smallest (from 0) along `dim` and its index, recorded as
    node `name` (PyTorch's value_selecting_reduction_backward)."""
    dim = _wrap(dim, x.dim())
    if x.dim() == 0:
        index = _C.zeros((), dtype=_C.int64, device=x._device)
        return _composite.node(name, x, lambda: x.clone(), lambda g, i: g, (index,), ("indices",)), index
    rows, shape = _rows(x, dim)
    n = shape[-1]
    if not 0 <= k < n:
        raise IndexError(f"{what}() index out of range") if what == "median" else RuntimeError(
            f"kthvalue(): selected number k out of range for dimension {dim}"
        )
    picks = []
    for row in rows:
        nan = next((i for i, v in enumerate(row) if v != v), None)
        if what == "median" and nan is not None:
            # The median of a row with NaN is its (first) NaN.
            picks.append([nan])
            continue
        # NaN sorts last, as in PyTorch.
        order = sorted(range(n), key=lambda i: (row[i] != row[i], row[i]))
        picks.append([order[k]])
    return _picked(name, x, picks, shape, dim, keepdim)


def _picked(name, x, picks, shape, dim, keepdim):
    """The values of `x` at `picks` (one index per row of `_rows(x, dim)`,
    each a one-item list) and their indices, recorded as node `name` with
    PyTorch's value_selecting_reduction_backward."""
    kept = _index_tensor(picks, shape[:-1] + (1,), dim, x._device)
    index = kept if keepdim else kept.squeeze(dim)

    def forward():
        values = x.gather(dim, kept)
        return values if keepdim else values.squeeze(dim)

    def backward(g, i):
        # value_selecting_reduction_backward: into zeros where each came from.
        if not keepdim:
            g, i = g.unsqueeze(dim), i.unsqueeze(dim)
        return _C.zeros(tuple(x.shape), dtype=g.dtype, device=g.device).scatter(dim, i, g)

    return _composite.node(name, x, forward, backward, (index,), ("indices",)), index


def median(self, dim=None, keepdim=False):
    """The lower of the two middle values; with `dim`, also its index."""
    if dim is None:
        if self.numel() == 0:
            return _C.full((), float("nan"), dtype=self.dtype, device=self._device)
        flat = self.reshape(-1)
        value, _ = _kth("MedianBackward0", flat.detach(), (flat.numel() - 1) // 2, 0, False, "median")

        def backward(g, x):
            # evenly_distribute_backward: shared by the elements equal to it
            # (by the NaNs, when the median is NaN).
            mask = (x.isnan() if value.isnan() else x == value).to(g.dtype)
            return [mask * (g / mask.sum())]

        return _composite.op("MedianBackward0", [self], lambda: value.clone(), backward, ("self",))
    n = self.shape[_wrap(dim, self.dim())] if self.dim() else 1
    return return_types.median(_kth("MedianBackward1", self, (n - 1) // 2, dim, keepdim, "median"))


def nanmedian(self, dim=None, keepdim=False):
    """The median of the values that are not NaN (NaN where all are)."""
    if dim is None:
        flat = self.reshape(-1).detach()
        values = [v for v in flat.tolist() if v == v]
        if not values:
            return _C.full((), float("nan"), dtype=self.dtype, device=self._device)
        value = _builtins.sorted(values)[(len(values) - 1) // 2]
        target = _C.full((), value, dtype=self.dtype, device=self._device)

        def backward(g, x):
            mask = (x == target).to(g.dtype)
            return [mask * (g / mask.sum())]

        return _composite.op("NanmedianBackward0", [self], lambda: target.clone(), backward, ("self",))
    d = _wrap(dim, self.dim())
    rows, shape = _rows(self, d)
    picks = []
    for row in rows:
        valid = [i for i, v in enumerate(row) if v == v]
        if not valid:
            picks.append([0])
            continue
        valid.sort(key=row.__getitem__)
        picks.append([valid[(len(valid) - 1) // 2]])
    return return_types.nanmedian(_picked("NanmedianBackward1", self, picks, shape, d, keepdim))


def kthvalue(self, k, dim=-1, keepdim=False):
    return return_types.kthvalue(_kth("KthvalueBackward0", self, k - 1, dim, keepdim, "kthvalue"))


def aminmax(self, *, dim=None, keepdim=False):
    def reduced(which):
        def forward():
            if dim is None:
                return getattr(self, which)(tuple(range(self.dim())))
            return getattr(self, which)(dim, keepdim)

        def backward(g, x):
            # scale_grad_by_count: ties share the gradient.
            out = forward()
            if dim is not None and not keepdim:
                out, g = out.unsqueeze(dim), g.unsqueeze(dim)
            mask = (x == out).to(g.dtype)
            count = mask.sum() if dim is None else mask.sum(dim, keepdim=True)
            return [g * mask / count]

        if self.numel() == 0:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
            )
        return _composite.op("AminmaxBackward0", [self], forward, backward, ("self",))

    return return_types.aminmax((reduced("amin"), reduced("amax")))


def bincount(self, weights=None, minlength=0):
    if self.is_floating_point():
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{_TYPE_NAMES[self.dtype]}'")
    if self.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    values = self.tolist()
    if any(v < 0 for v in values):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and tuple(weights.shape) != tuple(self.shape):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    size = max(values + [minlength - 1]) + 1 if values or minlength else 0
    counts = [0] * size
    given = weights.tolist() if weights is not None else [1] * len(values)
    for v, w in zip(values, given):
        counts[v] += w
    dtype = _C.int64 if weights is None else weights.dtype
    return _C.tensor(counts, dtype=dtype, device=self._device).reshape(size)


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values in ascending order (PyTorch sorts them on the
    CPU either way), with each element's position among them and how
    often each occurs."""
    if dim is not None:
        raise NotImplementedError("gradscope's unique does not take dim yet")
    flat = self.detach().cpu().reshape(-1).tolist()
    distinct = _builtins.sorted(set(flat))
    device = self._device
    out = _C.tensor(distinct, dtype=self.dtype, device=device).reshape(len(distinct))
    if not (return_inverse or return_counts):
        return out
    position = {v: i for i, v in enumerate(distinct)}
    results = [out]
    if return_inverse:
        inverse = _C.tensor([position[v] for v in flat], dtype=_C.int64, device=device)
        results.append(inverse.reshape(tuple(self.shape)))
    if return_counts:
        counts = [0] * len(distinct)
        for v in flat:
            counts[position[v]] += 1
        results.append(_C.tensor(counts, dtype=_C.int64, device=device).reshape(len(distinct)))
    return tuple(results)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Where each value would go in the (innermost rows of the) sorted
    sequence: before equal values, or after them with `right` or
    `side="right"`."""
    from . import Tensor

    if side is not None:
        right = side == "right"
    find = bisect.bisect_right if right else bisect.bisect_left
    boundaries = sorted_sequence.detach().cpu()
    scalar = not isinstance(values, Tensor)
    queries = _C.tensor(values, device="cpu") if scalar else values.detach().cpu()
    if boundaries.dim() == 1:
        row = boundaries.tolist()
        if sorter is not None:
            row = [row[i] for i in sorter.tolist()]
        found = [find(row, v) for v in queries.reshape(-1).tolist()]
    else:
        if tuple(boundaries.shape[:-1]) != tuple(queries.shape[:-1]):
            raise RuntimeError(
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                "of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                f"{list(boundaries.shape)} and input value tensor {list(queries.shape)}"
            )
        rows = boundaries.reshape(-1, boundaries.shape[-1]).tolist()
        asked = queries.reshape(len(rows), -1).tolist()
        found = [find(row, v) for row, vs in zip(rows, asked) for v in vs]
    device = sorted_sequence._device
    return _C.tensor(found, dtype=_C.int64, device=device).reshape(tuple(queries.shape))


def bernoulli(self, p=None, *, generator=None):
    """1 where a uniform draw falls below the probability, in the input's
    dtype: the same draws, in the same order, as PyTorch's CPU kernel."""
    from ._generator import drawing

    if not self.is_floating_point():
        raise NotImplementedError(
            f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_TYPE_NAMES[self.dtype]}'"
        )
    probs = self if p is None else _C.full(tuple(self.shape), float(p), dtype=self.dtype, device=self._device)
    with drawing(generator):
        draws = _C.rand(tuple(self.shape), dtype=self.dtype, device=self._device)
    return (draws < probs.detach()).to(self.dtype)


def mode(self, dim=-1, keepdim=False):
    """The most frequent value along `dim` (the smallest of equally
    frequent ones) and the index of its last occurrence, as PyTorch's CPU
    kernel gives them."""
    dim = _wrap(dim, self.dim())
    if self.dim() == 0:
        index = _C.zeros((), dtype=_C.int64, device=self._device)
        return return_types.mode((self.clone(), index))
    rows, shape = _rows(self, dim)
    picks = []
    for row in rows:
        counts = {}
        for v in row:
            counts[v] = counts.get(v, 0) + 1
        best = _builtins.min(counts, key=lambda v: (-counts[v], v))
        picks.append([_builtins.max(i for i, v in enumerate(row) if v == best)])
    return return_types.mode(_picked("ModeBackward0", self, picks, shape, dim, keepdim))


METHODS = ("nanmedian", "mode", "cummax", "cummin", "median", "kthvalue", "aminmax", "bincount", "unique", "bernoulli")
FUNCTIONS = ("searchsorted",)
