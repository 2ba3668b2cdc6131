"""`torch.nn.init`: PyTorch's initialisations, drawing from the generator
in PyTorch's order so that seeded weights are PyTorch's."""

import math

import _gradscope as _C

import torch
from torch._generator import drawing


def calculate_gain(nonlinearity, param=None):
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                  "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    elif nonlinearity == "tanh":
        return 5.0 / 3
    elif nonlinearity == "relu":
        return math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    elif nonlinearity == "selu":
        return 3.0 / 4
    else:
        raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    fan_in = num_input_fmaps * receptive_field_size
    fan_out = num_output_fmaps * receptive_field_size
    return fan_in, fan_out


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    with drawing(generator):
        return _C._uniform_(tensor, float(a), float(b))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    with drawing(generator):
        return _C._normal_(tensor, float(mean), float(std))


def constant_(tensor, val):
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    with torch.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    with torch.no_grad():
        return tensor.zero_()


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        import warnings  # on use: it costs every start

        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        import warnings  # on use: it costs every start

        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return normal_(tensor, 0, std, generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Normal values cut to [a, b], drawn as PyTorch 2.15 draws them: by
    redrawing those outside when most of the mass is inside, else by
    rejection sampling uniform proposals (the same draws, in order)."""
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device

    def cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        import warnings

        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be "
            "incorrect.",
            stacklevel=2,
        )
    with torch.no_grad():
        p = cdf((b - mean) / std) - cdf((a - mean) / std)
        if p > 0.3:
            lo = torch.tensor(float(a), dtype=tensor.dtype).item()
            hi = torch.tensor(float(b), dtype=tensor.dtype).item()
            result = normal_(tensor, mean, std, generator=generator)
            while True:
                outside = (result < lo).logical_or(result > hi)
                if not bool(outside.any()):
                    break
                redrawn = normal_(torch.empty(tuple(result.shape), dtype=result.dtype), mean, std,
                                  generator=generator)
                result = torch.where(outside, redrawn, result)
            if tensor is not result:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2

        def log_density(x):
            return ((x - mean) / std).pow(2) * -0.5 - log_peak

        uniform_(tensor, a, b, generator=generator)
        candidates = log_density(tensor)
        accept = torch.empty(tuple(tensor.shape), dtype=tensor.dtype)
        pending = uniform_(accept, generator=generator).log().gt(candidates)
        if bool(pending.any()):
            result = tensor.clone()
            proposals = torch.empty(tuple(tensor.shape), dtype=tensor.dtype)
            while True:
                uniform_(proposals, a, b, generator=generator)
                result = torch.where(pending, proposals, result)
                candidates = log_density(proposals)
                pending = torch.where(pending, uniform_(accept, generator=generator).log().gt(candidates), pending)
                if not bool(pending.any()):
                    break
            tensor.copy_(result)
        return tensor


def eye_(tensor):
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        tensor.copy_(torch.eye(tensor.shape[0], tensor.shape[1], dtype=tensor.dtype))
    return tensor


def dirac_(tensor, groups=1):
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tuple(tensor.shape)
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    min_dim = min(out_per_group, sizes[1])
    values = [0.0] * tensor.numel()
    strides = [1] * dims
    for d in range(dims - 2, -1, -1):
        strides[d] = strides[d + 1] * sizes[d + 1]
    for g in range(groups):
        for d in range(min_dim):
            index = [g * out_per_group + d, d] + [k // 2 for k in sizes[2:]]
            values[sum(i * s for i, s in zip(index, strides))] = 1.0
    with torch.no_grad():
        tensor.copy_(torch.tensor(values, dtype=tensor.dtype).reshape(sizes))
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix: the Q of normal draws' QR, its signs
    fixed by R's diagonal, as PyTorch makes it (the QR on the host)."""
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flattened = torch.empty(rows, cols, dtype=tensor.dtype)
    normal_(flattened, 0.0, 1.0, generator=generator)
    if rows < cols:
        flattened = flattened.t()
    a = flattened.detach().cpu().to(torch.float64).tolist()
    m, n = len(a), len(a[0])
    # Modified Gram-Schmidt: Q (m x n) with R's diagonal positive, the
    # unique QR that PyTorch's sign correction arrives at.
    columns = [[a[i][j] for i in range(m)] for j in range(n)]
    q = []
    for v in columns:
        v = list(v)
        for u in q:
            dot = sum(x * y for x, y in zip(u, v))
            v = [x - dot * y for x, y in zip(v, u)]
        norm = math.sqrt(sum(x * x for x in v))
        q.append([x / norm for x in v])
    matrix = torch.tensor([[q[j][i] for j in range(n)] for i in range(m)], dtype=tensor.dtype, device="cpu")
    matrix = matrix.to(tensor.device)
    if rows < cols:
        matrix = matrix.t()
    with torch.no_grad():
        tensor.view(rows, cols).copy_(matrix * gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Each column's `ceil(sparsity * rows)` randomly chosen rows zeroed,
    the rest normal draws, as PyTorch does."""
    if tensor._is_meta:
        return tensor  # no data to fill, and no draws, as on PyTorch's meta device
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        normal_(tensor, 0, std, generator=generator)
        zeroed = [[False] * cols for _ in range(rows)]
        for col_idx in range(cols):
            # (PyTorch draws these from the global generator.)
            for row in torch.randperm(rows)[:num_zeros].tolist():
                zeroed[row][col_idx] = True
        tensor.masked_fill_(torch.tensor(zeroed, dtype=torch.bool), 0.0)
    return tensor
