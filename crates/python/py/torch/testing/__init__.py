"""`torch.testing`: `assert_close`, PyTorch's comparison of tensors,
numbers and nested sequences or mappings of them, with its default
tolerances per dtype and its error messages, and the deprecated
`assert_allclose`.

As PyTorch's `torch/testing/_comparison.py`: the inputs are split into
pairs (sequences item by item, mappings key by key in sorted order), each
pair compared by the first kind that takes it (both `None`, both `bool`,
both numbers, or tensor-likes directly related by type), and the first
mismatch raised with the path of the item that failed. Sparse, quantized
and float8 tensors, which gradscope does not have, are not handled.
"""

import cmath
import collections.abc
import sys
import warnings

import torch

__all__ = ["assert_allclose", "assert_close"]

# {dtype: (rtol, atol)}, PyTorch's defaults.
_DTYPE_PRECISIONS = {
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}
for _name, _tolerances in (("complex32", (0.001, 1e-5)), ("complex64", (1.3e-6, 1e-5)),
                           ("complex128", (1e-7, 1e-7))):
    if hasattr(torch, _name):
        _DTYPE_PRECISIONS[getattr(torch, _name)] = _tolerances


class _Mismatch(Exception):
    """A failed comparison: the exception type to raise, its message, and
    the path of the item (`[1]['a']`)."""

    def __init__(self, kind, msg, path=()):
        super().__init__(msg)
        self.kind = kind
        self.msg = msg
        self.path = path

    def to_error(self, msg=None):
        if not isinstance(msg, str):
            generated = self.msg
            if self.path:
                generated += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.path)}"
            msg = msg(generated) if callable(msg) else generated
        return self.kind(msg)


class _Unsupported(Exception):
    """This kind of pair does not take these inputs; the next kind is tried."""


def _default_tolerances(dtypes, precisions=None):
    precisions = precisions or _DTYPE_PRECISIONS
    rtols, atols = zip(*[precisions.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def _tolerances(dtypes, rtol, atol, path):
    if (rtol is None) ^ (atol is None):
        raise _Mismatch(
            ValueError,
            "Both 'rtol' and 'atol' must be either specified or omitted, "
            f"but got no {'rtol' if rtol is None else 'atol'}.",
            path,
        )
    if rtol is not None:
        return rtol, atol
    return _default_tolerances(dtypes)


def _mismatch_msg(identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff_msg(kind, diff, idx, tol):
        if idx is None:
            msg = f"{kind.title()} difference: {diff}"
        else:
            msg = f"Greatest {kind} difference: {diff} at index {idx}"
        if not equality:
            msg += f" (up to {tol} allowed)"
        return msg + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += diff_msg("absolute", abs_diff, abs_idx, atol)
    msg += diff_msg("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_mismatch_msg(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, atol,
                         rel_diff, None, rtol)


def _tensor_mismatch_msg(actual, expected, matches, rtol, atol):
    def unravel(flat):
        if not matches.shape:
            return ()
        index = []
        for size in reversed(matches.shape):
            flat, rest = divmod(flat, size)
            index.append(rest)
        return tuple(reversed(index))

    total = matches.numel()
    mismatches = total - int(torch.sum(matches))
    extra = f"Mismatched elements: {mismatches} / {total} ({mismatches / total:.1%})"
    actual_flat, expected_flat, matches_flat = actual.flatten(), expected.flatten(), matches.flatten()
    if not actual.dtype.is_floating_point and not actual.dtype.is_complex:
        actual_flat = actual_flat.to(torch.int64)
        expected_flat = expected_flat.to(torch.int64)
    abs_diff = torch.abs(actual_flat - expected_flat)
    abs_diff[matches_flat] = 0
    max_abs, max_abs_idx = torch.max(abs_diff, 0)
    rel_diff = abs_diff / torch.abs(expected_flat)
    rel_diff[matches_flat] = 0
    max_rel, max_rel_idx = torch.max(rel_diff, 0)
    return _mismatch_msg("Tensor-likes", extra, max_abs.item(), unravel(int(max_abs_idx)), atol,
                         max_rel.item(), unravel(int(max_rel_idx)), rtol)


def _numpy():
    return sys.modules.get("numpy")


def _compare_none(actual, expected, path, options):
    if not (actual is None or expected is None):
        raise _Unsupported
    if not (actual is None and expected is None):
        raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", path)


def _compare_bool(actual, expected, path, options):
    np = _numpy()
    kinds = (bool,) if np is None else (bool, np.bool_)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    actual, expected = (bool(v) for v in (actual, expected))
    if actual is not expected:
        raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}", path)


_NUMBER_DTYPES = {int: torch.int64, float: torch.float64, complex: getattr(torch, "complex128", torch.float64)}


def _compare_number(actual, expected, path, options):
    np = _numpy()
    kinds = (int, float, complex) if np is None else (int, float, complex, np.number)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    if np is not None:
        actual, expected = (v.item() if isinstance(v, np.number) else v for v in (actual, expected))
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(v)] for v in (actual, expected)],
                             options["rtol"], options["atol"], path)
    if actual == expected:
        return
    if options["equal_nan"] and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Mismatch(AssertionError, _scalar_mismatch_msg(actual, expected, rtol, atol), path)


def _compare_tensors(actual, expected, path, options):
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported
    if not options["allow_subclasses"] and type(actual) is not type(expected):
        raise _Unsupported
    try:
        actual, expected = (v if isinstance(v, torch.Tensor) else torch.as_tensor(v) for v in (actual, expected))
    except Exception:
        raise _Unsupported from None
    rtol, atol = _tolerances([actual.dtype, expected.dtype], options["rtol"], options["atol"], path)

    def mismatch(attribute, a, e):
        raise _Mismatch(AssertionError, f"The values for attribute '{attribute}' do not match: {a} != {e}.", path)

    if actual.shape != expected.shape:
        mismatch("shape", actual.shape, expected.shape)
    if options["check_stride"] and actual.stride() != expected.stride():
        mismatch("stride()", actual.stride(), expected.stride())
    if options["check_device"] and actual.device != expected.device:
        mismatch("device", actual.device, expected.device)
    if options["check_dtype"] and actual.dtype != expected.dtype:
        mismatch("dtype", actual.dtype, expected.dtype)
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        dtype = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(dtype), expected.to(dtype)
    actual, expected = actual.detach(), expected.detach()
    matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=options["equal_nan"])
    if torch.all(matches):
        return
    if actual.shape == torch.Size([]):
        msg = _scalar_mismatch_msg(actual.item(), expected.item(), rtol, atol)
    else:
        msg = _tensor_mismatch_msg(actual, expected, matches, rtol, atol)
    raise _Mismatch(AssertionError, msg, path)


_PAIRS = (_compare_none, _compare_bool, _compare_number, _compare_tensors)


def _compare(actual, expected, path, options):
    """Raises `_Mismatch` for the first pair of items that differ."""
    sequence = collections.abc.Sequence
    if (isinstance(actual, sequence) and not isinstance(actual, str)
            and isinstance(expected, sequence) and not isinstance(expected, str)):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError,
                            f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", path)
        pending = [(actual[i], expected[i], (*path, i)) for i in range(len(actual))]
    elif isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            raise _Mismatch(
                AssertionError,
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(expected_keys - actual_keys)}\n"
                f"Additional keys in the actual mapping: {sorted(actual_keys - expected_keys)}",
                path,
            )
        keys = actual_keys
        try:
            keys = sorted(keys)
        except Exception:
            pass
        pending = [(actual[k], expected[k], (*path, k)) for k in keys]
    else:
        for pair in _PAIRS:
            try:
                pair(actual, expected, path, options)
                return
            except _Unsupported:
                continue
        raise _Mismatch(
            TypeError,
            f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.",
            path,
        )
    for a, e, p in pending:
        _compare(a, e, p, options)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Asserts that `actual` and `expected` are close: tensors of the same
    shape, device and dtype whose values satisfy
    `|actual - expected| <= atol + rtol * |expected|` (defaults by dtype:
    float32 `rtol=1.3e-6, atol=1e-5`, float64 `1e-7, 1e-7`, integers
    exact), numbers likewise, sequences and mappings item by item."""
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol, "equal_nan": equal_nan,
               "check_device": check_device, "check_dtype": check_dtype, "check_layout": check_layout,
               "check_stride": check_stride}
    try:
        _compare(actual, expected, (), options)
    except _Mismatch as mismatch:
        error = mismatch
    else:
        return
    raise error.to_error(msg)


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated since 1.12: `assert_close` with the looser tolerances
    (float32 `rtol=1e-4, atol=1e-5`) and dtype promotion it had."""
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
        "Please use `torch.testing.assert_close()` instead. "
        "You can find detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _default_tolerances(
            [actual.dtype, expected.dtype],
            {torch.float16: (1e-3, 1e-3), torch.float32: (1e-4, 1e-5), torch.float64: (1e-5, 1e-8)},
        )
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)
