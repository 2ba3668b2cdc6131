"""What pyplot accepts as data: lists, tuples, ranges, NumPy arrays and
CPU tensors, read through `tolist()` as matplotlib reads them through
`np.asarray`. A tensor that requires grad raises PyTorch's error, as
`Tensor.__array__` does under real matplotlib."""

import sys

_GRAD_ERROR = ("Can't call numpy() on Tensor that requires grad. "
               "Use tensor.detach().numpy() instead.")


def _is_tensor(x):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def _tensor_list(t):
    if t.requires_grad:
        raise RuntimeError(_GRAD_ERROR)
    device = str(t.device)
    if device != "cpu":
        raise TypeError(f"can't convert {device} device type tensor to numpy. "
                        "Use Tensor.cpu() to copy the tensor to host memory first.")
    return t.tolist()


def tolist(x):
    """`x` as nested Python lists of numbers (or strings), or a scalar."""
    if _is_tensor(x):
        return _tensor_list(x)
    if isinstance(x, (int, float, str, bool)) or x is None:
        return x
    if isinstance(x, (list, tuple, range)):
        return [tolist(v) for v in x]
    if hasattr(x, "tolist"):
        return x.tolist()
    if hasattr(x, "__array__"):
        return x.__array__().tolist()
    if hasattr(x, "__float__") and not hasattr(x, "__iter__"):
        return float(x)
    if isinstance(x, dict):
        return [tolist(v) for v in x.values()]
    return [tolist(v) for v in x]


def _num(v):
    if v is None:
        return float("nan")
    if isinstance(v, str):
        raise ValueError(f"could not convert string to float: {v!r}")
    return float(v)


def flat(x):
    """`x` as a flat list of floats."""
    x = tolist(x)
    if not isinstance(x, list):
        return [_num(x)]
    out = []
    stack = [x]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        else:
            out.append(_num(v))
    return out


def values(x):
    """A 1-D sequence as a list of floats, or of strings for categories."""
    x = tolist(x)
    if not isinstance(x, list):
        x = [x]
    if x and all(isinstance(v, str) for v in x):
        return list(x)
    return flat(x)


def columns(x):
    """A 1-D or 2-D array as its columns: 1-D gives one column."""
    x = tolist(x)
    if not isinstance(x, list):
        return [[_num(x)]]
    if x and isinstance(x[0], list):
        ncols = len(x[0])
        return [[_num(row[j]) for row in x] for j in range(ncols)]
    if x and all(isinstance(v, str) for v in x):
        return [x]
    return [[_num(v) for v in x]]


def grid(x):
    """A 2-D array (or 3-D of RGB(A) pixels) as nested lists."""
    x = tolist(x)
    if not isinstance(x, list) or not x or not isinstance(x[0], list):
        raise TypeError(f"Invalid shape ({_shape(x)},) for image data")
    return x


def _shape(x):
    return len(x) if isinstance(x, list) else ""


def is_scalar(x):
    return isinstance(x, (int, float)) or (_is_tensor(x) and x.dim() == 0)
