"""`conv1d`, `conv_transpose1d` and `conv_transpose2d` from the engine's
`conv2d`, each recorded as PyTorch's one `ConvolutionBackward0` node
(`_composite.recorded`: its backward differentiates the composition).

A 1-d convolution is a 2-d one over a height of 1. A transposed
convolution is a convolution of the input spread out by the stride (zeros
between its elements), padded by `dilation * (kernel - 1) - padding`,
with the kernel flipped and its in and out channels swapped."""

from torch import _composite



def _one(v):
    return int(v[0]) if isinstance(v, (tuple, list)) else int(v)


def _two(v):
    return tuple(int(a) for a in v) if isinstance(v, (tuple, list)) else (int(v), int(v))


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    from .functional import conv2d

    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: {list(input.shape)}"
        )
    if input.dim() == 2:
        # Unbatched: PyTorch adds the batch dim around its node.
        return conv1d(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups).squeeze(0)
    pad = padding if isinstance(padding, str) else (0, _one(padding))

    def fn(x, w, b):
        out = conv2d(x.unsqueeze(2), w.unsqueeze(2), b, (1, _one(stride)), pad, (1, _one(dilation)), groups)
        return out.squeeze(2)

    return _composite.recorded("ConvolutionBackward0", [input, weight, bias], fn, ("input", "weight", "bias"))


def _spread(x, dim, stride):
    """`x` with `stride - 1` zeros between its elements along `dim`."""
    from .functional import pad

    if stride == 1 or x.shape[dim] == 0:
        return x
    n = x.shape[dim]
    grown = x.unsqueeze(dim + 1)
    widths = [0, 0] * (x.dim() - dim - 1) + [0, stride - 1]
    grown = pad(grown, widths)
    shape = list(x.shape)
    shape[dim] = n * stride
    return grown.reshape(shape).narrow(dim, 0, (n - 1) * stride + 1)


def _transposed(x, w, b, stride, padding, output_padding, dilation, groups):
    """The transposed convolution of (N, C, H, W) `x` by `w` (C, O/g, kh, kw)."""
    from .functional import conv2d, pad

    for s, d, o in zip(stride, dilation, output_padding):
        if o >= s and o >= d:
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                               f"output_padding_height: {output_padding[0]} output_padding_width: "
                               f"{output_padding[1]} stride_height: {stride[0]} stride_width: {stride[1]} "
                               f"dilation_height: {dilation[0]} dilation_width: {dilation[1]}")
    kh, kw = w.shape[2], w.shape[3]
    spread = _spread(_spread(x, 2, stride[0]), 3, stride[1])
    edges = []
    for k, d, p, o in ((kw, dilation[1], padding[1], output_padding[1]),
                       (kh, dilation[0], padding[0], output_padding[0])):
        edge = d * (k - 1) - p
        edges += [edge, edge + o]
    spread = pad(spread, edges)
    c_in, c_out = w.shape[0], w.shape[1]
    kernel = w.reshape(groups, c_in // groups, c_out, kh, kw).transpose(1, 2)
    kernel = kernel.reshape(groups * c_out, c_in // groups, kh, kw).flip(2, 3)
    return conv2d(spread, kernel, b, 1, 0, dilation, groups)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    if input.dim() not in (3, 4):
        raise RuntimeError(
            "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: "
            f"{list(input.shape)}"
        )
    if input.dim() == 3:
        return conv_transpose2d(input.unsqueeze(0), weight, bias, stride, padding, output_padding, groups,
                                dilation).squeeze(0)
    args = (_two(stride), _two(padding), _two(output_padding), _two(dilation), int(groups))

    def fn(x, w, b):
        return _transposed(x, w, b, *args)

    return _composite.recorded("ConvolutionBackward0", [input, weight, bias], fn, ("input", "weight", "bias"))


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    if input.dim() not in (2, 3):
        raise RuntimeError(
            "Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d, but got input of size: "
            f"{list(input.shape)}"
        )
    if input.dim() == 2:
        return conv_transpose1d(input.unsqueeze(0), weight, bias, stride, padding, output_padding, groups,
                                dilation).squeeze(0)
    args = ((1, _one(stride)), (0, _one(padding)), (0, _one(output_padding)), (1, _one(dilation)), int(groups))

    def fn(x, w, b):
        return _transposed(x.unsqueeze(2), w.unsqueeze(2), b, *args).squeeze(2)

    return _composite.recorded("ConvolutionBackward0", [input, weight, bias], fn, ("input", "weight", "bias"))


__all__ = ["conv1d", "conv_transpose1d", "conv_transpose2d"]
