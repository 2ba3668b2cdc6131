"""`interpolate` (nearest, nearest-exact, linear, bilinear, bicubic) and
`pixel_shuffle`/`pixel_unshuffle`, each recorded as PyTorch's node
(`UpsampleBilinear2DBackward0`, `PixelShuffleBackward0`).

Resampling is separable: along each spatial dim the output is a gather of
the input (nearest) or a weighted sum of two gathers (linear), so the
forward is `index_select`s (four, weighted, for bicubic) and the backward,
its transpose, `index_add`s;
both are the engine's differentiable ops, so double backward works. The
source indices and weights are PyTorch's (`area_pixel_compute_source_index`
and `nearest_idx` in `UpSample.h`)."""

import math

import _gradscope as _C

from torch import _composite

_INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")
_NODES = {
    ("nearest", 1): "UpsampleNearest1DBackward0",
    ("nearest", 2): "UpsampleNearest2DBackward0",
    ("nearest-exact", 1): "UpsampleNearestExact1DBackward0",
    ("nearest-exact", 2): "UpsampleNearestExact2DBackward0",
    ("linear", 1): "UpsampleLinear1DBackward0",
    ("bilinear", 2): "UpsampleBilinear2DBackward0",
    ("bicubic", 2): "UpsampleBicubic2DBackward0",
}
_NEEDS = {"linear": 3, "bilinear": 4, "bicubic": 4}
# The cubic convolution's parameter in PyTorch's bicubic kernel.
_A = -0.75


def _cubic_weights(t):
    """The four taps' weights at fraction `t` past the second tap."""

    def near(x):
        return ((_A + 2) * x - (_A + 3)) * x * x + 1

    def far(x):
        return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A

    return [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]


def _output_sizes(input, size, scale_factor):
    spatial = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        sizes = list(size) if isinstance(size, (tuple, list)) else [size] * spatial
        if len(sizes) != spatial:
            raise ValueError(
                "Input and output must have the same number of spatial dimensions, but got input with "
                f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please provide "
                "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."
            )
        return [int(s) for s in sizes], [None] * spatial
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    scales = list(scale_factor) if isinstance(scale_factor, (tuple, list)) else [scale_factor] * spatial
    if len(scales) != spatial:
        raise ValueError(
            "Input and scale_factor must have the same number of spatial dimensions, but got input with "
            f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. "
            "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
            "(s1, s2, ...,sK) format."
        )
    sizes = [int(math.floor(float(n) * float(s))) for n, s in zip(input.shape[2:], scales)]
    return sizes, [float(s) for s in scales]


def _f32(v):
    """`v` rounded to float32, as PyTorch's kernels compute source indices."""
    return _C.tensor(v, dtype=_C.float32).item()


def _plan(mode, n_in, n_out, scale, align_corners):
    """Per output position along one dim: the source index (nearest), or
    two source indices and their weights (linear)."""
    if mode in ("nearest", "nearest-exact"):
        ratio = _f32(1.0 / scale) if scale else _f32(n_in / n_out)
        offset = 0.5 if mode == "nearest-exact" else 0.0
        return [min(int(math.floor(_f32((i + offset) * ratio))), n_in - 1) for i in range(n_out)]
    if align_corners:
        ratio = _f32((n_in - 1) / (n_out - 1)) if n_out > 1 else 0.0
    else:
        ratio = _f32(1.0 / scale) if scale else _f32(n_in / n_out)
    if mode == "bicubic":
        # Four taps around floor(src), clamped to the edges; src unclamped.
        taps, weights = [[], [], [], []], [[], [], [], []]
        for i in range(n_out):
            src = _f32(ratio * i) if align_corners else _f32(_f32(ratio * (i + 0.5)) - 0.5)
            i0 = math.floor(src)
            for k, w in enumerate(_cubic_weights(_f32(src - i0))):
                taps[k].append(min(max(i0 - 1 + k, 0), n_in - 1))
                weights[k].append(_f32(w))
        return taps, weights
    low, high, weights = [], [], []
    for i in range(n_out):
        src = _f32(ratio * i) if align_corners else max(_f32(_f32(ratio * (i + 0.5)) - 0.5), 0.0)
        i0 = int(src)
        low.append(i0)
        high.append(i0 + 1 if i0 < n_in - 1 else i0)
        weights.append(_f32(src - i0))
    return low, high, weights


def _index(values, device):
    return _C.tensor(values, dtype=_C.int64, device=device).reshape(len(values))


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode not in _INTERPOLATING and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"
        )
    if mode in _NEEDS and input.dim() != _NEEDS[mode]:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_NEEDS[mode]}D input")
    spatial = input.dim() - 2
    if mode == "area" and spatial == 2:
        # PyTorch's area mode is adaptive average pooling to the output size.
        from .functional import adaptive_avg_pool2d

        return adaptive_avg_pool2d(input, _output_sizes(input, size, scale_factor)[0])
    name = _NODES.get((mode, spatial))
    if name is None:
        raise NotImplementedError(
            f"gradscope's interpolate does {', '.join(sorted({m for m, _ in _NODES}))} for 3D or 4D input, "
            f"not {mode} for {input.dim()}D"
        )
    sizes, scales = _output_sizes(input, size, scale_factor)
    if recompute_scale_factor:
        scales = [None] * spatial
    linear = mode in ("linear", "bilinear")
    cubic = mode == "bicubic"
    plans = []
    for k in range(spatial):
        d = 2 + k
        plan = _plan(mode, input.shape[d], sizes[k], scales[k], bool(align_corners))
        shape = [1] * input.dim()
        shape[d] = sizes[k]
        if cubic:
            taps, ws = plan
            plans.append((d, [_index(t, input._device) for t in taps],
                          [_C.tensor(w, dtype=input.dtype, device=input._device).reshape(shape) for w in ws]))
        elif linear:
            low, high, w = plan
            weight = _C.tensor(w, dtype=input.dtype, device=input._device).reshape(shape)
            plans.append((d, _index(low, input._device), _index(high, input._device), weight))
        else:
            plans.append((d, _index(plan, input._device)))
    # The last dim first, as PyTorch's kernel sums each row's pair then the rows.
    plans.reverse()

    def forward():
        out = input
        for plan in plans:
            if cubic:
                d, taps, ws = plan
                terms = [out.index_select(d, t) * w for t, w in zip(taps, ws)]
                out = terms[0] + terms[1] + terms[2] + terms[3]
            elif linear:
                d, low, high, w = plan
                out = out.index_select(d, low) * (1 - w) + out.index_select(d, high) * w
            else:
                d, index = plan
                out = out.index_select(d, index)
        return out

    def backward(g):
        shapes = [tuple(input.shape)]
        for plan in plans[:-1]:
            shape = list(shapes[-1])
            shape[plan[0]] = g.shape[plan[0]]
            shapes.append(tuple(shape))
        for plan, shape in zip(reversed(plans), reversed(shapes)):
            zeros = _C.zeros(shape, dtype=g.dtype, device=g.device)
            if cubic:
                d, taps, ws = plan
                for t, w in zip(taps, ws):
                    zeros = zeros.index_add(d, t, g * w)
                g = zeros
            elif linear:
                d, low, high, w = plan
                g = zeros.index_add(d, low, g * (1 - w)).index_add(d, high, g * w)
            else:
                d, index = plan
                g = zeros.index_add(d, index, g)
        return g

    return _composite.node(name, input, forward, backward)


def _shuffled(x, r, name, up):
    """`pixel_shuffle` (`up`) or `pixel_unshuffle` of `x` by factor `r`."""
    if x.dim() < 3:
        raise RuntimeError(
            f"{name} expects input to have at least 3 dimensions, but got input with {x.dim()} dimension(s)"
        )
    *batch, c, h, w = x.shape
    if up:
        if c % (r * r):
            raise RuntimeError(
                f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
            )
        split = batch + [c // (r * r), r, r, h, w]
        order = (2, 5, 3, 6, 4)
        out = batch + [c // (r * r), h * r, w * r]
    else:
        for label, n, at in (("height", h, -2), ("width", w, -1)):
            if n % r:
                raise RuntimeError(
                    f"pixel_unshuffle expects {label} to be divisible by downscale_factor, but "
                    f"input.size({at})={n} is not divisible by {r}"
                )
        split = batch + [c, h // r, r, w // r, r]
        order = (2, 4, 6, 3, 5)
        out = batch + [c * r * r, h // r, w // r]
    lead = len(batch)
    perm = list(range(lead)) + [lead + o - 2 for o in order]
    inverse = (lambda g: pixel_unshuffle(g, r)) if up else (lambda g: pixel_shuffle(g, r))
    node = "PixelShuffleBackward0" if up else "PixelUnshuffleBackward0"
    return _composite.node(node, x, lambda: x.reshape(split).permute(*perm).reshape(out), inverse)


def pixel_shuffle(input, upscale_factor):
    return _shuffled(input, int(upscale_factor), "pixel_shuffle", True)


def pixel_unshuffle(input, downscale_factor):
    return _shuffled(input, int(downscale_factor), "pixel_unshuffle", False)


def _pair(v):
    return tuple(int(a) for a in v) if isinstance(v, (tuple, list)) else (int(v), int(v))


def _patches(size, kernel, dilation, padding, stride):
    """Where each patch element reads, as flat indices into the padded
    image (kernel position major, then patch position), and the patch
    grid's size."""
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = size, kernel, dilation, padding, stride
    hp, wp = h + 2 * ph, w + 2 * pw
    oh = (hp - dh * (kh - 1) - 1) // sh + 1
    ow = (wp - dw * (kw - 1) - 1) // sw + 1
    index = [(i * sh + ki * dh) * wp + (j * sw + kj * dw)
             for ki in range(kh) for kj in range(kw) for i in range(oh) for j in range(ow)]
    return index, (hp, wp), (oh, ow)


def _im2col(x, kernel, dilation, padding, stride):
    """`x` (N, C, H, W) as its patches (N, C * kh * kw, L)."""
    n, c, h, w = x.shape
    index, (hp, wp), (oh, ow) = _patches((h, w), kernel, dilation, padding, stride)
    at = _C.tensor(index, dtype=_C.int64, device=x._device).reshape(len(index))
    from .functional import pad

    padded = pad(x, (padding[1], padding[1], padding[0], padding[0])) if any(padding) else x
    return padded.reshape(n, c, hp * wp).index_select(2, at).reshape(n, c * kernel[0] * kernel[1], oh * ow)


def _col2im(cols, size, kernel, dilation, padding, stride):
    """The transpose of `_im2col`: patches (N, C * kh * kw, L) summed back
    into images (N, C, H, W)."""
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    index, (hp, wp), _ = _patches(size, kernel, dilation, padding, stride)
    at = _C.tensor(index, dtype=_C.int64, device=cols._device).reshape(len(index))
    zeros = _C.zeros((n, c, hp * wp), dtype=cols.dtype, device=cols._device)
    out = zeros.index_add(2, at, cols.reshape(n, c, len(index))).reshape(n, c, hp, wp)
    return out.narrow(2, padding[0], size[0]).narrow(3, padding[1], size[1])


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding patches of a (N, C, H, W) or (C, H, W) input, as PyTorch's
    Im2ColBackward0 node (whose backward is `fold`)."""
    if input.dim() < 3:
        # PyTorch reads the size of dim 1 first (and 2 for a 3-D input).
        d = input.dim()
        raise IndexError(f"Dimension out of range (expected to be in range of [{-d}, {d - 1}], but got {d})")
    if input.dim() > 4:
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions "
            f"for input, but got: {list(input.shape)}"
        )
    x = input if input.dim() == 4 else input.unsqueeze(0)
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    size = tuple(x.shape[2:])

    def backward(g):
        g = g if input.dim() == 4 else g.unsqueeze(0)
        out = fold(g, size, k, d, p, s)
        return out if input.dim() == 4 else out.squeeze(0)

    def forward():
        out = _im2col(x, k, d, p, s)
        return out if input.dim() == 4 else out.squeeze(0)

    return _composite.node("Im2ColBackward0", input, forward, backward)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Patches (N, C * kh * kw, L) summed back into (N, C, H, W) images, as
    PyTorch's Col2ImBackward0 node (whose backward is `unfold`)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
            f"dimensions for input, but got: {list(input.shape)}"
        )
    cols = input if input.dim() == 3 else input.unsqueeze(0)
    size, k, d, p, s = _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    if cols.shape[1] % (k[0] * k[1]):
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
            f"input.size(1)={cols.shape[1]} and kernel_size=({k[0]}, {k[1]})."
        )
    _, _, (oh, ow) = _patches(size, k, d, p, s)
    if cols.shape[2] != oh * ow:
        raise RuntimeError(
            f"Given output_size=({size[0]}, {size[1]}), kernel_size=({k[0]}, {k[1]}), dilation=({d[0]}, {d[1]}), "
            f"padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), expected size of input's dimension 2 to match "
            f"the calculated number of sliding blocks {oh} * {ow} = {oh * ow}, but got input.size(2)={cols.shape[2]}."
        )

    def forward():
        out = _col2im(cols, size, k, d, p, s)
        return out if input.dim() == 3 else out.squeeze(0)

    def backward(g):
        return unfold(g, k, d, p, s)

    return _composite.node("Col2ImBackward0", input, forward, backward)
