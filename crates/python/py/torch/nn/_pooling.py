"""1-d pooling (2-d pooling over a height of 1, then squeezed, as PyTorch
does it) and adaptive max pooling, recorded as PyTorch's
`AdaptiveMaxPool2DBackward0` with the indices of the maxima."""

import _gradscope as _C

from torch import _composite


def _one(v):
    return int(v[0]) if isinstance(v, (tuple, list)) else int(v)


def _as_2d(name, input, pool):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"{name}() Expected 2D or 3D input tensor, but got {list(input.shape)}")
    return pool(input.unsqueeze(-2)).squeeze(-2)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    from .functional import max_pool2d

    k = _one(kernel_size)
    s = k if stride is None or stride == [] else _one(stride)
    return _as_2d("max_pool1d", input, lambda x: max_pool2d(x, (1, k), (1, s), (0, _one(padding)),
                                                             (1, _one(dilation)), ceil_mode, return_indices))


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    from .functional import avg_pool2d

    k = _one(kernel_size)
    s = k if stride is None or stride == [] else _one(stride)
    return _as_2d("avg_pool1d", input, lambda x: avg_pool2d(x, (1, k), (1, s), (0, _one(padding)), ceil_mode,
                                                             count_include_pad))


def adaptive_avg_pool1d(input, output_size):
    from .functional import adaptive_avg_pool2d

    return _as_2d("adaptive_avg_pool1d", input, lambda x: adaptive_avg_pool2d(x, (1, _one(output_size))))


def _windows(n_in, n_out):
    return [((i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)) for i in range(n_out)]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The largest value of each adaptive window (the first, on ties) and,
    with `return_indices`, its flat position in the input's plane."""
    if input.dim() not in (3, 4):
        raise RuntimeError(
            f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}"
        )
    sizes = list(output_size) if isinstance(output_size, (tuple, list)) else [output_size] * 2
    h, w = input.shape[-2], input.shape[-1]
    out_h = h if sizes[0] is None else int(sizes[0])
    out_w = w if sizes[1] is None else int(sizes[1])
    lead = tuple(input.shape[:-2])
    plane = input.detach().reshape(-1, h * w)
    found = []
    for hs, he in _windows(h, out_h):
        for ws, we in _windows(w, out_w):
            flat = _C.tensor([r * w + c for r in range(hs, he) for c in range(ws, we)], dtype=_C.int64,
                             device=input._device).reshape(-1)
            # argmax of each window, as a position in the whole plane.
            found.append(flat.index_select(0, plane.index_select(1, flat).argmax(1)))
    index = _C.stack(found, 1).reshape(lead + (out_h, out_w))

    def forward():
        picked = input.reshape(lead + (h * w,)).gather(-1, index.reshape(lead + (out_h * out_w,)))
        return picked.reshape(lead + (out_h, out_w))

    def backward(g, i):
        zeros = _C.zeros(lead + (h * w,), dtype=g.dtype, device=g.device)
        spread = zeros.scatter_add(-1, i.reshape(lead + (out_h * out_w,)), g.reshape(lead + (out_h * out_w,)))
        return spread.reshape(lead + (h, w))

    values = _composite.node("AdaptiveMaxPool2DBackward0", input, forward, backward, (index,), ("indices",))
    return (values, index) if return_indices else values


def adaptive_max_pool1d(input, output_size, return_indices=False):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_max_pool1d() Expected 2D or 3D input tensor, but got {list(input.shape)}")
    out = adaptive_max_pool2d(input.unsqueeze(-2), (1, _one(output_size)), return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)
