"""Array creation: `array`, `asarray`, `zeros`, `arange`, `linspace`, ..."""

from ._cpu import torch

from . import _dtype as _d
from ._dtype import bool_dtype, float64_dtype, int64_dtype, _as_dtype, promote
from ._ndarray import ndarray, _wrap, _convert

_Tensor = torch.Tensor


_STR = object()


def _leaf_dtype(x):
    if isinstance(x, str):
        return _STR
    strong = getattr(type(x), "_np_dtype", None)
    if strong is not None:
        return strong
    if isinstance(x, bool):
        return bool_dtype
    if isinstance(x, int):
        return int64_dtype
    if isinstance(x, float):
        return float64_dtype
    return None


def _flatten(obj, shape, depth, leaves, dts):
    """Leaves of nested sequences into `leaves`; checks the shape is regular."""
    if isinstance(obj, ndarray):
        sub = obj.shape
        _note_shape(shape, depth, sub)
        leaves.extend(obj._t.reshape(-1).tolist())
        dts.append(obj._dtype)
        return
    if isinstance(obj, _Tensor):
        arr = obj.__array__()
        _flatten(arr, shape, depth, leaves, dts)
        return
    if isinstance(obj, (list, tuple, range)):
        n = len(obj)
        if len(shape) <= depth:
            if len(shape) < depth:
                raise _inhomogeneous(shape, depth)
            shape.append(n)
        elif shape[depth] != n or shape[depth] is None:
            raise _inhomogeneous(shape, depth)
        if n and not isinstance(obj[0], (list, tuple, range, ndarray, _Tensor)):
            for x in obj:
                if isinstance(x, (list, tuple, ndarray, _Tensor)):
                    raise _inhomogeneous(shape, depth + 1)
                dt = _leaf_dtype(x)
                if dt is None:
                    if hasattr(x, "__float__"):
                        dt = float64_dtype
                        x = float(x)
                    else:
                        raise TypeError(f"gradscope's numpy cannot hold {type(x).__name__} values")
                dts.append(dt)
                leaves.append(x)
            if len(shape) > depth + 1:
                raise _inhomogeneous(shape, depth + 1)
            return
        for x in obj:
            _flatten(x, shape, depth + 1, leaves, dts)
        return
    if len(shape) != depth:
        raise _inhomogeneous(shape, depth)
    dt = _leaf_dtype(obj)
    if dt is None:
        raise TypeError(f"gradscope's numpy cannot hold {type(obj).__name__} values")
    dts.append(dt)
    leaves.append(obj)


def _note_shape(shape, depth, sub):
    want = shape[depth:]
    if not want:
        shape.extend(sub)
    elif tuple(want) != tuple(sub):
        raise _inhomogeneous(shape, depth)


def _inhomogeneous(shape, depth):
    dims = shape[:depth]
    detected = "(" + ", ".join(str(s) for s in dims) + ("," if len(dims) == 1 else "") + ")"
    return ValueError(
        "setting an array element with a sequence. The requested array has an inhomogeneous "
        f"shape after {depth} dimensions. The detected shape was {detected} + inhomogeneous part."
    )


def _result_of(dts):
    if not dts or _STR in dts:
        return float64_dtype
    out = dts[0]
    for dt in dts[1:]:
        if dt is not out:
            out = promote(out, dt)
    return out


def array(obj, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None):
    """`np.array`: a new array (a copy) of `obj`."""
    dt = None if dtype is None else _as_dtype(dtype)
    if isinstance(obj, ndarray):
        out = obj.astype(dt or obj._dtype, copy=copy)
    elif isinstance(obj, _Tensor):
        base = obj.__array__()
        out = base.astype(dt or base._dtype, copy=copy)
    elif hasattr(obj, "__array__") and not isinstance(obj, (list, tuple)) and not hasattr(type(obj), "_np_dtype"):
        base = obj.__array__()
        out = base.astype(dt or base._dtype)
    else:
        out = _from_python(obj, dt)
    while out.ndim < ndmin:
        out = _wrap(out._t.unsqueeze(0), out._dtype)
    return out


def _from_python(obj, dt):
    if isinstance(obj, range):
        obj = list(obj)
    shape, leaves, dts = [], [], []
    _flatten(obj, shape, 0, leaves, dts)
    if any(d is _STR for d in dts):
        from ._strings import from_strings

        if dt is not None and dt.kind != "U":
            return from_strings(leaves, shape).astype(dt)
        return from_strings(leaves, shape, dt.itemsize // 4 if dt is not None and dt.itemsize else None)
    src = _result_of(dts)
    target = dt or src
    t = torch.tensor(leaves, dtype=src._torch)
    t = t.reshape(tuple(shape))
    if target is not src:
        t = _convert(t, src, target)
    else:
        t = _d.fit(t, target)
    return _wrap(t, target)


def asarray(a, dtype=None, order=None, *, copy=None, like=None):
    """`np.asarray`: `a` itself when it already is an array of that dtype."""
    if isinstance(a, ndarray) and (dtype is None or _as_dtype(dtype) is a._dtype):
        return a
    if isinstance(a, _Tensor) and dtype is None:
        return a.__array__()
    return array(a, dtype=dtype, copy=bool(copy))


asanyarray = asarray


def ascontiguousarray(a, dtype=None):
    a = asarray(a, dtype)
    return a if a._t.is_contiguous() else a.copy()


def _shape(shape):
    if isinstance(shape, (tuple, list)):
        return tuple(int(s) for s in shape)
    return (int(shape),)


def _check_shape(shape):
    for s in shape:
        if s < 0:
            raise ValueError("negative dimensions are not allowed")


def zeros(shape, dtype=float, order="C", *, like=None):
    """`np.zeros`."""
    dt = _as_dtype(dtype)
    shape = _shape(shape)
    _check_shape(shape)
    return _wrap(torch.zeros(shape, dtype=dt._torch), dt)


def empty(shape, dtype=float, order="C", *, like=None):
    """`np.empty`: zeros here, as NumPy's memory would hold anything."""
    return zeros(shape, dtype)


def ones(shape, dtype=None, order="C", *, like=None):
    """`np.ones`."""
    dt = _as_dtype(dtype)
    shape = _shape(shape)
    _check_shape(shape)
    return _wrap(torch.ones(shape, dtype=dt._torch), dt)


def full(shape, fill_value, dtype=None, order="C", *, like=None):
    """`np.full`: the dtype of `fill_value` unless given."""
    if dtype is None:
        dt = asarray(fill_value)._dtype
    else:
        dt = _as_dtype(dtype)
    shape = _shape(shape)
    value = fill_value.item() if hasattr(fill_value, "item") else fill_value
    if isinstance(fill_value, ndarray) and fill_value.ndim:
        out = zeros(shape, dt)
        out[...] = fill_value
        return out
    if dt.kind == "i":
        value = int(value)
    return _wrap(torch.full(shape, value, dtype=dt._torch), dt)


def _like(maker):
    def like(a, dtype=None, order="K", subok=True, shape=None, **kwargs):
        a = asarray(a)
        dt = a._dtype if dtype is None else _as_dtype(dtype)
        return maker(a.shape if shape is None else shape, *kwargs.values(), dtype=dt)

    return like


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    a = asarray(a)
    dt = a._dtype if dtype is None else _as_dtype(dtype)
    return full(a.shape if shape is None else shape, fill_value, dtype=dt)


def arange(start=None, stop=None, step=None, dtype=None, *, like=None):
    """`np.arange`: start + i * delta, with delta = (start + step) - start as NumPy fills."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if step == 0:
        raise ZeroDivisionError("division by zero")
    values = (start, stop, step)
    is_float = any(isinstance(v, float) or getattr(type(v), "_np_dtype", _d.int64_dtype).kind == "f" for v in values)
    dt = _as_dtype(dtype) if dtype is not None else (float64_dtype if is_float else int64_dtype)
    import math

    n = max(int(math.ceil((stop - start) / step)), 0)
    if dt.kind == "f" or is_float:
        start_f = float(start)
        delta = (start_f + float(step)) - start_f
        t = torch.arange(n, dtype=torch.float64)
        if n > 1:
            t = t * delta + start_f
        elif n == 1:
            t = torch.full((1,), start_f, dtype=torch.float64)
        if n > 0:
            t[0] = start_f
        return _wrap(_convert(t, float64_dtype, dt), dt)
    t = torch.arange(int(start), int(start) + n * int(step), int(step), dtype=torch.int64)[:n] \
        if n else torch.zeros((0,), dtype=torch.int64)
    return _wrap(_convert(t, int64_dtype, dt), dt)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`np.linspace`: i * step + start, the last one `stop` exactly."""
    num = int(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    start_f, stop_f = float(start), float(stop)
    delta = stop_f - start_f
    y = torch.arange(num, dtype=torch.float64)
    if div > 0:
        step = delta / div
        if step == 0:
            y = (y / div) * delta
        else:
            y = y * step
    else:
        step = float("nan")
        y = y * delta
    y = y + start_f
    if endpoint and num > 1:
        y[-1] = stop_f
    dt = float64_dtype if dtype is None else _as_dtype(dtype)
    out = _wrap(_convert(y, float64_dtype, dt) if dt.kind == "f" else y.floor().to(torch.int64), dt)
    if retstep:
        return out, _d.float64(step)
    return out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`np.logspace`."""
    from ._ufuncs import power

    y = linspace(start, stop, num=num, endpoint=endpoint)
    out = power(float(base), y)
    return out if dtype is None else out.astype(dtype)


def eye(N, M=None, k=0, dtype=float, order="C", *, like=None):
    """`np.eye`."""
    dt = _as_dtype(dtype)
    M = N if M is None else M
    t = torch.zeros((N, M), dtype=dt._torch)
    for i in range(N):
        j = i + k
        if 0 <= j < M:
            t[i, j] = 1
    return _wrap(t, dt)


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=dtype)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """`np.meshgrid`."""
    arrays = [asarray(x).reshape(-1) for x in xi]
    n = len(arrays)
    shape = [a.size for a in arrays]
    if indexing == "xy" and n > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        view = [1] * n
        axis = i
        if indexing == "xy" and n > 1 and i < 2:
            axis = 1 - i
        view[axis] = a.size
        t = a._t.reshape(tuple(view))
        if not sparse:
            t = t.expand(tuple(shape))
            if copy:
                t = t.clone()
        out.append(_wrap(t, a._dtype))
    return tuple(out) if False else out


def copy(a, order="K"):
    return asarray(a).copy()


def frombuffer(*args, **kwargs):
    raise NotImplementedError("gradscope's numpy has no frombuffer")
