"""PyTorch's product and integration functions the engine has no op for:
`cdist`, `addmv`, `addbmm` and `trapezoid`, each recorded as PyTorch's
node with its formula, and the `inverse`/`det` spellings of
`torch.linalg`'s functions."""

import _gradscope as _C

from . import _composite
from ._shape import _norm_backward, _wrap


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Distances between each row of `x1` and each row of `x2` (batched)."""
    if x1.dim() < 2 or x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    p = float(p)

    def pairs(a, b):
        return a.unsqueeze(-2) - b.unsqueeze(-3)

    def backward(g, a, b):
        d = pairs(a, b)
        grad = _norm_backward(g.unsqueeze(-1), d, p, d.norm(p, -1, True))
        return [grad.sum(-2), -grad.sum(-3)]

    return _composite.op("CdistBackward0", [x1, x2], lambda: pairs(x1, x2).norm(p, -1), backward,
                         ("self", "other"))


def pdist(input, p=2):
    """The distances between each pair of rows i < j, in order, as
    PyTorch's PdistBackward0."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    n = input.shape[0]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    first = _C.tensor([i for i, _ in pairs], dtype=_C.int64, device=input._device).reshape(len(pairs))
    second = _C.tensor([j for _, j in pairs], dtype=_C.int64, device=input._device).reshape(len(pairs))

    def fn(x):
        return (x.index_select(0, first) - x.index_select(0, second)).norm(float(p), 1)

    return _composite.recorded("PdistBackward0", [input], fn, ("self",))


def addmv(self, mat, vec, *, beta=1, alpha=1):
    """`beta * self + alpha * (mat @ vec)`."""

    def backward(g, m, v):
        return [g * beta, (g.unsqueeze(1) * v.unsqueeze(0)) * alpha, m.t().mv(g) * alpha]

    return _composite.op("AddmvBackward0", [self, mat, vec], lambda: self * beta + mat.mv(vec) * alpha,
                         backward, (("mat", 1), ("vec", 2)))


def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    """`beta * self + alpha * sum_b(batch1[b] @ batch2[b])`."""

    def backward(g, b1, b2):
        spread = g.unsqueeze(0).expand(b1.shape[0], g.shape[0], g.shape[1])
        return [g * beta, spread.bmm(b2.transpose(1, 2)) * alpha, b1.transpose(1, 2).bmm(spread) * alpha]

    return _composite.op("AddbmmBackward0", [self, batch1, batch2],
                         lambda: self * beta + batch1.bmm(batch2).sum(0) * alpha, backward,
                         (("batch1", 1), ("batch2", 2)))


def _scaled(name, x, factor, divide=False):
    """`x * factor` (or `/`) by a number, as PyTorch's Scalar overload's node."""
    if divide:
        return _composite.op(name, [x], lambda: x / factor, lambda g: [g / factor])
    return _composite.op(name, [x], lambda: x * factor, lambda g: [g * factor])


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoid rule along `dim`: with spacing `dx` (default 1) or at
    the sample points `x`, as PyTorch's `do_trapezoid` computes it."""
    from . import Tensor

    if isinstance(x, Tensor):
        d = _wrap(dim, y.dim())
        n = y.shape[d]
        if n == 0:
            return y.sum(d) * 0
        spacing = x.diff(dim=-1 if x.dim() == 1 else d)
        if x.dim() == 1:
            shape = [1] * y.dim()
            shape[d] = spacing.shape[0]
            spacing = spacing.reshape(shape)
        pairs = y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1)
        return _scaled("DivBackward1", (spacing * pairs).sum(d), 2.0, divide=True)
    if x is not None:
        dx = x
    dx = 1.0 if dx is None else dx
    d = _wrap(dim, y.dim())
    if y.shape[d] == 0:
        return y.sum(d) * 0
    ends = _scaled("MulBackward1", y.select(d, 0) + y.select(d, -1), 0.5)
    return _scaled("MulBackward1", y.sum(d) - ends, dx)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid rule along `dim` (one fewer value than `y`)."""
    from . import Tensor

    d = _wrap(dim, y.dim())
    n = y.shape[d]
    pairs = y.narrow(d, 1, max(n - 1, 0)) + y.narrow(d, 0, max(n - 1, 0))
    if isinstance(x, Tensor):
        spacing = x.diff(dim=-1 if x.dim() == 1 else d)
        if x.dim() == 1:
            shape = [1] * y.dim()
            shape[d] = spacing.shape[0]
            spacing = spacing.reshape(shape)
        return _scaled("DivBackward1", (spacing * pairs).cumsum(d), 2.0, divide=True)
    step = 1.0 if dx is None and x is None else (x if x is not None else dx)
    return (pairs * (step / 2.0)).cumsum(d)


def trapz(y, x=None, *, dx=None, dim=-1):
    return trapezoid(y, x, dx=dx, dim=dim)


def inverse(self):
    from .linalg import inv

    return inv(self)


def det(self):
    from .linalg import det as linalg_det

    return linalg_det(self)


def addr(self, vec1, vec2, *, beta=1, alpha=1):
    """`beta * self + alpha * outer(vec1, vec2)`."""

    def backward(g, v1, v2):
        return [g * beta, g.mv(v2) * alpha, g.t().mv(v1) * alpha]

    return _composite.op("AddrBackward0", [self, vec1, vec2],
                         lambda: self * beta + vec1.unsqueeze(1) * vec2.unsqueeze(0) * alpha, backward,
                         (("vec1", 1), ("vec2", 2)))


def matrix_power(self, n):
    """`self` multiplied by itself `n` times (its inverse's for negative
    `n`), in PyTorch's order of products."""
    if self.dim() < 2 or self.shape[-1] != self.shape[-2]:
        raise RuntimeError(
            f"linalg.matrix_power: A must be batches of square matrices, but they are "
            f"{self.shape[-2] if self.dim() > 1 else 1} by {self.shape[-1]} matrices"
        )
    if n == 0:
        eye = _C.eye(self.shape[-1], dtype=self.dtype, device=self._device)
        return eye.expand(tuple(self.shape)).clone()
    a = inverse(self) if n < 0 else self
    n = abs(n)
    if n == 1:
        return a.clone()
    if n == 2:
        return a.matmul(a)
    if n == 3:
        return a.matmul(a).matmul(a)
    z, result, first = None, None, True
    while n > 0:
        bit = n % 2
        n //= 2
        z = a if first else z.matmul(z)
        first = False
        if bit == 1:
            result = z if result is None else result.matmul(z)
    return result


def slogdet(self):
    from .linalg import slogdet as linalg_slogdet
    from . import return_types

    return return_types.slogdet(tuple(linalg_slogdet(self)))


def logdet(self):
    from .linalg import slogdet as linalg_slogdet

    sign, logabsdet = linalg_slogdet(self)
    return _C.where(sign == -1, _C.full((), float("nan"), dtype=logabsdet.dtype, device=logabsdet._device), logabsdet)


METHODS = ("addmv", "addbmm", "addr", "matrix_power", "slogdet", "logdet", "inverse", "det")
FUNCTIONS = ("cdist", "pdist", "trapezoid", "trapz", "cumulative_trapezoid")
