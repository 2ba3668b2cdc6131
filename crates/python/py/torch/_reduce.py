"""PyTorch's reductions the engine has no op for: `nansum`, `nanmean`,
`std_mean`, `var_mean`, `count_nonzero`, `logcumsumexp` and `histc`.
The differentiable ones record PyTorch's node (`NansumBackward0`,
`VarMeanBackward0`) with its formula, made of the engine's ops."""

import builtins as _builtins
import math

import _gradscope as _C

from . import _composite
from ._shape import _wrap


def _dims(x, dim):
    """The reduced dims, counted from the front (all when `dim` is None)."""
    if dim is None:
        return list(range(x.dim()))
    return _builtins.sorted({_wrap(d, x.dim()) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))})


def _restore(g, x, dims, keepdim):
    """`g` with the reduced dims back (as size 1), to broadcast over `x`."""
    if not keepdim:
        for d in dims:
            g = g.unsqueeze(d)
    return g


def nansum(self, dim=None, keepdim=False, *, dtype=None):
    dims = _dims(self, dim)
    x = self if dtype is None else self.to(dtype)

    def forward():
        zero = _C.zeros((), dtype=x.dtype, device=x._device)
        clean = _C.where(x.isnan(), zero, x) if x.is_floating_point() else x
        return clean.sum(dims, keepdim) if dims else clean.clone()

    def backward(g, s):
        # grad * (self == self): nothing for the NaNs.
        return [_restore(g, s, dims, keepdim) * (s == s)]

    return _composite.op("NansumBackward0", [x], forward, backward, ("self",))


def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    if not self.is_floating_point():
        raise RuntimeError(
            "nanmean(): expected input to have floating point or complex dtype but got "
            f"{str(self.dtype)[6:].capitalize()}"
        )
    count = self.isnan().logical_not().sum(_dims(self, dim), keepdim)
    return nansum(self, dim, keepdim, dtype=dtype) / count


def _moments(name, x, dim, correction, keepdim, root):
    """`(var or std, mean)` over `dim`, each recorded as PyTorch's one node."""
    dims = _dims(x, dim)
    n = math.prod(x.shape[d] for d in dims) if x.dim() else 1
    spread = x.std if root else x.var
    kwargs = {"correction": correction, "keepdim": keepdim}

    def first(g, s):
        # var_backward: 2 (x - mean) / (N - correction); std's over 2 std.
        g = _restore(g, s, dims, keepdim)
        centred = s - s.mean(dims, keepdim=True)
        if root:
            return [g * centred / (_restore(s.std(dims, **kwargs), s, dims, keepdim) * (n - correction))]
        return [g * 2 * centred / (n - correction)]

    def second(g, s):
        return [_restore(g, s, dims, keepdim).expand(tuple(s.shape)) / n]

    value = _composite.op(name, [x], lambda: spread(dims, **kwargs), first, ("self",))
    mean = _composite.op(name, [x], lambda: x.mean(dims, keepdim=keepdim), second, ("self",))
    return value, mean


def _correction_of(unbiased, correction):
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def std_mean(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _moments("StdMeanBackward0", self, dim, _correction_of(unbiased, correction), keepdim, True)


def var_mean(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _moments("VarMeanBackward0", self, dim, _correction_of(unbiased, correction), keepdim, False)


def count_nonzero(self, dim=None):
    nonzero = (self != 0).long()
    return nonzero.sum() if dim is None else nonzero.sum(dim)


def logcumsumexp(self, dim):
    """`log(cumsum(exp(x)))`, each step a stable log-add-exp."""
    if not self.is_floating_point():
        from ._select import _TYPE_NAMES

        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{_TYPE_NAMES[self.dtype]}'")
    dim = _wrap(dim, self.dim())
    if self.dim() == 0:
        return _composite.op("LogcumsumexpBackward0", [self], lambda: self.clone(), lambda g: [g])
    n = self.shape[dim]

    def forward():
        parts, running = [], None
        for i in range(n):
            v = self.narrow(dim, i, 1)
            if running is None:
                running = v
            else:
                top = running.maximum(v)
                # Where both are -inf, the sum stays -inf (not NaN).
                top = _C.where(top == float("-inf"), _C.zeros((), dtype=top.dtype, device=top._device), top)
                running = top + ((running - top).exp() + (v - top).exp()).log()
            parts.append(running)
        return _C.cat(parts, dim) if parts else self.clone()

    def backward(g, x):
        # d out_j / d x_i = exp(x_i - out_j) for i <= j: each term at most 1.
        out = x.logcumsumexp(dim)
        terms = (x.unsqueeze(dim + 1) - out.unsqueeze(dim)).exp()
        i = _C.arange(n, device=x._device)
        later = (i.unsqueeze(1) <= i.unsqueeze(0)).reshape([n, n] + [1] * (x.dim() - dim - 1))
        zero = _C.zeros((), dtype=terms.dtype, device=terms._device)
        return [(_C.where(later, terms, zero) * g.unsqueeze(dim)).sum(dim + 1)]

    return _composite.op("LogcumsumexpBackward0", [self], forward, backward, ("self",))


def histc(self, bins=100, min=0, max=0):
    """Counts of the values in `bins` equal bins over `[min, max]` (the
    data's own range when both are 0), as floats; values outside ignored."""
    if not self.is_floating_point():
        from ._select import _TYPE_NAMES

        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_TYPE_NAMES[self.dtype]}'")
    values = self.detach().cpu().reshape(-1).tolist()
    low, high = float(min), float(max)
    if low == high and values:
        low, high = _builtins.min(values), _builtins.max(values)
    if low == high:
        low, high = low - 1, high + 1
    counts = [0.0] * bins
    for v in values:
        if low <= v <= high:
            b = int((v - low) * bins / (high - low))
            counts[_builtins.min(b, bins - 1)] += 1
    return _C.tensor(counts, dtype=self.dtype, device=self._device).reshape(bins)


METHODS = ("nansum", "nanmean", "count_nonzero", "logcumsumexp", "histc", "histogram", "quantile", "nanquantile",
           "renorm",
           "cov", "corrcoef")
FUNCTIONS = ("std_mean", "var_mean")


def histogram(self, bins=100, *, range=None, weight=None, density=False):
    """Counts (or weights) of the values per bin, and the bins' edges: `bins`
    equal bins over `range` (the data's, by default) or the given edges."""
    import bisect
    from . import Tensor, return_types

    values = self.detach().cpu().reshape(-1).tolist()
    weights = weight.detach().cpu().reshape(-1).tolist() if weight is not None else [1.0] * len(values)
    if isinstance(bins, Tensor):
        edges = bins.detach().cpu().tolist()
    else:
        low, high = (float(range[0]), float(range[1])) if range is not None else (
            (_builtins.min(values), _builtins.max(values)) if values else (0.0, 0.0))
        if low == high:
            low, high = low - 0.5, high + 0.5
        edge_tensor = _C.linspace(low, high, bins + 1, dtype=self.dtype, device="cpu")
        edges = edge_tensor.tolist()
    n = len(edges) - 1
    hist = [0.0] * n
    for v, w in zip(values, weights):
        if edges[0] <= v <= edges[-1]:
            b = _builtins.min(bisect.bisect_right(edges, v) - 1, n - 1)
            hist[b] += w
    if density:
        total = _builtins.sum(hist)
        hist = [h / (total * (edges[i + 1] - edges[i])) for i, h in enumerate(hist)]
    out = _C.tensor(hist, dtype=self.dtype, device=self._device).reshape(n)
    edge_out = _C.tensor(edges, dtype=self.dtype, device=self._device).reshape(n + 1)
    return return_types.histogram((out, edge_out))


def cov(self, *, correction=1, fweights=None, aweights=None):
    """The covariance of the rows (variables) over the columns
    (observations), as PyTorch's `cov` computes it without weights."""
    if fweights is not None or aweights is not None:
        raise NotImplementedError("gradscope's cov does not take fweights or aweights yet")
    if self.dim() > 2:
        raise RuntimeError(
            f"cov(): expected input to have two or fewer dimensions but got an input with {self.dim()} dimensions"
        )
    x = self.reshape(1, -1) if self.dim() < 2 else self
    if not x.is_floating_point():
        x = x.to(_C.float32)
    n = x.shape[1]
    norm_factor = n - correction
    if norm_factor <= 0:
        import warnings

        warnings.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of observations."
        )
        norm_factor = 0
    centred = x - (x.sum(1) / n).unsqueeze(1)
    return (centred.mm(centred.t()) / norm_factor).squeeze()


def corrcoef(self):
    c = cov(self)
    if c.dim() == 0:
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.reshape(-1, 1)
    c = c / stddev.reshape(1, -1)
    return c.clamp(-1, 1)


def _checked_q(self, q):
    """`quantile`'s and `nanquantile`'s q: whether it is one number, and it
    as a tensor, each value checked to lie in [0, 1] as PyTorch checks it."""
    from . import Tensor

    scalar = not isinstance(q, Tensor) or q.dim() == 0
    qs = q if isinstance(q, Tensor) else _C.tensor(float(q), dtype=self.dtype, device=self._device)
    for v in qs.reshape(-1).tolist():
        if not 0 <= v <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {v}" if scalar
                               else "quantile() q values must be in the range [0, 1]")
    return scalar, qs


def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    """The `q`-th quantiles (of all values, or along `dim`), interpolated
    between the sorted values as PyTorch's `quantile` does."""
    if not self.is_floating_point():
        raise RuntimeError(
            "quantile() input tensor must be either float or double dtype"
        )
    scalar, qs = _checked_q(self, q)
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise RuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Found "
            + interpolation
        )
    x = self.reshape(-1) if dim is None else self.movedim(dim, -1)
    ordered = x.sort(-1).values
    n = ordered.shape[-1]
    ranks = qs.reshape(-1).to(self.dtype) * (n - 1)
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    below = ranks.floor().long()
    above = ranks.ceil().long()
    low = ordered.index_select(-1, below)
    high = ordered.index_select(-1, above)
    if interpolation == "midpoint":
        weights = _C.where(above > below, _C.full((), 0.5, dtype=self.dtype, device=self._device),
                           _C.zeros((), dtype=self.dtype, device=self._device))
    else:
        weights = ranks - below.to(self.dtype)
    out = low.lerp(high, weights)
    # A row with NaN has NaN quantiles.
    nan = x.isnan().any(-1, keepdim=True)
    out = _C.where(nan, _C.full((), float("nan"), dtype=self.dtype, device=self._device), out)
    # As PyTorch: quantiles first, the reduced dims kept as 1, then those
    # not wanted squeezed away in place (its SqueezeBackward4).
    out = out.movedim(-1, 0)
    reduced = list(range(self.dim())) if dim is None else [_wrap(dim, self.dim())]
    for d in reduced:
        out = out.unsqueeze(d + 1)
    drop = ([0] if scalar else []) + ([] if keepdim else [d + 1 for d in reduced])
    kept = out
    return _composite.node("SqueezeBackward4", kept, lambda: kept.squeeze(tuple(drop)),
                           lambda g: g.reshape(tuple(kept.shape)))


def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    """`quantile` of the values that are not NaN (NaN where none is)."""
    scalar, qs = _checked_q(self, q)
    x = self.reshape(1, -1) if dim is None else self.movedim(dim, -1)
    lead = tuple(x.shape[:-1])
    rows = x.reshape(-1, x.shape[-1])
    nan = rows.isnan()
    # NaN sorted last (as +inf), and each row's ranks over its own count.
    ordered = rows.masked_fill(nan, float("inf")).sort(-1).values
    counts = nan.logical_not().sum(-1, keepdim=True).to(self.dtype)
    ranks = qs.reshape(1, -1).to(self.dtype) * (counts - 1).clamp(min=0)
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    below, above = ranks.floor().long(), ranks.ceil().long()
    low, high = ordered.gather(-1, below), ordered.gather(-1, above)
    if interpolation == "midpoint":
        weights = _C.where(above > below, _C.full((), 0.5, dtype=self.dtype, device=self._device),
                           _C.zeros((), dtype=self.dtype, device=self._device))
    else:
        weights = ranks - below.to(self.dtype)
    out = low.lerp(high, weights)
    out = _C.where(counts == 0, _C.full((), float("nan"), dtype=self.dtype, device=self._device), out)
    out = out.reshape(lead + (qs.numel(),)).movedim(-1, 0)
    if dim is None:
        out = out.reshape((qs.numel(),) + (1,) * self.dim())
        reduced = list(range(self.dim()))
    else:
        reduced = [_wrap(dim, self.dim())]
        out = out.unsqueeze(reduced[0] + 1)
    drop = ([0] if scalar else []) + ([] if keepdim else [d + 1 for d in reduced])
    kept = out
    return _composite.node("SqueezeBackward4", kept, lambda: kept.squeeze(tuple(drop)),
                           lambda g: g.reshape(tuple(kept.shape)))


def renorm(self, p, dim, maxnorm):
    """Each slice along `dim` scaled down to p-norm `maxnorm` where its
    norm exceeds it (recorded as PyTorch's RenormBackward0)."""
    d = _wrap(dim, self.dim())
    others = tuple(i for i in range(self.dim()) if i != d)

    def fn(x):
        norm = x.norm(float(p), others, True) if others else x.abs()
        one = _C.ones((), dtype=x.dtype, device=x._device)
        return x * _C.where(norm > maxnorm, maxnorm / (norm + 1e-7), one)

    return _composite.recorded("RenormBackward0", [self], fn, ("self",))

