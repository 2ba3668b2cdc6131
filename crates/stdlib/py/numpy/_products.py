"""Products: `dot`, `matmul`, `outer`, `inner`."""

from ._cpu import torch

from ._dtype import promote
from ._ndarray import ndarray, _wrap, _cast


def _asarray(a):
    if isinstance(a, ndarray):
        return a
    from ._creation import asarray

    return asarray(a)


def matmul(x1, x2, out=None):
    """`np.matmul` (`@`)."""
    a, b = _asarray(x1), _asarray(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)")
    ka = a.shape[-1]
    kb = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if ka != kb:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            f"(n?,k),(k,m?)->(n?,m?) (size {kb} is different from {ka})")
    dt = promote(a._dtype, b._dtype)
    t = _cast(a._t, dt).matmul(_cast(b._t, dt))
    if t.dim() == 0:
        return dt.type(t.item())
    return _wrap(t, dt)


def dot(a, b, out=None):
    """`np.dot`: products of scalars, vectors and matrices."""
    a, b = _asarray(a), _asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        r = a * b
        return r[()] if r.ndim == 0 else r
    if a.ndim <= 2 and b.ndim <= 2:
        if a.shape[-1] != (b.shape[0]):
            raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[0]} (dim 0)")
        return matmul(a, b)
    dt = promote(a._dtype, b._dtype)
    t = torch.tensordot(_cast(a._t, dt), _cast(b._t, dt), dims=([a.ndim - 1], [b.ndim - 2]))
    return _wrap(t, dt)


def vdot(a, b):
    return dot(_asarray(a).reshape(-1), _asarray(b).reshape(-1))


def inner(a, b):
    a, b = _asarray(a), _asarray(b)
    if a.ndim <= 1 and b.ndim <= 1:
        return dot(a, b)
    return matmul(a, b.swapaxes(-1, -2))


def outer(a, b, out=None):
    """`np.outer`: of the flattened inputs."""
    a, b = _asarray(a).reshape(-1), _asarray(b).reshape(-1)
    dt = promote(a._dtype, b._dtype)
    return _wrap(_cast(a._t, dt).reshape(-1, 1) * _cast(b._t, dt).reshape(1, -1), dt)


def tensordot(a, b, axes=2):
    a, b = _asarray(a), _asarray(b)
    dt = promote(a._dtype, b._dtype)
    return _wrap(torch.tensordot(_cast(a._t, dt), _cast(b._t, dt), dims=axes), dt)


def einsum(subscripts, *operands, **kwargs):
    arrays = [_asarray(o) for o in operands]
    dt = arrays[0]._dtype
    for x in arrays[1:]:
        dt = promote(dt, x._dtype)
    t = torch.einsum(subscripts, *[_cast(x._t, dt) for x in arrays])
    if t.dim() == 0:
        return dt.type(t.item())
    return _wrap(t, dt)
