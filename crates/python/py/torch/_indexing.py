"""PyTorch's indexing and splitting functions the engine has no op for
(`index_fill`, `index_copy`, `masked_scatter`, `take`, the `*_scatter`
family, `tensor_split`, `flipud`, `argwhere`, `isin`, ...), built from its
`gather`, `scatter`, `index_select`, `index_add` and `where`, each recorded
as PyTorch's node where PyTorch has one of its own."""

import builtins as _builtins

import _gradscope as _C

from . import _composite
from ._shape import _wrap


def _index_of(values, device):
    return _C.tensor(values, dtype=_C.int64, device=device).reshape(len(values))


def flipud(self):
    if self.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return self.flip(0)


def fliplr(self):
    if self.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return self.flip(1)


def tensor_split(self, indices_or_sections, dim=0):
    """Pieces along `dim`: `n` nearly equal ones (the first `size % n` one
    longer), or cut at the given indices; each a slice (a view)."""
    from . import Tensor

    d = _wrap(dim, self.dim())
    size = self.shape[d]
    if isinstance(indices_or_sections, Tensor) and indices_or_sections.dim() == 0:
        indices_or_sections = int(indices_or_sections.item())
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        small, extra = divmod(size, n)
        cuts, at = [], 0
        for i in range(n - 1):
            at += small + (1 if i < extra else 0)
            cuts.append(at)
    else:
        cuts = [int(i) for i in (indices_or_sections.tolist() if isinstance(indices_or_sections, Tensor)
                                 else indices_or_sections)]
    pieces, start = [], 0
    for end in cuts + [size]:
        lo = _builtins.min(_builtins.max(start, 0), size)
        hi = _builtins.min(_builtins.max(end, lo), size)
        pieces.append(self.narrow(d, lo, hi - lo))
        start = end
    return tuple(pieces)


def _split_along(name, self, sections, dim, need):
    if self.dim() < need:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {need} dimension, but got a tensor with "
            f"{self.dim()} dimensions!"
        )
    if isinstance(sections, int) and self.shape[dim] % sections:
        raise RuntimeError(
            f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
            f"{self.shape[dim]} is not divisible by the split_size {sections}!"
        )
    return tensor_split(self, sections, dim)


def hsplit(self, sections):
    return _split_along("hsplit", self, sections, 1 if self.dim() > 1 else 0, 1)


def vsplit(self, sections):
    return _split_along("vsplit", self, sections, 0, 2)


def dsplit(self, sections):
    return _split_along("dsplit", self, sections, 2, 3)


def split_with_sizes(self, split_sizes, dim=0):
    return self.split(list(split_sizes), dim)


def narrow_copy(self, dim, start, length):
    return _composite.node("NarrowCopyBackward0", self, lambda: self.narrow(dim, start, length).clone(),
                           lambda g: _placed(g, self, dim, start))


def _placed(g, like, dim, start):
    """`g` placed at `start` along `dim` in zeros of `like`'s shape."""
    d = _wrap(dim, like.dim())
    index = _index_of(list(range(start, start + g.shape[d])), g._device)
    return _C.zeros(tuple(like.shape), dtype=g.dtype, device=g._device).index_add(d, index, g)


def take(self, index):
    """Elements at flat positions (negative ones from the end)."""
    n = self.numel()
    flat = index.reshape(-1)
    wrapped = _C.where(flat < 0, flat + n, flat)

    def backward(g):
        zeros = _C.zeros(n, dtype=g.dtype, device=g._device)
        return zeros.index_add(0, wrapped, g.reshape(-1)).reshape(tuple(self.shape))

    return _composite.node("TakeBackward0", self,
                           lambda: self.reshape(-1).index_select(0, wrapped).reshape(tuple(index.shape)), backward)


def argwhere(self):
    return self.nonzero()


def index_fill(self, dim, index, value):
    from . import Tensor

    d = _wrap(dim, self.dim())
    shape = [1] * self.dim()
    if self.dim():
        shape[d] = self.shape[d]
    hit = _C.zeros(self.shape[d] if self.dim() else 1, dtype=_C.int64, device=self._device)
    hit = hit.index_add(0, index.reshape(-1), _C.ones(index.numel(), dtype=_C.int64, device=self._device)) > 0
    mask = hit.reshape(shape) if self.dim() else hit.reshape(())
    if isinstance(value, Tensor):
        return _C.where(mask, value.to(self.dtype), self)
    return _composite.node("IndexFillBackward0", self, lambda: self.masked_fill(mask, value),
                           lambda g: g.masked_fill(mask, 0))


def index_copy(self, dim, index, source):
    """`self` with the slices at `index` along `dim` replaced by `source`'s."""
    d = _wrap(dim, self.dim())

    def forward():
        kept = self.index_fill(d, index, 0)
        return kept + _C.zeros(tuple(self.shape), dtype=self.dtype, device=self._device).index_add(d, index, source)

    def backward(g):
        return [g.index_fill(d, index, 0), g.index_select(d, index)]

    return _composite.op("IndexCopyBackward0", [self, source], forward, backward)


def masked_scatter(self, mask, source):
    """`self` with the places `mask` marks filled, in order, from `source`."""
    full = mask.expand_as(self) if tuple(mask.shape) != tuple(self.shape) else mask
    flags = full.reshape(-1).tolist()
    count = _builtins.sum(1 for f in flags if f)
    if count > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    # For each masked place, its position in the source.
    order, k = [], 0
    for f in flags:
        order.append(k if f else 0)
        k += 1 if f else 0
    where = _index_of(order, self._device)

    def forward():
        picked = source.reshape(-1).index_select(0, where).reshape(tuple(self.shape))
        return _C.where(full, picked, self)

    def backward(g):
        taken = _index_of([i for i, f in enumerate(flags) if f], g._device)
        into = _C.zeros(source.numel(), dtype=g.dtype, device=g._device)
        grad_source = into.index_add(0, _index_of(list(range(count)), g._device),
                                     g.reshape(-1).index_select(0, taken)).reshape(tuple(source.shape))
        return [g.masked_fill(full, 0), grad_source]

    return _composite.op("MaskedScatterBackward0", [self, source], forward, backward)


def fill_diagonal_(self, fill_value, wrap=False):
    """Writes `fill_value` on the main diagonal, in place (a copy into
    slices, PyTorch's CopySlices)."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    n = _builtins.min(self.shape)
    flat = self.numel()
    if self.dim() == 2:
        width = self.shape[1]
        if wrap and self.shape[0] > width + 1:
            positions = list(range(0, flat, width + 1))
        else:
            positions = [i * width + i for i in range(n)]
    else:
        stride = _builtins.sum(self.shape[0] ** k for k in range(self.dim()))
        positions = [i * stride for i in range(n)]
    flags = [False] * flat
    for p in positions:
        flags[p] = True
    mask = _C.tensor(flags, dtype=_C.bool, device=self._device).reshape(tuple(self.shape))
    return self.masked_fill_(mask, fill_value)


def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    def forward():
        out = self.clone()
        out.diagonal(offset, dim1, dim2).copy_(src)
        return out

    def backward(g):
        return [_composite_diagonal_zero(g, offset, dim1, dim2), g.diagonal(offset, dim1, dim2)]

    return _composite.op("DiagonalScatterBackward0", [self, src], forward, backward)


def _composite_diagonal_zero(g, offset, dim1, dim2):
    return diagonal_scatter(g, _C.zeros(tuple(g.diagonal(offset, dim1, dim2).shape), dtype=g.dtype,
                                        device=g._device), offset, dim1, dim2)


def select_scatter(self, src, dim, index):
    d = _wrap(dim, self.dim())
    i = index % self.shape[d]
    return _slice_scatter_node("SelectScatterBackward0", self, src, d, i, i + 1, 1, lambda g: g.select(d, i),
                               lambda t: t.unsqueeze(d))


def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
    d = _wrap(dim, self.dim())
    n = self.shape[d]
    lo = 0 if start is None else (start + n if start < 0 else start)
    hi = n if end is None else (end + n if end < 0 else _builtins.min(end, n))
    return _slice_scatter_node("SliceScatterBackward0", self, src, d, lo, hi, step,
                               lambda g: g.index_select(d, _index_of(list(range(lo, hi, step)), g._device)))


def _slice_scatter_node(name, self, src, d, lo, hi, step, grad_src, shaped=lambda t: t):
    places = list(range(lo, hi, step))

    def forward():
        index = _index_of(places, self._device)
        kept = self.index_fill(d, index, 0)
        zeros = _C.zeros(tuple(self.shape), dtype=self.dtype, device=self._device)
        return kept + zeros.index_add(d, index, shaped(src).to(self.dtype))

    def backward(g):
        return [g.index_fill(d, _index_of(places, g._device), 0), grad_src(g)]

    return _composite.op(name, [self, src], forward, backward)


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        raise NotImplementedError("gradscope's unique_consecutive does not take dim yet")
    flat = self.detach().cpu().reshape(-1).tolist()
    values, inverse, counts = [], [], []
    for v in flat:
        if not values or values[-1] != v:
            values.append(v)
            counts.append(0)
        counts[-1] += 1
        inverse.append(len(values) - 1)
    out = _C.tensor(values, dtype=self.dtype, device=self._device).reshape(len(values))
    results = [out]
    if return_inverse:
        results.append(_C.tensor(inverse, dtype=_C.int64, device=self._device).reshape(tuple(self.shape)))
    if return_counts:
        results.append(_index_of(counts, self._device))
    return out if len(results) == 1 else tuple(results)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    from . import Tensor

    pool = set(test_elements.reshape(-1).tolist() if isinstance(test_elements, Tensor) else [test_elements])
    if not isinstance(elements, Tensor):
        return _C.tensor((elements in pool) != invert)
    found = [(v in pool) != invert for v in elements.reshape(-1).tolist()]
    return _C.tensor(found, dtype=_C.bool, device=elements._device).reshape(tuple(elements.shape))


def _flat_positions(self, indices):
    """The flat positions `self[indices]` addresses (index tensors for the
    leading dims, broadcast together; the rest of each slice after)."""
    from . import broadcast_tensors

    indices = [i.long() if i.dtype != _C.bool else i.nonzero(as_tuple=True)[0] for i in indices]
    lead = broadcast_tensors(*indices) if len(indices) > 1 else indices
    shape = tuple(self.shape)
    k = len(lead)
    rest = 1
    for n in shape[k:]:
        rest *= n
    flat = _C.zeros(tuple(lead[0].shape), dtype=_C.int64, device=self._device)
    for d, i in enumerate(lead):
        i = _C.where(i < 0, i + shape[d], i)
        flat = flat * shape[d] + i
    offsets = _C.arange(rest, device=self._device)
    positions = flat.unsqueeze(-1) * rest + offsets
    return positions.reshape(-1), tuple(lead[0].shape) + shape[k:]


def index_put(self, indices, values, accumulate=False):
    """`self` with `values` written (or added, with `accumulate`) at
    `self[indices]`, recorded as PyTorch's IndexPutBackward0."""
    positions, target = _flat_positions(self, tuple(indices))
    n = self.numel()

    def spread(v):
        return v.expand(target).reshape(-1) if tuple(v.shape) != target else v.reshape(-1)

    def forward():
        flat = self.reshape(-1)
        if not accumulate:
            flat = flat.index_fill(0, positions, 0)
        return flat.index_add(0, positions, spread(values.to(self.dtype))).reshape(tuple(self.shape))

    def backward(g):
        flat = g.reshape(-1)
        grad_self = flat if accumulate else flat.index_fill(0, positions, 0)
        grad_values = flat.index_select(0, positions).reshape(target)
        if tuple(values.shape) != target:
            grad_values = grad_values.sum_to_size(tuple(values.shape))
        return [grad_self.reshape(tuple(self.shape)), grad_values]

    return _composite.op("IndexPutBackward0", [self, values], forward, backward)


def put(self, index, source, accumulate=False):
    """`self` with `source` written (or added) at the flat positions `index`."""
    n = self.numel()
    flat_index = index.reshape(-1)
    flat_index = _C.where(flat_index < 0, flat_index + n, flat_index)

    def forward():
        flat = self.reshape(-1)
        if not accumulate:
            flat = flat.index_fill(0, flat_index, 0)
        return flat.index_add(0, flat_index, source.reshape(-1).to(self.dtype)).reshape(tuple(self.shape))

    def backward(g):
        flat = g.reshape(-1)
        grad_self = flat if accumulate else flat.index_fill(0, flat_index, 0)
        return [grad_self.reshape(tuple(self.shape)), flat.index_select(0, flat_index).reshape(tuple(source.shape))]

    return _composite.op("PutBackward0", [self, source], forward, backward)


def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
    """`src`'s values reduced into `self` at `index` along `dim`: "sum",
    "mean", "amax" or "amin" ("prod" is not in gradscope yet)."""
    if reduce not in ("sum", "mean", "amax", "amin", "prod"):
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if reduce == "prod":
        raise NotImplementedError("gradscope's scatter_reduce does not do 'prod' yet")
    d = _wrap(dim, self.dim())
    if reduce in ("amax", "amin"):
        return _scatter_extreme(self, d, index, src, reduce, include_self)

    def fn(x, s):
        base = x if include_self else x.scatter(d, index, 0.0)
        total = base.scatter_add(d, index, s)
        if reduce == "sum":
            return total
        ones = _C.ones(tuple(index.shape), dtype=x.dtype, device=x._device)
        start = _C.ones(tuple(x.shape), dtype=x.dtype, device=x._device) if include_self else \
            _C.zeros(tuple(x.shape), dtype=x.dtype, device=x._device)
        count = start.scatter_add(d, index, ones)
        return _C.where(count > 0, total / count.clamp(min=1), x)

    return _composite.recorded("ScatterReduceBackward0", [self, src], fn, ("self", "src"))


def _scatter_extreme(self, d, index, src, reduce, include_self):
    """scatter_reduce's "amax"/"amin", found on the host; ties share the
    gradient, as PyTorch's formula divides it among the equal values."""
    better = max if reduce == "amax" else min
    shape = tuple(self.shape)
    strides = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        strides[k] = strides[k + 1] * shape[k + 1]
    values = self.detach().cpu().reshape(-1).tolist()
    picks = index.reshape(-1).tolist()
    sources = src.detach().cpu().reshape(-1).tolist()
    index_shape = tuple(index.shape)
    src_strides = [1] * len(tuple(src.shape))
    for k in range(len(src_strides) - 2, -1, -1):
        src_strides[k] = src_strides[k + 1] * src.shape[k + 1]
    result = list(values)
    touched = set()
    for flat, target_index in enumerate(picks):
        coords, rest = [], flat
        for n in reversed(index_shape):
            coords.append(rest % n)
            rest //= n
        coords.reverse()
        value = sources[sum(c * st for c, st in zip(coords, src_strides))]
        coords[d] = target_index
        at = sum(c * st for c, st in zip(coords, strides))
        if at not in touched and not include_self:
            result[at] = value
        else:
            result[at] = better(result[at], value)
        touched.add(at)
    out = _C.tensor(result, dtype=self.dtype, device=self._device).reshape(shape)
    scattered = _C.tensor([i in touched for i in range(len(result))], dtype=_C.bool,
                          device=self._device).reshape(shape)

    def backward(g, x, s):
        value = out.gather(d, index)
        self_is = (x == out).to(g.dtype)
        if not include_self:
            self_is = self_is.masked_fill(scattered, 0)
        src_is = (s == value).to(g.dtype)
        share = g / self_is.scatter_add(d, index, src_is)
        return [self_is * share, src_is * share.gather(d, index)]

    return _composite.op("ScatterReduceBackward0", [self, src], lambda: out.clone(), backward, ("self", "other"))


METHODS = ("index_put", "put", "scatter_reduce", "flipud", "fliplr", "tensor_split", "hsplit", "vsplit", "dsplit", "split_with_sizes", "narrow_copy",
           "take", "argwhere", "index_fill", "index_copy", "masked_scatter", "diagonal_scatter",
           "select_scatter", "slice_scatter", "unique_consecutive")
TENSOR_ONLY = ("fill_diagonal_",)
FUNCTIONS = ("isin",)
INPLACE = ("index_fill", "index_copy", "masked_scatter", "index_put", "put", "scatter_reduce", "scatter_add",
           "index_add")
