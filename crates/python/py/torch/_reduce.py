"""PyTorch's reductions the engine has no op for: `nansum`, `nanmean`,
`std_mean`, `var_mean`, `count_nonzero`, `logcumsumexp` and `histc`.
The differentiable ones record PyTorch's node (`NansumBackward0`,
`VarMeanBackward0`) with its formula, made of the engine's ops."""

import builtins as _builtins
import math

import _gradscope as _C

from . import _composite, return_types
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
            f"nanmean(): expected input to have floating point or complex dtype but got {str(self.dtype)[6:].capitalize()}"
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


METHODS = ("nansum", "nanmean", "count_nonzero", "logcumsumexp", "histc")
FUNCTIONS = ("std_mean", "var_mean")
