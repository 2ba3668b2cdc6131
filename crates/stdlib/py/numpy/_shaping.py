"""Joining, splitting and reshaping arrays: `concatenate`, `stack`, `split`, ..."""

from ._cpu import torch

from ._dtype import promote
from ._ndarray import ndarray, _wrap, _cast


def _asarray(a):
    if isinstance(a, ndarray):
        return a
    from ._creation import asarray

    return asarray(a)


def _common(arrays):
    arrays = [_asarray(a) for a in arrays]
    dt = arrays[0]._dtype
    for a in arrays[1:]:
        dt = promote(dt, a._dtype)
    return arrays, dt


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """`np.concatenate`."""
    arrays, dt = _common(arrays)
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != nd:
            raise ValueError(
                "all the input array dimensions except for the concatenation axis must match exactly, "
                f"but along dimension 0, the array at index 0 has size {arrays[0].shape[0]} and the "
                f"array at index {i} has size {a.shape[0]}" if False else
                f"all the input arrays must have same number of dimensions, but the array at index 0 "
                f"has {nd} dimension(s) and the array at index {i} has {a.ndim} dimension(s)")
    ax = axis % nd
    for i, a in enumerate(arrays[1:], 1):
        for d in range(nd):
            if d != ax and a.shape[d] != arrays[0].shape[d]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must match exactly, "
                    f"but along dimension {d}, the array at index 0 has size {arrays[0].shape[d]} and the "
                    f"array at index {i} has size {a.shape[d]}")
    t = torch.cat([_cast(a._t, dt) for a in arrays], ax)
    if out is not None:
        out._t.copy_(t)
        return out
    return _wrap(t, dt)


concat = concatenate


def stack(arrays, axis=0, out=None, dtype=None):
    """`np.stack`."""
    arrays, dt = _common(arrays)
    shape = arrays[0].shape
    for a in arrays[1:]:
        if a.shape != shape:
            raise ValueError("all input arrays must have the same shape")
    return _wrap(torch.stack([_cast(a._t, dt) for a in arrays], axis), dt)


def atleast_1d(a):
    a = _asarray(a)
    return a.reshape(1) if a.ndim == 0 else a


def atleast_2d(a):
    a = _asarray(a)
    if a.ndim == 0:
        return a.reshape(1, 1)
    if a.ndim == 1:
        return a.reshape(1, -1)
    return a


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


row_stack = vstack


def hstack(tup):
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if arrays[0].ndim == 1 else 1)


def column_stack(tup):
    arrays = [_asarray(a) for a in tup]
    arrays = [a.reshape(-1, 1) if a.ndim < 2 else a for a in arrays]
    return concatenate(arrays, 1)


def dstack(tup):
    arrays = [_asarray(a) for a in tup]
    arrays = [a.reshape(1, -1, 1) if a.ndim == 1 else (a.reshape(a.shape + (1,)) if a.ndim == 2 else a) for a in arrays]
    return concatenate(arrays, 2)


def split(ary, indices_or_sections, axis=0):
    """`np.split`: equal sections, or at the given indices."""
    a = _asarray(ary)
    n = a.shape[axis]
    if isinstance(indices_or_sections, int):
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(a, indices_or_sections, axis)


def array_split(ary, indices_or_sections, axis=0):
    a = _asarray(ary)
    n = a.shape[axis]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        each, extra = divmod(n, k)
        bounds = [0]
        for i in range(k):
            bounds.append(bounds[-1] + each + (1 if i < extra else 0))
    else:
        bounds = [0] + [min(int(i), n) for i in indices_or_sections] + [n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        hi = max(hi, lo)
        out.append(_wrap(a._t.narrow(axis % a.ndim, lo, hi - lo), a._dtype))
    return out


def hsplit(ary, indices):
    a = _asarray(ary)
    return split(a, indices, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices):
    return split(ary, indices, 0)


def expand_dims(a, axis):
    a = _asarray(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = a.ndim + len(axes)
    axes = sorted(x % nd for x in axes)
    t = a._t
    for x in axes:
        t = t.unsqueeze(x)
    return _wrap(t, a._dtype)


def squeeze(a, axis=None):
    a = _asarray(a)
    if axis is None:
        return _wrap(a._t.reshape(tuple(s for s in a.shape if s != 1)), a._dtype)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = {x % a.ndim for x in axes}
    for x in axes:
        if a.shape[x] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return _wrap(a._t.reshape(tuple(s for d, s in enumerate(a.shape) if d not in axes)), a._dtype)


def transpose(a, axes=None):
    a = _asarray(a)
    return a.transpose(axes) if axes is not None else a.T


def swapaxes(a, axis1, axis2):
    return _asarray(a).swapaxes(axis1, axis2)


def moveaxis(a, source, destination):
    a = _asarray(a)
    return _wrap(a._t.movedim(source, destination), a._dtype)


def reshape(a, *args, **kwargs):
    shape = kwargs.pop("newshape", None) or kwargs.pop("shape", None) or args[0]
    return _asarray(a).reshape(shape)


def ravel(a, order="C"):
    return _asarray(a).ravel()


def shape(a):
    return _asarray(a).shape


def size(a, axis=None):
    a = _asarray(a)
    return a.size if axis is None else a.shape[axis]


def ndim(a):
    return _asarray(a).ndim


def repeat(a, repeats, axis=None):
    a = _asarray(a)
    t = a._t
    if axis is None:
        t = t.reshape(-1)
        axis = 0
    if isinstance(repeats, int):
        r = t.repeat_interleave(repeats, dim=axis)
    else:
        from ._creation import asarray

        r = t.repeat_interleave(asarray(repeats)._t, dim=axis)
    return _wrap(r, a._dtype)


def tile(a, reps):
    a = _asarray(a)
    reps = tuple(reps) if isinstance(reps, (tuple, list)) else (reps,)
    t = a._t
    while t.dim() < len(reps):
        t = t.unsqueeze(0)
    reps = (1,) * (t.dim() - len(reps)) + reps
    return _wrap(t.repeat(*reps), a._dtype)


def flip(m, axis=None):
    a = _asarray(m)
    axes = list(range(a.ndim)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    return _wrap(a._t.flip(axes), a._dtype)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = _asarray(a)
    if axis is None:
        return _wrap(a._t.reshape(-1).roll(shift, 0).reshape(a.shape), a._dtype)
    return _wrap(a._t.roll(shift, axis), a._dtype)


def broadcast_to(array, shape):
    a = _asarray(array)
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    return _wrap(a._t.expand(shape), a._dtype)


def broadcast_arrays(*args):
    arrays = [_asarray(a) for a in args]
    tensors = torch.broadcast_tensors(*[a._t for a in arrays])
    return [_wrap(t, a._dtype) for t, a in zip(tensors, arrays)]


def _triangle(t, k, lower):
    """t where the triangle holds, zeros elsewhere (NumPy's where(mask, m, 0)),
    made on the CPU (the engine's tril and triu make theirs on the default device)."""
    n, m = t.shape[-2], t.shape[-1]
    rows = torch.arange(n, dtype=torch.int64).reshape(n, 1)
    cols = torch.arange(m, dtype=torch.int64).reshape(1, m)
    keep = (cols - rows <= k) if lower else (cols - rows >= k)
    return torch.where(keep, t, torch.zeros((), dtype=t.dtype))


def tril(m, k=0):
    a = _asarray(m)
    return _wrap(_triangle(a._t, k, lower=True), a._dtype)


def triu(m, k=0):
    a = _asarray(m)
    return _wrap(_triangle(a._t, k, lower=False), a._dtype)


def diag(v, k=0):
    a = _asarray(v)
    if a.ndim == 1:
        # Built on the CPU here: the engine's diag makes its matrix on the default device.
        n = a.shape[0] + abs(k)
        out = torch.zeros((n, n), dtype=a._t.dtype)
        out.diagonal(k).copy_(a._t)
        return _wrap(out, a._dtype)
    return _wrap(a._t.diag(k), a._dtype)


def trace(a, offset=0):
    from ._reductions import sum

    a = _asarray(a)
    return sum(_wrap(a._t.diagonal(offset), a._dtype))


def pad(array, pad_width, mode="constant", constant_values=0):
    a = _asarray(array)
    if mode != "constant":
        raise NotImplementedError("gradscope's numpy pads with a constant only")
    if isinstance(pad_width, int):
        pad_width = [(pad_width, pad_width)] * a.ndim
    elif isinstance(pad_width[0], int):
        pad_width = [tuple(pad_width)] * a.ndim
    shape = tuple(s + lo + hi for s, (lo, hi) in zip(a.shape, pad_width))
    from ._creation import full

    out = full(shape, constant_values, dtype=a._dtype)
    key = tuple(slice(lo, lo + s) for s, (lo, _) in zip(a.shape, pad_width))
    out[key] = a
    return out
