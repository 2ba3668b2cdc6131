"""PyTorch's functions that rearrange, combine or index tensors, built
from the engine's ops as PyTorch builds them (so `vstack` records its
`CatBackward0`, `movedim` its `PermuteBackward0`), or, where PyTorch has
a node of its own (`Rot90Backward0`, `UnfoldBackward0`,
`LinalgCrossBackward0`, `DistBackward0`), recorded as that node with its
formula from `derivatives.yaml`."""

import builtins as _builtins
import math

import _gradscope as _C

from . import _composite


def _wrap(dim, ndim):
    """`dim` counted from the front, with PyTorch's message when out of range."""
    n = _builtins.max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


def _seq(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def atleast_1d(x):
    return x.reshape(1) if x.dim() == 0 else x


def atleast_2d(x):
    return x.reshape(1, -1) if x.dim() < 2 else x


def vstack(tensors):
    return _C.cat([atleast_2d(t) for t in tensors], 0)


row_stack = vstack


def hstack(tensors):
    tensors = [atleast_1d(t) for t in tensors]
    return _C.cat(tensors, 0 if tensors and tensors[0].dim() == 1 else 1)


def dstack(tensors):
    def atleast_3d(x):
        return x.reshape(1, -1, 1) if x.dim() < 2 else (x.unsqueeze(-1) if x.dim() == 2 else x)

    return _C.cat([atleast_3d(t) for t in tensors], 2)


def column_stack(tensors):
    return hstack([t.reshape(-1, 1) if t.dim() <= 1 else t for t in tensors])


def movedim(self, source, destination):
    source, destination = _seq(source), _seq(destination)
    if len(source) != len(destination):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(source)} dims) should "
            f"contain the same number of dims as destination ({list(destination)} dims)"
        )
    n = self.dim()
    src = [_wrap(d, n) for d in source]
    dst = [_wrap(d, n) for d in destination]
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    order = [next(rest) if o is None else o for o in order]
    return self.permute(*order) if n else self.view(())


moveaxis = movedim


def swapaxes(self, axis0, axis1):
    return self.transpose(axis0, axis1)


swapdims = swapaxes


def take_along_dim(self, indices, dim=None):
    if dim is None:
        return self.reshape(-1).gather(0, indices.reshape(-1))
    dim = _wrap(dim, self.dim())
    if self.dim() != indices.dim():
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, "
            f"but got {self.dim()} dimensions for input, and {indices.dim()} dimensions for indices"
        )
    from . import broadcast_shapes

    left = list(self.shape)
    right = list(indices.shape)
    left[dim] = right[dim] = 1
    common = list(broadcast_shapes(left, right))
    shape_self, shape_index = list(common), list(common)
    shape_self[dim], shape_index[dim] = self.shape[dim], indices.shape[dim]
    return self.expand(shape_self).gather(dim, indices.expand(shape_index))


def diff(self, n=1, dim=-1, prepend=None, append=None):
    if self.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    dim = _wrap(dim, self.dim())
    parts = [p for p in (prepend, self, append) if p is not None]
    out = _C.cat(parts, dim) if len(parts) > 1 else self
    for _ in range(n):
        length = out.shape[dim]
        if length == 0:
            break
        later, earlier = out.narrow(dim, 1, length - 1), out.narrow(dim, 0, length - 1)
        out = later.logical_xor(earlier) if out.dtype == _C.bool else later - earlier
    return out


def _cross_values(a, b, dim):
    def roll(t, s):
        return _C.cat([t.narrow(dim, s, 3 - s), t.narrow(dim, 0, s)], dim)

    return roll(a, 1) * roll(b, 2) - roll(a, 2) * roll(b, 1)


def cross(self, other, dim=None):
    from . import broadcast_shapes

    shape = broadcast_shapes(tuple(self.shape), tuple(other.shape))
    if dim is None:
        # PyTorch's torch.cross (not linalg.cross): the first dim of size 3.
        import warnings  # here, not at the top: `import torch` stays lean

        warnings.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\n"
            "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
            "The default value of dim will change to agree with that of linalg.cross in a future release. "
            "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:61.)",
            stacklevel=2,
        )
        dim = next((d for d, n in enumerate(shape) if n == 3), -1)
    if self.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    dim = _wrap(dim, len(shape))
    if shape[dim] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {self.shape[dim]} and {other.shape[dim]}"
        )
    a, b = self.expand(shape), other.expand(shape)
    return _composite.op(
        "LinalgCrossBackward0", [self, other], lambda: _cross_values(a, b, dim),
        lambda g, x, y: [y.cross(g, dim), g.cross(x, dim)], ("self", "other"),
    )


def kron(self, other):
    n = _builtins.max(self.dim(), other.dim())
    a = self.reshape((1,) * (n - self.dim()) + tuple(self.shape))
    b = other.reshape((1,) * (n - other.dim()) + tuple(other.shape))
    spread_a, spread_b, out = [], [], []
    for p, q in zip(a.shape, b.shape):
        spread_a += [p, 1]
        spread_b += [1, q]
        out.append(p * q)
    product = a.reshape(spread_a) * b.reshape(spread_b)
    # PyTorch reshapes its own buffer: an UnsafeViewBackward0.
    return _composite.node("UnsafeViewBackward0", product, lambda: product.reshape(out),
                           lambda g: g.reshape(tuple(product.shape)))


def rot90(self, k=1, dims=(0, 1)):
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if self.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {self.dim()}")
    d0, d1 = _wrap(dims[0], self.dim()), _wrap(dims[1], self.dim())
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    turns = k % 4

    def forward():
        if turns == 1:
            return self.flip(d1).transpose(d0, d1)
        if turns == 2:
            return self.flip(d0, d1)
        if turns == 3:
            return self.flip(d0).transpose(d0, d1)
        return self.clone()

    return _composite.node("Rot90Backward0", self, forward, lambda g: g.rot90(-k, (d0, d1)))


def tensordot(a, b, dims=2, out=None):
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        da = list(range(a.dim() - dims, a.dim()))
        db = list(range(dims))
    else:
        da, db = (list(_seq(d)) for d in dims)
        da = [_wrap(d, a.dim()) for d in da]
        db = [_wrap(d, b.dim()) for d in db]
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    for i, j in zip(da, db):
        if a.shape[i] != b.shape[j]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[i]} in dim {i} "
                f"and second has size {b.shape[j]} in dim {j}"
            )
    free_a = [d for d in range(a.dim()) if d not in da]
    free_b = [d for d in range(b.dim()) if d not in db]
    k = math.prod(a.shape[d] for d in da)
    left = a.permute(*(free_a + da)).reshape(-1, k)
    right = b.permute(*(db + free_b)).reshape(k, -1)
    return left.mm(right).reshape([a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])


def inner(self, other):
    if self.dim() == 0 or other.dim() == 0:
        return self * other
    if self.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            f"inner() the last dimension must match on both input tensors but got shapes "
            f"{list(self.shape)} and {list(other.shape)}"
        )
    return tensordot(self, other, ([-1], [-1]))


def _norm_backward(g, d, p, r):
    """The gradient of `d.norm(p)` (whose value is `r`), as PyTorch's
    norm_backward: zero where the norm is zero."""
    if p == 0:
        return d * 0
    if p == 1:
        return g * d.sign()
    if p == 2:
        return _C.where(r == 0, d * 0, g * d / r)
    if p == float("inf"):
        at_max = (d.abs() == r).to(d.dtype)
        return g * d.sign() * at_max / at_max.sum()
    scaled = d * d.abs().pow(p - 2) / r.pow(p - 1)
    return _C.where(r == 0, d * 0, g * scaled)


def dist(self, other, p=2):
    p = float(p)

    def backward(g, x, y):
        d = x - y
        grad = _norm_backward(g, d, p, d.norm(p))
        return [grad, -grad]

    return _composite.op("DistBackward0", [self, other], lambda: (self - other).norm(p), backward,
                         ("self", "other"))


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if indexing is None:
        import warnings

        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = (tensors[1], tensors[0]) + tuple(tensors[2:])
    shape = [t.numel() for t in tensors]
    grids = []
    for i, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[i] = -1
        grids.append(t.view(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _device_kwargs(device):
    return {} if device is None else {"device": str(device)}


def _triangle_indices(row, col, offset, keep, dtype, device):
    pairs = [(r, c) for r in range(row) for c in range(col) if keep(c - r, offset)]
    rows = [[r for r, _ in pairs], [c for _, c in pairs]]
    out = _C.tensor(rows, dtype=_C.int64, **_device_kwargs(device)).reshape(2, len(pairs))
    return out if dtype is None or dtype == _C.int64 else out.to(dtype)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return _triangle_indices(row, col, offset, lambda d, k: d <= k, dtype, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return _triangle_indices(row, col, offset, lambda d, k: d >= k, dtype, device)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """`base ** linspace(start, end, steps)`, the exponents stepped from
    whichever end is nearer, as PyTorch's kernel does."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps == 1:
        end = start
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    half = steps // 2
    exps = [start + step * i if i < half else end - step * (steps - i - 1) for i in range(steps)]
    values = [float(base) ** e for e in exps]
    out = _C.tensor(values, dtype=dtype or _C.float32, **_device_kwargs(device)).reshape(steps)
    return out.requires_grad_() if requires_grad else out


def as_tensor(data, dtype=None, device=None):
    from . import Tensor

    if isinstance(data, Tensor):
        out = data if dtype is None else data.to(dtype)
        return out if device is None else out.to(device)
    kwargs = _device_kwargs(device)
    return _C.tensor(data, dtype=dtype, **kwargs) if dtype is not None else _C.tensor(data, **kwargs)


def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    from . import Tensor

    if repeats is None:
        # torch.repeat_interleave(repeats): each index, repeated.
        counts = self.tolist()
        index = [i for i, c in enumerate(counts) for _ in range(c)]
        return _C.tensor(index, dtype=_C.int64, device=self._device).reshape(-1)
    x = self.reshape(-1) if dim is None else self
    dim = 0 if dim is None else _wrap(dim, x.dim())
    if isinstance(repeats, Tensor) and repeats.numel() != 1:
        counts = repeats.tolist()
        if len(counts) != x.shape[dim]:
            raise RuntimeError("repeats must have the same size as input along dim")
        index = [i for i, c in enumerate(counts) for _ in range(c)]
        index = _C.tensor(index, dtype=_C.int64, device=x._device).reshape(-1)
        return x.index_select(dim, index)
    r = int(repeats.item()) if isinstance(repeats, Tensor) else int(repeats)
    if r < 0:
        raise RuntimeError("repeats can not be negative")
    shape = list(x.shape)
    spread = shape[:dim + 1] + [r] + shape[dim + 1:]
    shape[dim] *= r
    # PyTorch copies the expanded view, then views the copy.
    return x.unsqueeze(dim + 1).expand(spread).clone().reshape(shape)


def unfold(self, dimension, size, step):
    """Windows of `size` along `dimension`, `step` apart, as a new last dim
    (PyTorch's view, here a copy recorded as its UnfoldBackward0)."""
    dim = _wrap(dimension, self.dim())
    length = self.shape[dim] if self.dim() else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if self.dim() == 0:
        return self.reshape(1)
    count = (length - size) // step + 1
    index = [i * step + j for i in range(count) for j in range(size)]
    index = _C.tensor(index, dtype=_C.int64, device=self._device).reshape(-1)
    split = list(self.shape[:dim]) + [count, size] + list(self.shape[dim + 1:])

    def forward():
        return movedim(self.index_select(dim, index).reshape(split), dim + 1, -1)

    def backward(g):
        flat = list(self.shape)
        flat[dim] = count * size
        pieces = movedim(g, -1, dim + 1).reshape(flat)
        zeros = _C.zeros(tuple(self.shape), dtype=g.dtype, device=g.device)
        return zeros.index_add(dim, index, pieces)

    return _composite.node("UnfoldBackward0", self, forward, backward)


def block_diag(*tensors):
    """The tensors (0-d as 1x1, 1-d as one row) along the diagonal of a zero
    matrix, recorded as PyTorch's BlockDiagBackward0."""
    blocks = [t.reshape(1, 1) if t.dim() == 0 else (t.reshape(1, -1) if t.dim() == 1 else t) for t in tensors]
    for i, b in enumerate(blocks):
        if b.dim() != 2:
            raise RuntimeError(
                f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {b.dim()} dimensions"
            )
    if not blocks:
        return _C.zeros((1, 0))
    from . import _math

    dtype = _math._float_dtype(*blocks) if any(b.is_floating_point() for b in blocks) else blocks[0].dtype
    rows = sum(b.shape[0] for b in blocks)
    cols = sum(b.shape[1] for b in blocks)
    corners, r, c = [], 0, 0
    for b in blocks:
        corners.append((r, c))
        r, c = r + b.shape[0], c + b.shape[1]

    def forward():
        from .nn import functional as F

        placed = [F.pad(b.to(dtype), (c0, cols - c0 - b.shape[1])) for b, (_, c0) in zip(blocks, corners)]
        return _C.cat(placed, 0) if placed else _C.zeros((rows, cols), dtype=dtype)

    def backward(g):
        return [g.narrow(0, r0, b.shape[0]).narrow(1, c0, b.shape[1]).reshape(tuple(t.shape))
                for b, t, (r0, c0) in zip(blocks, tensors, corners)]

    return _composite.op("BlockDiagBackward0", list(tensors), forward, backward)


def cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return _C.stack([g.flatten() for g in grids], 1)


def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    """The last dim as the diagonal (`offset` above it) of new matrices
    along `dim1` and `dim2`."""
    ndim = self.dim() + 1
    d1, d2 = _wrap(dim1, ndim), _wrap(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = self.shape[-1] if self.dim() else 1
    size = n + abs(offset)

    def forward():
        from .nn import functional as F

        # Zeros off the diagonal (not x * 0, which would be -0 or NaN).
        on = _C.eye(n, device=self._device) > 0
        square = _C.where(on, self.unsqueeze(-1), _C.zeros((), dtype=self.dtype, device=self._device))
        pad = (offset, 0, 0, offset) if offset >= 0 else (0, -offset, -offset, 0)
        out = F.pad(square, pad) if offset else square
        return movedim(out, (-2, -1), (d1, d2))

    return _composite.node("DiagEmbedBackward0", self, forward, lambda g: g.diagonal(offset, d1, d2))


def diagflat(self, offset=0):
    return diag_embed(self.reshape(-1), offset)


METHODS = ("diag_embed", "diagflat", "movedim", "moveaxis", "swapaxes", "swapdims", "take_along_dim", "diff",
           "cross", "kron", "rot90", "inner", "dist", "repeat_interleave", "unfold")
FUNCTIONS = ("vstack", "row_stack", "hstack", "dstack", "column_stack", "atleast_1d", "atleast_2d",
             "tensordot", "meshgrid", "block_diag", "cartesian_prod", "tril_indices", "triu_indices",
             "logspace", "as_tensor")
