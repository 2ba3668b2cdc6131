"""`torch.nn.functional`: PyTorch's argument handling over the engine's ops
(`_gradscope._linear`, `_conv2d`, ...), each recorded as PyTorch's node."""

import math

import _gradscope as _C

import torch
from torch import _composite, _meta

__all__ = [
    "relu", "relu_", "gelu", "tanh", "sigmoid", "silu", "elu", "leaky_relu", "leaky_relu_",
    "softplus", "selu", "celu", "logsigmoid", "hardtanh", "relu6", "hardsigmoid", "hardswish", "mish",
    "softsign", "tanhshrink", "softshrink", "hardshrink", "threshold", "glu", "prelu",
    "pairwise_distance", "cosine_similarity", "softmin", "interpolate", "pixel_shuffle", "pixel_unshuffle",
    "unfold", "fold", "conv1d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "avg_pool1d",
    "adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d", "dropout1d", "dropout2d",
    "group_norm", "instance_norm", "rms_norm", "local_response_norm", "embedding_bag", "bilinear",
    "alpha_dropout", "pdist", "cosine_embedding_loss", "gaussian_nll_loss",
    "hinge_embedding_loss", "margin_ranking_loss", "multi_margin_loss", "multilabel_soft_margin_loss",
    "poisson_nll_loss", "soft_margin_loss", "triplet_margin_loss",
    "softmax", "log_softmax", "linear", "conv2d", "max_pool2d", "avg_pool2d",
    "adaptive_avg_pool2d", "dropout",
    "layer_norm", "batch_norm", "embedding", "mse_loss", "l1_loss", "cross_entropy",
    "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "one_hot", "pad",
    "normalize", "scaled_dot_product_attention", "multi_head_attention_forward",
]


def _ints(v):
    """An int or a sequence of ints as a list, as the native ops take them."""
    if v is None:
        return []
    if isinstance(v, (tuple, list)):
        return [int(x) for x in v]
    return [int(v)]


def _reduction(size_average, reduce, reduction):
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        return "mean"
    if reduce:
        return "sum"
    return "none"


# Activations ------------------------------------------------------------


def relu(input, inplace=False):
    if input._is_meta:
        return input if inplace else _meta.unary("ReluBackward0", input)
    if inplace:
        return relu_(input)
    return input.relu()


def relu_(input):
    return input.relu_()


def gelu(input, approximate="none"):
    return _C._gelu(input, approximate)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def _in_place(input, name, f):
    """`f(input)` written back into `input` (PyTorch's `inplace=True`)."""
    return _C._inplace_with(input, name, f)


def silu(input, inplace=False):
    if inplace:
        return _in_place(input, "silu_", silu)
    # silu_backward: grad * sigmoid(x) * (1 + x * (1 - sigmoid(x))).
    def backward(g, x):
        s = x.sigmoid()
        return [g * (s * (1 + x * (1 - s)))]

    return _composite.op("SiluBackward0", [input], lambda: input * input.sigmoid(), backward, ("self",))


def _elu(input, alpha, scale, input_scale, name):
    """PyTorch's `elu` kernel, shared by `elu`, `selu` and `celu`:
    `scale * x` above zero, `scale * alpha * (exp(x * input_scale) - 1)`
    below, recorded as `name` with elu_backward's formula."""

    def forward():
        return torch.where(input > 0, input * scale, ((input * input_scale).exp() - 1) * (alpha * scale))

    def backward(g, x):
        below = g * (x * input_scale).exp() * (input_scale * alpha * scale)
        return [torch.where(x > 0, g * scale, below)]

    return _composite.op(name, [input], forward, backward, ("self",))


def elu(input, alpha=1.0, inplace=False):
    # In place, PyTorch's node is the overload that keeps the result.
    if inplace:
        return _in_place(input, "elu_", lambda t: _elu(t, alpha, 1.0, 1.0, "EluBackward1"))
    return _elu(input, alpha, 1.0, 1.0, "EluBackward0")


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    if inplace:
        return _in_place(input, "selu_", lambda t: _elu(t, _SELU_ALPHA, _SELU_SCALE, 1.0, "EluBackward1"))
    return _elu(input, _SELU_ALPHA, _SELU_SCALE, 1.0, "EluBackward0")


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    if inplace:
        return _in_place(input, "celu_", lambda t: _elu(t, alpha, 1.0, 1.0 / alpha, "CeluBackward1"))
    return _elu(input, alpha, 1.0, 1.0 / alpha, "CeluBackward0")


def logsigmoid(input):
    # log_sigmoid_backward: grad * sigmoid(-x), computed stably.
    return _composite.op("LogSigmoidBackward0", [input], lambda: -_C._softplus(-input, 1.0, 20.0),
                         lambda g, x: [g * (-x).sigmoid()], ("self",))


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _in_place(input, "hardtanh_", lambda t: hardtanh(t, min_val, max_val))

    def backward(g, x):
        # hardtanh_backward: the gradient passes strictly inside the bounds.
        inside = (x > min_val).logical_and(x < max_val)
        return [g.masked_fill(inside.logical_not(), 0)]

    def forward():
        out = input.clamp(min_val, max_val)
        # An integer input stays integer, as in PyTorch.
        return out if input.is_floating_point() else out.to(input.dtype)

    return _composite.op("HardtanhBackward0", [input], forward, backward, ("self",))


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def hardsigmoid(input, inplace=False):
    if inplace:
        return _in_place(input, "hardsigmoid_", hardsigmoid)
    def backward(g, x):
        inside = (x > -3.0).logical_and(x < 3.0)
        return [(g / 6).masked_fill(inside.logical_not(), 0)]

    return _composite.op("HardsigmoidBackward0", [input], lambda: (input + 3).clamp(0, 6) / 6, backward,
                         ("self",))


def hardswish(input, inplace=False):
    if inplace:
        return _in_place(input, "hardswish_", hardswish)
    def backward(g, x):
        # hardswish_backward: 0 up to -3, x / 3 + 1/2 strictly between, 1 from 3.
        middle = g * (x / 3 + 0.5)
        return [torch.where(x < 3.0, middle, g).masked_fill(x <= -3.0, 0)]

    return _composite.op("HardswishBackward0", [input], lambda: input * (input + 3).clamp(0, 6) / 6, backward,
                         ("self",))


def mish(input, inplace=False):
    if inplace:
        return _in_place(input, "mish_", mish)
    def backward(g, x):
        # mish_backward: tanh(softplus(x)) + x * sigmoid(x) * (1 - tanh(softplus(x))^2).
        t = _C._softplus(x, 1.0, 20.0).tanh()
        return [g * (t + x * x.sigmoid() * (1 - t * t))]

    return _composite.op("MishBackward0", [input], lambda: input * _C._softplus(input, 1.0, 20.0).tanh(),
                         backward, ("self",))


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    if lambd < 0:
        # The bounds and the value as C++ prints doubles (%g).
        limit, name = ("1.79769e+308", "Double") if input.dtype == torch.float64 else ("3.40282e+38", "Float")
        raise RuntimeError(
            f"lambda must be in range [0, {limit}] for input dtype {name}, but found {lambd:g}"
        )

    def forward():
        zero = input * 0
        return torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, zero))

    def backward(g, x):
        return [g.masked_fill((x >= -lambd).logical_and(x <= lambd), 0)]

    return _composite.op("SoftshrinkBackward0", [input], forward, backward, ("self",))


def hardshrink(input, lambd=0.5):
    def kept(x):
        return (x >= -lambd).logical_and(x <= lambd).logical_not()

    return _composite.op("HardshrinkBackward0", [input], lambda: input.masked_fill(kept(input).logical_not(), 0),
                         lambda g, x: [g.masked_fill(kept(x).logical_not(), 0)], ("self",))


def threshold(input, threshold, value, inplace=False):
    if inplace:
        name = "ThresholdBackward1"
        return _in_place(input, "threshold_", lambda t: _threshold(t, threshold, value, name))
    return _threshold(input, threshold, value, "ThresholdBackward0")


def _threshold(input, threshold, value, name):
    return _composite.op(name, [input], lambda: input.masked_fill(input <= threshold, value),
                         lambda g, x: [g.masked_fill(x <= threshold, 0)], ("self",))


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    size = input.shape[dim]
    if size % 2:
        d = dim % input.dim()
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {size}")
    half = size // 2

    def backward(g, x):
        a, b = x.narrow(dim, 0, half), x.narrow(dim, half, half)
        s = b.sigmoid()
        return [torch.cat([g * s, g * a * s * (1 - s)], dim)]

    return _composite.op("GluBackward0", [input],
                         lambda: input.narrow(dim, 0, half) * input.narrow(dim, half, half).sigmoid(),
                         backward, ("self",))


def prelu(input, weight):
    """`x` above zero, `weight * x` below, one weight per channel (dim 1)."""
    channels = weight.numel()
    if channels != 1 and (input.dim() < 2 or input.shape[1] != channels):
        found = input.shape[1] if input.dim() >= 2 else 1
        raise RuntimeError(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
            f"{channels} and channel size = {found}."
        )
    shape = [1] * input.dim()
    if channels != 1:
        shape[1] = channels

    def spread(w):
        return w.reshape(shape) if input.dim() else w.reshape(())

    def backward(g, x, w):
        below = x <= 0
        grad_x = torch.where(below, g * spread(w), g)
        per_element = (g * x).masked_fill(below.logical_not(), 0)
        dims = [d for d in range(x.dim()) if channels == 1 or d != 1]
        grad_w = per_element.sum(dims) if dims else per_element
        return [grad_x, grad_w.reshape(tuple(w.shape))]

    return _composite.op("PreluKernelBackward0", [input, weight],
                         lambda: torch.where(input > 0, input, input * spread(weight)), backward,
                         ("self", "other"))


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if inplace:
        return _C._leaky_relu_(input, float(negative_slope))
    return _C._leaky_relu(input, float(negative_slope))


def leaky_relu_(input, negative_slope=0.01):
    return _C._leaky_relu_(input, float(negative_slope))


def softplus(input, beta=1.0, threshold=20.0):
    return _C._softplus(input, float(beta), float(threshold))


def _get_softmax_dim(name, ndim, stacklevel):
    import warnings  # on use: it costs every start

    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. "
        "Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return input.softmax(dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return input.log_softmax(dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return (-input).softmax(dim)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = input.norm(p, dim, keepdim=True).clamp(min=eps).expand_as(input)
    return input / denom


# Layers -----------------------------------------------------------------


def linear(input, weight, bias=None):
    if _meta.any_meta(input, weight, bias):
        return _meta.linear(input, weight, bias)
    return _C._linear(input, weight, bias)


def bilinear(input1, input2, weight, bias=None):
    """`x1^T W x2 + b` for each pair of rows, as a product of matrices then
    a view (PyTorch's last node without a bias)."""
    lead = tuple(input1.shape[:-1])
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    out_features, in1, in2 = weight.shape
    mixed = x1.matmul(weight.transpose(0, 1).reshape(in1, out_features * in2)).reshape(-1, out_features, in2)
    out = mixed.bmm(x2.unsqueeze(-1)).reshape(lead + (out_features,))
    return out if bias is None else out + bias


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            kernel = weight.shape[2:]
            dil = _ints(dilation) * (2 if not isinstance(dilation, (tuple, list)) else 1)
            total = [d * (k - 1) for d, k in zip(dil, kernel)]
            if any(t % 2 for t in total):
                raise NotImplementedError("gradscope supports padding='same' for odd kernels only")
            padding = [t // 2 for t in total]
        else:
            raise ValueError(f"Invalid padding string '{padding}'")
    if _meta.any_meta(input, weight, bias):
        return _meta.conv(input, weight, bias, stride, padding, dilation, groups)
    return _C._conv2d(input, weight, bias, _ints(stride), _ints(padding), _ints(dilation), int(groups))


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    if return_indices:
        raise NotImplementedError("gradscope's max_pool2d does not return indices yet")
    if input._is_meta:
        return _meta.pool("max", input, kernel_size, stride, padding, dilation, ceil_mode)
    return _C._max_pool2d(input, _ints(kernel_size), _ints(stride), _ints(padding),
                          _ints(dilation), bool(ceil_mode))


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    if input._is_meta:
        return _meta.pool("avg", input, kernel_size, stride, padding, 1, ceil_mode)
    return _C._avg_pool2d(input, _ints(kernel_size), _ints(stride), _ints(padding),
                          bool(ceil_mode), bool(count_include_pad), divisor_override)


def adaptive_avg_pool2d(input, output_size):
    size = _ints(output_size)
    if len(size) == 1:
        size = size * 2
    in_h, in_w = input.shape[-2], input.shape[-1]
    out_h = in_h if size[0] is None else size[0]
    out_w = in_w if size[1] is None else size[1]
    # Window i covers [floor(i * in / out), ceil((i + 1) * in / out)): as
    # matrices of 1/count, the pooling is P_h @ x @ P_w^T.
    def windows(n_in, n_out):
        rows = []
        for i in range(n_out):
            start, end = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
            rows.append([1.0 / (end - start) if start <= j < end else 0.0 for j in range(n_in)])
        return torch.tensor(rows, dtype=input.dtype, device=input._device).reshape(n_out, n_in)

    p_h, p_w = windows(in_h, out_h), windows(in_w, out_w)

    def forward():
        if in_h % out_h or in_w % out_w:
            return p_h.matmul(input).matmul(p_w.t())
        # Where the windows tile the input, PyTorch's sums: an average pool.
        kernel = [in_h // out_h, in_w // out_w]
        return avg_pool2d(input, kernel, kernel)

    return _composite.node("AdaptiveAvgPool2DBackward0", input, forward,
                           lambda g: p_h.t().matmul(g).matmul(p_w))


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    out = _C._dropout(input, float(p), bool(training))
    if inplace and out is not input:
        return input.copy_(out)
    return out


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout that keeps SELU's mean and variance: dropped values become
    SELU's negative saturation, then all are scaled and shifted back
    (PyTorch's formula over the same noise as `dropout`)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return input * torch.zeros((), dtype=input.dtype, device=input._device)
    ones = torch.ones(tuple(input.shape), dtype=input.dtype, device=input._device)
    noise = (_C._dropout(ones, float(p), True) != 0).to(input.dtype)
    alpha = 1.7580993408473766
    a = 1.0 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    b = (noise - 1) * (alpha * a) + alpha * a * p
    out = input * (noise * a) + b
    return input.copy_(out) if inplace else out


def _feature_dropout(input, p, training, inplace):
    """Whole channels zeroed: one draw per (batch, channel), as PyTorch's
    feature dropout draws its noise of shape (N, C, 1, ...)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    shape = list(input.shape[:2]) + [1] * (input.dim() - 2)
    noise = _C._dropout(torch.ones(shape, dtype=input.dtype, device=input._device), float(p), True)
    return input.mul_(noise) if inplace else input * noise


def _unbatched_dropout(input, p, training, inplace):
    """Feature dropout of an input without its batch dim, as PyTorch adds
    one and takes it away."""
    out = _feature_dropout(input.unsqueeze(0), p, training, False)
    out = out if out.dim() == input.dim() else out.squeeze(0)
    return input.copy_(out) if inplace and out is not input else out


def dropout1d(input, p=0.5, training=True, inplace=False):
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that dropout1d "
            "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
            "and an optional batch dimension (i.e. 2D or 3D inputs)."
        )
    if input.dim() == 3:
        return _feature_dropout(input, p, training, inplace)
    return _unbatched_dropout(input, p, training, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    import warnings

    if input.dim() not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated and will result "
            "in an error in a future release. To retain the behavior and silence this warning, please use "
            "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
            "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
            stacklevel=2,
        )
    if input.dim() == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
            "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
            "will change in a future release to interpret the input as one without a batch dimension, i.e. "
            "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
            "dropout1d instead.",
            stacklevel=2,
        )
    # PyTorch's feature dropout whatever the rank: a 2-D input's noise is
    # (N, C), one draw per element.
    return _feature_dropout(input, p, training, inplace)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return _C._layer_norm(input, _ints(normalized_shape), weight, bias, float(eps))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    return _C._batch_norm(input, running_mean, running_var, weight, bias,
                          bool(training), float(momentum), float(eps))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    return _C._embedding(input, weight, padding_idx)


def one_hot(tensor, num_classes=-1):
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        num_classes = int(tensor.max()) + 1 if tensor.numel() > 0 else 0
    if tensor.numel() > 0 and int(tensor.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if tensor.numel() > 0 and int(tensor.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    # PyTorch allocates the result first: its size errors name its shape.
    _C._check_new_buffer(tensor, list(tensor.shape) + [num_classes])
    return (tensor.unsqueeze(-1) == torch.arange(num_classes)).long()


def pad(input, pad, mode="constant", value=None):
    """PyTorch's `F.pad`: `constant` (negative sizes crop), or `reflect`,
    `replicate` and `circular` of the last 1 to 3 dims, each recorded as
    PyTorch's node (`ConstantPadNdBackward0`, `ReflectionPad2DBackward0`)."""
    pad = [int(p) for p in pad]
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension "
                           f"but got padding length {len(pad)} and input of dimension {input.dim()}")
    if mode == "constant":
        return _constant_pad(input, pad, 0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    count = len(pad) // 2
    if count not in (1, 2, 3) or input.dim() not in (count + 1, count + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    return _index_pad(input, pad, mode)


def _constant_pad(input, pad, value):
    def forward():
        out = input
        for i in range(len(pad) // 2):
            dim = input.dim() - 1 - i
            before, after = pad[2 * i], pad[2 * i + 1]
            if before < 0:
                out = out.narrow(dim, -before, out.shape[dim] + before)
                before = 0
            if after < 0:
                out = out.narrow(dim, 0, out.shape[dim] + after)
                after = 0
            parts = []
            for n in (before, after):
                shape = list(out.shape)
                shape[dim] = n
                parts.append(torch.full(shape, value, dtype=out.dtype, device=out._device))
            out = torch.cat([parts[0], out, parts[1]], dim)
        return out if out is not input else input.clone()

    # constant_pad_nd's backward: the gradient padded by the opposite sizes.
    return _composite.op("ConstantPadNdBackward0", [input], forward,
                         lambda g: [_constant_pad(g, [-p for p in pad], 0)])


def _index_pad(input, pad, mode):
    """Reflect, replicate or circular padding as a gather along each padded
    dim (the backward, its transpose: index_adds)."""
    plans = []
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        n, before, after = input.shape[dim], pad[2 * i], pad[2 * i + 1]
        if mode == "reflect" and (before >= n or after >= n):
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                f"padding ({before}, {after}) at dimension {dim} of input {list(input.shape)}"
            )
        if mode == "circular" and (before > n or after > n):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        index = []
        for j in range(-before, n + after):
            if mode == "reflect":
                index.append(-j if j < 0 else (2 * (n - 1) - j if j >= n else j))
            elif mode == "replicate":
                index.append(min(max(j, 0), n - 1))
            else:
                index.append(j % n)
        plans.append((dim, torch.tensor(index, dtype=torch.int64, device=input._device).reshape(len(index))))

    def forward():
        out = input
        for dim, index in plans:
            out = out.index_select(dim, index)
        return out

    def backward(g):
        for dim, index in reversed(plans):
            shape = list(g.shape)
            shape[dim] = input.shape[dim]
            g = torch.zeros(shape, dtype=g.dtype, device=g.device).index_add(dim, index, g)
        return g

    count = len(pad) // 2
    # PyTorch's circular padding is a copy into slices, whose node is CopySlices.
    name = {"reflect": f"ReflectionPad{count}DBackward0", "replicate": f"ReplicationPad{count}DBackward0",
            "circular": "CopySlices"}[mode]
    return _composite.node(name, input, forward, backward)


# Losses -----------------------------------------------------------------


def _broadcast_pair(input, target):
    if tuple(input.shape) == tuple(target.shape):
        return input, target
    import warnings  # on use: it costs every start

    warnings.warn(
        f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
        "This will likely lead to incorrect results due to broadcasting. "
        "Please ensure they have the same size.",
        stacklevel=3,
    )
    return torch.broadcast_tensors(input, target)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    input, target = _broadcast_pair(input, target)
    return _C._mse_loss(input, target, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    input, target = _broadcast_pair(input, target)
    loss = (input - target).abs()
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _C._nll_loss(input, target, weight, int(ignore_index), reduction, 0.0, False)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    reduction = _reduction(size_average, reduce, reduction)
    return _C._nll_loss(input, target, weight, int(ignore_index), reduction,
                        float(label_smoothing), True)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) is deprecated. "
            "Please ensure they have the same size."
        )
    return _C._binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    if not (target.size() == input.size()):
        raise ValueError(
            f"Target size ({target.size()}) must be the same as input size ({input.size()})"
        )
    return _C._binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    reduction = _reduction(size_average, reduce, reduction)
    input, target = _broadcast_pair(input, target)
    diff = (input - target).abs()
    if beta == 0:
        return _reduce(diff, reduction)
    loss = torch.where(diff < beta, diff * 0.5 * diff / beta, diff - 0.5 * beta)
    return _reduce(loss, reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    input, target = _broadcast_pair(input, target)
    diff = (input - target).abs()
    loss = torch.where(diff < delta, diff * 0.5 * diff, (diff - 0.5 * delta) * delta)
    return _reduce(loss, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    reduction = _reduction(size_average, reduce, reduction)
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = torch.where(target > 0, target * (target.log() - input), target * 0)
    if reduction == "batchmean":
        return loss.sum() / input.size(0)
    return _reduce(loss, reduction)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # As PyTorch: each side over its norm (at least eps), then the sum.
    n1 = x1.norm(2, dim, keepdim=True).clamp(min=eps)
    n2 = x2.norm(2, dim, keepdim=True).clamp(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    from torch._shape import _norm_backward

    dim = max(x1.dim(), x2.dim(), 1) - 1
    diff = x1 - x2 + eps
    p = float(p)

    def backward(g, d):
        # PyTorch's at::norm (NormBackward1), not linalg's.
        r = d.norm(p, dim, True)
        if not keepdim:
            g = g.unsqueeze(dim)
        if p == float("inf"):
            at_max = (d.abs() == r).to(d.dtype)
            return [g * d.sign() * at_max / at_max.sum(dim, keepdim=True)]
        return [_norm_backward(g, d, p, r)]

    return _composite.op("NormBackward1", [diff], lambda: diff.norm(p, dim, keepdim), backward, ("self",))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn = query @ key.transpose(-2, -1) * scale_factor
    if is_causal:
        causal = torch.arange(L).unsqueeze(1) >= torch.arange(S).unsqueeze(0)
        attn = attn.masked_fill(causal.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn = attn.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn = attn + attn_mask
    attn = attn.softmax(-1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return attn @ value


def multi_head_attention_forward(query, key, value, num_heads, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 dropout_p=0.0, average_attn_weights=True, is_causal=False):
    """PyTorch's slow path (`need_weights=True`), which programs take by default."""
    is_batched = query.dim() == 3
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    head_dim = embed_dim // num_heads
    w_q, w_k, w_v = in_proj_weight.chunk(3)
    b_q, b_k, b_v = in_proj_bias.chunk(3) if in_proj_bias is not None else (None, None, None)
    q = linear(query, w_q, b_q)
    k = linear(key, w_k, b_k)
    v = linear(value, w_v, b_v)
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.reshape(src_len, bsz * num_heads, head_dim).transpose(0, 1)
    v = v.reshape(src_len, bsz * num_heads, head_dim).transpose(0, 1)
    mask = None
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            mask = torch.zeros(tuple(attn_mask.shape)).masked_fill(attn_mask, float("-inf"))
        else:
            mask = attn_mask
        if mask.dim() == 2:
            mask = mask.unsqueeze(0)
    if key_padding_mask is not None:
        pad = torch.zeros(tuple(key_padding_mask.shape)).masked_fill(key_padding_mask, float("-inf"))
        pad = pad.reshape(bsz, 1, 1, src_len).expand(bsz, num_heads, 1, src_len)
        pad = pad.reshape(bsz * num_heads, 1, src_len)
        mask = pad if mask is None else mask + pad
    q_scaled = q * math.sqrt(1.0 / float(head_dim))
    weights = q_scaled.bmm(k.transpose(-2, -1))
    if mask is not None:
        weights = weights + mask
    weights = weights.softmax(-1)
    if dropout_p > 0.0 and training:
        weights = dropout(weights, dropout_p, True)
    out = weights.bmm(v)
    out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.reshape(tgt_len, bsz, out.size(1))
    if not need_weights:
        return (out if is_batched else out.squeeze(1)), None
    weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.mean(dim=1)
    if not is_batched:
        out = out.squeeze(1)
        weights = weights.squeeze(0)
    return out, weights


from ._resample import fold, interpolate, pixel_shuffle, pixel_unshuffle, unfold  # noqa: E402
from ._convolution import conv1d, conv_transpose1d, conv_transpose2d  # noqa: E402
from ._normalization import group_norm, instance_norm, local_response_norm, rms_norm  # noqa: E402
from ._embedding_bag import embedding_bag  # noqa: E402
from torch._products import pdist  # noqa: E402
from ._losses import (cosine_embedding_loss, gaussian_nll_loss, hinge_embedding_loss,  # noqa: E402
                      margin_ranking_loss, multi_margin_loss, multilabel_soft_margin_loss, poisson_nll_loss,
                      soft_margin_loss, triplet_margin_loss)
from ._pooling import (adaptive_avg_pool1d, adaptive_max_pool1d, adaptive_max_pool2d, avg_pool1d,  # noqa: E402
                       max_pool1d)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    return interpolate(input, size, scale_factor, mode, align_corners)
