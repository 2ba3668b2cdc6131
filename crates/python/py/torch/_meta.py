"""The meta device (`device='meta'`): tensors with a shape, a dtype and
strides but no data, on which ops compute only the shape of their result.

A meta tensor is an engine tensor over a meta storage: one element that no
memory view counts, read by every element through strides of 0, so views
(`view`, `reshape`, `flatten`, `t`, `unsqueeze`, indexing by slices) are the
engine's own and stay on it. Ops that compute go through the shape rules
here (`conv2d`, `linear`, pooling, `relu`, ...), each making a new meta
tensor and, where a gradient is wanted, an autograd node of PyTorch's name
(`ConvolutionBackward0`) whose backward gives meta gradients. Factories
honour `device='meta'` and `with torch.device('meta')`; initialisations
(`nn.init`) leave meta tensors as they are and draw nothing, as PyTorch's do.
Reading values (`item()`, `tolist()`, a copy to the CPU) is refused with
PyTorch's errors.
"""

import _gradscope as _C

import torch

_NOT_META = object()


def is_meta(t):
    return isinstance(t, torch.Tensor) and t._is_meta


def any_meta(*values):
    return any(isinstance(v, torch.Tensor) and v._is_meta for v in values)


def empty(shape, dtype=None, requires_grad=False):
    """A meta tensor of `shape` (contiguous strides reported, see `stride`)."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    if getattr(dtype, "refuse", None) is not None:
        dtype.refuse()
    shape = tuple(int(s) for s in shape)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    out = _C.TensorBase._meta(list(shape), dtype)
    return out.requires_grad_() if requires_grad else out


def contiguous_strides(shape):
    strides, step = [], 1
    for s in reversed(tuple(shape)):
        strides.append(step)
        step *= max(int(s), 1)
    return tuple(reversed(strides))


def is_default_device_meta():
    return torch.get_default_device().type == "meta"


def wants_meta(device):
    """Whether a factory's `device=` (or, without one, the default device)
    is the meta device."""
    if device is None:
        return is_default_device_meta()
    if isinstance(device, torch.device):
        return device.type == "meta"
    return isinstance(device, str) and device.split(":")[0] == "meta"


def repr_of(t):
    """PyTorch's repr of a meta tensor, suffixes wrapped as its printer
    wraps them (at 80 columns)."""
    suffixes = ["device='meta'", f"size={tuple(t.shape)}"]
    if t.dtype != torch.get_default_dtype():
        suffixes.append(f"dtype={t.dtype}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    # PyTorch counts the first line from `tensor(` plus two.
    text = "..."
    last_line = len("tensor(" + text) + 2
    parts = [text]
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > 80:
            parts.append(",\n" + " " * 7 + suffix)
            last_line = 7 + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    return "tensor(" + "".join(parts) + ")"


def no_data(what):
    raise RuntimeError(f"Tensor.{what}() cannot be called on meta tensors")


def _op(node, inputs, shape, dtype):
    """A meta result of `shape`: with an autograd node named `node` (whose
    backward gives meta gradients of the inputs' shapes) when a tensor input
    requires grad and grad mode is on."""
    out = empty(shape, dtype)
    tensors = [i for i in inputs if isinstance(i, torch.Tensor)]
    if not (torch.is_grad_enabled() and any(i.requires_grad for i in tensors)):
        return out

    def forward(needs):
        return out, [], False

    def backward(saved, grad):
        return [empty(i.shape, i.dtype) for i in tensors]

    return _C._apply_function(node, tensors, forward, backward, True)


def _pair(v, n=2):
    if isinstance(v, (tuple, list)):
        return [int(x) for x in v]
    return [int(v)] * n


def _window(size, kernel, stride, padding, dilation, ceil_mode=False):
    span = dilation * (kernel - 1) + 1
    top = size + 2 * padding - span
    if ceil_mode:
        out = -(-top // stride) + 1
        if (out - 1) * stride >= size + padding:
            out -= 1
        return out
    return top // stride + 1


def conv(input, weight, bias, stride, padding, dilation, groups):
    """`conv1d/2d/3d`'s shape: batch, out channels, each spatial size."""
    spatial = weight.dim() - 2
    batched = input.dim() == spatial + 2
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(
            f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to conv{spatial}d, "
            f"but got input of size: {list(input.shape)}"
        )
    channels = input.shape[1] if batched else input.shape[0]
    if channels != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input{list(input.shape)} to have "
            f"{weight.shape[1] * groups} channels, but got {channels} channels instead"
        )
    stride, padding, dilation = _pair(stride, spatial), _pair(padding, spatial), _pair(dilation, spatial)
    sizes = input.shape[-spatial:]
    out = [_window(s, k, st, p, d) for s, k, st, p, d in zip(sizes, weight.shape[2:], stride, padding, dilation)]
    shape = ([input.shape[0]] if batched else []) + [weight.shape[0]] + out
    return _op("ConvolutionBackward0", [input, weight, bias], shape, input.dtype)


def pool(name, input, kernel_size, stride, padding, dilation, ceil_mode):
    """`max_pool2d`/`avg_pool2d`'s shape: the last two dimensions windowed."""
    kernel = _pair(kernel_size)
    stride = kernel if stride is None or stride == [] or stride == () else _pair(stride)
    padding, dilation = _pair(padding), _pair(dilation)
    sizes = input.shape[-2:]
    out = [_window(s, k, st, p, d, ceil_mode) for s, k, st, p, d in zip(sizes, kernel, stride, padding, dilation)]
    node = "MaxPool2DWithIndicesBackward0" if name == "max" else "AvgPool2DBackward0"
    return _op(node, [input], list(input.shape[:-2]) + out, input.dtype)


def linear(input, weight, bias):
    """`F.linear`'s shape: the last dimension becomes `out_features`."""
    if input.shape[-1] != weight.shape[-1]:
        rows = 1
        for s in input.shape[:-1]:
            rows *= s
        raise RuntimeError(
            f"a and b must have same reduction dim, but got [{rows}, {input.shape[-1]}] X "
            f"[{weight.shape[-1]}, {weight.shape[0] if weight.dim() > 1 else 1}]."
        )
    shape = list(input.shape[:-1]) + ([weight.shape[0]] if weight.dim() > 1 else [])
    # The nodes of PyTorch's meta decomposition of linear.
    if input.dim() == 2:
        node = "AddmmBackward0" if bias is not None else "MmBackward0"
    elif input.dim() == 1 and bias is None:
        node = "SqueezeBackward4"
    else:
        node = "UnsafeViewBackward0"
    return _op(node, [input, weight, bias], shape, input.dtype)


def unary(node, input):
    """An elementwise op's shape: its input's."""
    return _op(node, [input], input.shape, input.dtype)


def to_meta(t):
    """`t.to('meta')`: a meta tensor of `t`'s shape and dtype, the copy
    differentiable (`ToCopyBackward0`) as PyTorch's is."""
    if t._is_meta:
        return t
    return _op("ToCopyBackward0", [t], t.shape, t.dtype)


# Operators on meta tensors (`x + 1`, `x @ w`, `x > 0`, `-x`, `x += y`): the
# engine's number slots send them here when an operand is meta.

# name: (node when the left operand is the tensor, node when only the right is;
# with a tensor exponent, `pow`'s own node).
_BINARY_NODES = {
    "add": ("AddBackward0", "AddBackward0"),
    "sub": ("SubBackward0", "RsubBackward1"),
    "mul": ("MulBackward0", "MulBackward0"),
    "div": ("DivBackward0", "MulBackward0"),
    "pow": ("PowBackward0", "PowBackward2"),
}
_COMPARISONS = ("lt", "le", "eq", "ne", "gt", "ge", "logical_and", "logical_or", "logical_xor")


def _probe(value):
    """A one-element stand-in of a tensor operand of the same rank and dtype
    (so promotion sees the same dimensioned/0-dim/number kinds)."""
    if isinstance(value, torch.Tensor):
        # The engine's factory on the CPU, whatever the default device (the
        # GPU holds no float64 probe).
        return _C.zeros([1] * value.dim(), dtype=value.dtype, device="cpu")
    return value


def _result_dtype(name, a, b):
    import operator

    f = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
         "pow": operator.pow, "lt": operator.lt, "le": operator.le, "eq": operator.eq, "ne": operator.ne,
         "gt": operator.gt, "ge": operator.ge}.get(name)
    if f is None:
        return torch.bool
    with torch.no_grad():
        return f(_probe(a), _probe(b)).dtype


def _broadcast(a, b):
    shapes = [tuple(v.shape) for v in (a, b) if isinstance(v, torch.Tensor)]
    if len(shapes) == 1:
        return shapes[0]
    (x, y) = shapes
    out = []
    for i in range(1, max(len(x), len(y)) + 1):
        p = x[-i] if i <= len(x) else 1
        q = y[-i] if i <= len(y) else 1
        if p != q and p != 1 and q != 1:
            first = x if p != 1 and len(x) >= len(y) else y
            other = y if first is x else x
            raise RuntimeError(
                f"Attempting to broadcast a dimension of length {other[-i] if i <= len(other) else 1} at -{i}! "
                f"Mismatching argument at index 1 had torch.Size({list(y)}); but expected shape should be "
                f"broadcastable to {list(x)}"
            )
        out.append(p if q == 1 else q)
    return tuple(reversed(out))


def _matmul(a, b):
    if a.dim() == 0 or b.dim() == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.dim()}D and {b.dim()}D"
        )
    inner_a = a.shape[-1]
    inner_b = b.shape[0] if b.dim() == 1 else b.shape[-2]
    if inner_a != inner_b:
        raise RuntimeError(
            f"a and b must have same reduction dim, but got [{1 if a.dim() == 1 else a.shape[-2]}, {inner_a}] X "
            f"[{inner_b}, {1 if b.dim() == 1 else b.shape[-1]}]."
        )
    if a.dim() <= 2 and b.dim() <= 2:
        shape = ([a.shape[0]] if a.dim() == 2 else []) + ([b.shape[1]] if b.dim() == 2 else [])
        node = "MmBackward0" if a.dim() == 2 and b.dim() == 2 else (
            "DotBackward0" if a.dim() == 1 and b.dim() == 1 else
            "MvBackward0" if b.dim() == 1 else "SqueezeBackward4")
        return shape, node
    batch = _broadcast(torch.Size(a.shape[:-2]) if a.dim() > 2 else (), torch.Size(b.shape[:-2]) if b.dim() > 2
                       else ()) if a.dim() > 2 and b.dim() > 2 else (a.shape[:-2] if a.dim() > 2 else b.shape[:-2])
    shape = list(batch) + ([a.shape[-2]] if a.dim() > 1 else []) + ([b.shape[-1]] if b.dim() > 1 else [])
    return shape, "UnsafeViewBackward0" if b.dim() > 1 else "ViewBackward0"


def binary(name, a, b):
    """`a <op> b` with a meta operand: the broadcast shape, the promoted
    dtype, PyTorch's node."""
    reflected = not isinstance(a, torch.Tensor)
    if name == "matmul":
        shape, node = _matmul(a, b)
        return _op(node, [a, b], shape, a.dtype)
    shape = _broadcast(a, b)
    dtype = _result_dtype(name, a, b)
    if name in _COMPARISONS:
        return empty(shape, torch.bool)
    nodes = _BINARY_NODES[name]
    if name == "pow" and not reflected and isinstance(b, torch.Tensor):
        node = "PowBackward1"
    else:
        node = nodes[1] if reflected else nodes[0]
    if not dtype.is_floating_point:
        return empty(shape, dtype)
    return _op(node, [a, b], shape, dtype)


def inplace(name, a, b):
    """`a <op>= b` on a meta tensor: `a` itself once the shapes agree."""
    shape = _broadcast(a, b)
    if tuple(shape) != tuple(a.shape):
        raise RuntimeError(f"output with shape {a.shape} doesn't match the broadcast shape {tuple(shape)}")
    return a


def negative(a):
    return unary("NegBackward0", a)


def absolute(a):
    return unary("AbsBackward0", a)


def logical_not(a):
    return empty(a.shape, torch.bool)


def to_dtype(t, dtype):
    """`t.to(dtype)`, `t.long()`: differentiable (`ToCopyBackward0`) into a
    floating dtype, as PyTorch's copy is."""
    if dtype == t.dtype:
        return t
    if dtype.is_floating_point:
        return _op("ToCopyBackward0", [t], t.shape, dtype)
    return empty(t.shape, dtype)
