"""`hash()` as CPython 3.11 with PYTHONHASHSEED=0, the setting PyTorch
outputs are recorded with: `str` and `bytes` by CPython's SipHash-1-3
(`_gradscope._cpython_hash`), tuples by CPython's xxHash-based combination
of those, everything else as RustPython hashes it (ints, floats and None
already agree). Dicts and sets keep hashing natively: only a program's
own `hash(...)` calls see these values, as in minGPT's sort demo, which
splits its examples by `hash(pickle.dumps(x)) % 4`. Pickle's default
protocol is CPython 3.11's, 4, for the same reason (set where the
standard library's loader runs `pickle`)."""

import builtins
import _gradscope

_native_hash = builtins.hash
_MASK = (1 << 64) - 1
_PRIME_1 = 11400714785074694791
_PRIME_2 = 14029467366897019727
_PRIME_5 = 2870177450012600261


def _signed(x):
    return x - (1 << 64) if x >= 1 << 63 else x


def _tuple_hash(items):
    # CPython 3.11's tuplehash (Objects/tupleobject.c), 64-bit.
    acc = _PRIME_5
    for item in items:
        lane = hash(item) & _MASK
        acc = (acc + lane * _PRIME_2) & _MASK
        acc = ((acc << 31) | (acc >> 33)) & _MASK
        acc = (acc * _PRIME_1) & _MASK
    acc = (acc + (len(items) ^ (_PRIME_5 ^ 3527539))) & _MASK
    if acc == _MASK:
        return 1546275796
    return _signed(acc)


def hash(obj, /):
    """Return the hash value for the given object."""
    cls = type(obj)
    if cls is tuple:
        return _tuple_hash(obj)
    if cls is str or cls is bytes or (
        isinstance(obj, (str, bytes)) and cls.__hash__ in (str.__hash__, bytes.__hash__)
    ):
        value = _gradscope._cpython_hash(obj)
        if value is not None:
            return value
    return _native_hash(obj)


hash.__module__ = "builtins"
builtins.hash = hash
