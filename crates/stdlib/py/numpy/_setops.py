"""Set operations on arrays (NumPy's arraysetops): `isin`, `intersect1d`,
`union1d`, `setdiff1d`, `setxor1d`, over sorted unique values."""

from ._cpu import torch

from ._dtype import bool_dtype
from ._ndarray import _wrap


def _asarray(a):
    from ._creation import asarray

    return asarray(a)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """`np.isin`: whether each element is among test_elements (element's shape)."""
    from ._dtype import promote

    e, t = _asarray(element), _asarray(test_elements)
    dt = promote(e._dtype, t._dtype)
    et, tt = e._t.to(dt._torch), t._t.reshape(-1).to(dt._torch)
    if tt.numel() == 0:
        hit = torch.zeros(tuple(et.shape), dtype=torch.bool)
    else:
        hit = (et.reshape(-1, 1) == tt.reshape(1, -1)).any(1).reshape(tuple(et.shape))
    return _wrap(hit.logical_not() if invert else hit, bool_dtype)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """`np.intersect1d`: the sorted values in both."""
    from ._sorting import unique

    if return_indices:
        raise NotImplementedError("gradscope's numpy has no np.intersect1d(return_indices=True)")
    a, b = unique(_asarray(ar1)), unique(_asarray(ar2))
    return a[isin(a, b)]


def union1d(ar1, ar2):
    """`np.union1d`: the sorted values in either."""
    from ._sorting import unique
    from ._shaping import concatenate

    return unique(concatenate((_asarray(ar1).reshape(-1), _asarray(ar2).reshape(-1))))


def setdiff1d(ar1, ar2, assume_unique=False):
    """`np.setdiff1d`: the sorted unique values of ar1 not in ar2."""
    from ._sorting import unique

    a = _asarray(ar1).reshape(-1) if assume_unique else unique(_asarray(ar1))
    return a[isin(a, ar2, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """`np.setxor1d`: the sorted values in exactly one of the two."""
    from ._sorting import unique
    from ._shaping import concatenate

    a, b = unique(_asarray(ar1)), unique(_asarray(ar2))
    return unique(concatenate((a[isin(a, b, invert=True)], b[isin(b, a, invert=True)])))
