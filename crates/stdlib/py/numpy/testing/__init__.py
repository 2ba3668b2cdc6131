"""`np.testing`: the assertions tutorials and notebooks check results with,
raising NumPy's AssertionError texts (the header, the mismatch remarks, the
ACTUAL/DESIRED reprs) as numpy/testing/_private/utils.py builds them."""

import operator as _operator

from .._creation import asarray as _asarray
from .._ndarray import ndarray as _ndarray
from .._printing import array_repr as _array_repr, array2string as _array2string

__all__ = ["assert_allclose", "assert_array_equal", "assert_array_almost_equal", "assert_equal",
           "assert_almost_equal", "assert_array_less", "assert_", "assert_raises"]


def _message(arrays, err_msg, header, precision=8, names=("ACTUAL", "DESIRED")):
    msg = ["\n" + header]
    err_msg = str(err_msg)
    if err_msg:
        if "\n" not in err_msg and len(err_msg) < 79 - len(header):
            msg = [msg[0] + " " + err_msg]
        else:
            msg.append(err_msg)
    for name, a in zip(names, arrays):
        r = _array_repr(a, precision=precision) if isinstance(a, _ndarray) else repr(a)
        if r.count("\n") > 3:
            r = "\n".join(r.splitlines()[:3]) + "..."
        msg.append(f" {name}: {r}")
    return "\n".join(msg)


def _compare(comparison, x, y, err_msg="", header="", precision=6, equal_nan=True, strict=False):
    """NumPy's `assert_array_compare`, for numeric arrays."""
    import numpy as np

    x = _asarray(x)
    y = _asarray(y)
    ox, oy = x, y
    if strict:
        same = x.shape == y.shape and x.dtype == y.dtype
    else:
        same = x.shape == () or y.shape == () or x.shape == y.shape
    if not same:
        reason = (f"\n(shapes {x.shape}, {y.shape} mismatch)" if x.shape != y.shape
                  else f"\n(dtypes {x.dtype}, {y.dtype} mismatch)")
        raise AssertionError(_message([x, y], err_msg + reason, header, precision))

    def same_positions(func, what):
        xf, yf = func(x), func(y)
        if bool((xf != yf).any()):
            raise AssertionError(_message([x, y], err_msg + f"\n{what} location mismatch:", header, precision))
        if xf.ndim == 0:
            return np.bool_(bool(xf))
        if yf.ndim == 0:
            return np.bool_(bool(yf))
        return yf

    flagged = np.bool_(False)
    if equal_nan:
        flagged = same_positions(np.isnan, "nan")
    infs = same_positions(lambda v: np.logical_and(np.isinf(v), ~flagged), "inf")
    if bool(np.any(infs)):
        xi = x[infs] if x.ndim > 0 and y.ndim > 0 else x
        yi = y[infs] if x.ndim > 0 and y.ndim > 0 else y
        if not bool(np.all(xi == yi)):
            raise AssertionError(_message([xi, yi], err_msg + "\ninf values mismatch:", header, precision))
    flagged = np.logical_or(flagged, infs)
    if isinstance(flagged, _ndarray) and flagged.ndim > 0:
        x, y = x[~flagged], y[~flagged]
        if x.size == 0:
            return
    elif bool(flagged):
        return
    val = comparison(x, y)
    invalids = np.logical_not(val)
    reduced = _asarray(val).ravel()
    if bool(reduced.all()):
        return
    n_mismatch = int(reduced.size - reduced.sum())
    n_elements = flagged.size if isinstance(flagged, _ndarray) and flagged.ndim != 0 else reduced.size
    remarks = [f"Mismatched elements: {n_mismatch} / {n_elements} ({100 * n_mismatch / n_elements:.3g}%)"]
    if invalids.ndim != 0:
        if isinstance(flagged, _ndarray) and flagged.ndim > 0:
            positions = np.argwhere(~flagged)[invalids]
        else:
            positions = np.argwhere(invalids)
        lines = "\n".join(
            f" {p.tolist()}: {ox if ox.ndim == 0 else ox[tuple(p.tolist())]} ({'ACTUAL'}), "
            f"{oy if oy.ndim == 0 else oy[tuple(p.tolist())]} ({'DESIRED'})"
            for p in list(positions)[:5])
        n = len(positions)
        label = "Mismatch at index:" if n == 1 else "Mismatch at indices:" if n <= 5 else \
            "First 5 mismatches are at indices:"
        remarks.append(f"{label}\n{lines}")
    if x.dtype.kind in "iuf" and y.dtype.kind in "iuf":
        error = abs(x - y)
        remarks.append("Max absolute difference among violations: "
                       + _array2string(np.max(error[invalids])))
        nonzero = np.bool_(y != 0) if y.ndim == 0 else (y != 0)
        bad = np.logical_and(invalids, nonzero)
        if not bool(np.any(bad)):
            rel = np.array(np.inf)
        else:
            by = np.broadcast_to(y, error.shape)
            rel = np.max(error[bad] / abs(by[bad]))
        remarks.append("Max relative difference among violations: " + _array2string(rel))
    raise AssertionError(_message([ox, oy], str(err_msg) + "\n" + "\n".join(remarks), header, precision))


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg="", verbose=True, *,
                    strict=False):
    """`np.testing.assert_allclose`: |actual - desired| <= atol + rtol * |desired|."""
    import numpy as np

    def compare(x, y):
        return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)

    _compare(compare, actual, desired, str(err_msg), f"Not equal to tolerance rtol={rtol:g}, atol={atol:g}",
             equal_nan=equal_nan, strict=strict)


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    _compare(_operator.eq, actual, desired, err_msg, "Arrays are not equal", strict=strict)


def assert_array_almost_equal(actual, desired, decimal=6, err_msg="", verbose=True):
    import numpy as np

    def compare(x, y):
        y = _asarray(y)
        if y.dtype.kind != "f":
            y = y.astype(np.float64)
        return abs(x - y) < 1.5 * 10.0 ** (-decimal)

    _compare(compare, actual, desired, err_msg, f"Arrays are not almost equal to {decimal} decimals",
             precision=decimal)


def assert_array_less(x, y, err_msg="", verbose=True, *, strict=False):
    _compare(_operator.lt, x, y, err_msg, "Arrays are not strictly ordered `x < y`", equal_nan=False,
             strict=strict)


def _is_array(x):
    return isinstance(x, _ndarray)


def assert_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """`np.testing.assert_equal`: dicts and sequences item by item, arrays as
    `assert_array_equal`, NaN equal to NaN."""
    import math

    if isinstance(desired, dict):
        if not isinstance(actual, dict):
            raise AssertionError(repr(type(actual)))
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in desired:
            if k not in actual:
                raise AssertionError(repr(k))
            assert_equal(actual[k], desired[k], f"key={k!r}\n{err_msg}", verbose)
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in range(len(desired)):
            assert_equal(actual[k], desired[k], f"item={k!r}\n{err_msg}", verbose)
        return
    if _is_array(actual) or _is_array(desired):
        return assert_array_equal(actual, desired, err_msg, verbose, strict=strict)
    try:
        both_nan = math.isnan(actual) and math.isnan(desired)
    except (TypeError, ValueError):
        both_nan = False
    if both_nan:
        return
    if not desired == actual:
        raise AssertionError(_message([actual, desired], err_msg, "Items are not equal:"))


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    """`np.testing.assert_almost_equal`: abs(desired - actual) < 1.5 * 10**(-decimal)."""
    if _is_array(actual) or _is_array(desired) or isinstance(actual, (list, tuple)) or \
            isinstance(desired, (list, tuple)):
        return assert_array_almost_equal(actual, desired, decimal, err_msg)
    if not abs(desired - actual) < float(1.5 * 10.0 ** (-decimal)):
        raise AssertionError(_message([actual, desired], err_msg,
                                      f"Arrays are not almost equal to {decimal} decimals"))


def assert_(val, msg=""):
    if not val:
        raise AssertionError(msg() if callable(msg) else msg)


def assert_raises(exception_class, *args, **kwargs):
    import unittest

    case = unittest.TestCase("__init__")
    return case.assertRaises(exception_class, *args, **kwargs)
