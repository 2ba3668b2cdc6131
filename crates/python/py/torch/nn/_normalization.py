"""`group_norm`, `instance_norm` and `rms_norm`, composed of the engine's
ops as PyTorch composes them: group norm recorded as its one
`NativeGroupNormBackward0` node, instance norm as a batch norm over the
instances (so its result is a view, `ViewBackward0`), RMS norm as its
products."""

import torch
from torch import _composite


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.dim()}"
        )
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}"
        )
    shape = [1, c] + [1] * (input.dim() - 2)

    def fn(x, w, b):
        groups = x.reshape(n, num_groups, -1)
        mean = groups.mean(-1, keepdim=True)
        rstd = (groups.var(-1, unbiased=False, keepdim=True) + eps).rsqrt()
        out = ((groups - mean) * rstd).reshape(tuple(x.shape))
        if w is not None:
            out = out * w.reshape(shape)
        if b is not None:
            out = out + b.reshape(shape)
        return out

    return _composite.recorded("NativeGroupNormBackward0", [input, weight, bias], fn,
                               ("input", "weight", "bias"))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    from .functional import batch_norm

    if running_mean is not None or running_var is not None or not use_input_stats:
        raise NotImplementedError("gradscope's instance_norm does not track running statistics yet")
    n, c = input.shape[0], input.shape[1]
    if input.dim() > 2 and input[0, 0].numel() == 1:
        raise ValueError(
            f"Expected more than 1 spatial element when training, got input size {list(input.shape)}"
        )
    folded = input.reshape((1, n * c) + tuple(input.shape[2:]))
    w = None if weight is None else weight.repeat(n)
    b = None if bias is None else bias.repeat(n)
    return batch_norm(folded, None, None, w, b, True, momentum, eps).view(tuple(input.shape))


def rms_norm(input, normalized_shape, weight=None, eps=None):
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape [*, "
            f"{', '.join(str(s) for s in shape)}], but got input of size{list(input.shape)}"
        )
    if eps is None:
        eps = 1.1920928955078125e-07 if input.dtype == torch.float32 else 2.220446049250313e-16
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    out = input * (input.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    return out if weight is None else out * weight


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Each value over a power of the mean square of its `size` neighbouring
    channels, composed as PyTorch's `functional.py` composes it."""
    from .functional import avg_pool2d, pad

    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = tuple(input.shape)
        # PyTorch's avg_pool3d over (size, 1, 1) is a 2-d pool over the flattened rest.
        div = div.reshape(sizes[0], 1, sizes[1], -1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
        div = div.reshape(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div
