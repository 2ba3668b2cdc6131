"""`nn.Conv1d`, `nn.ConvTranspose1d` and `nn.ConvTranspose2d`, with
`nn.Conv2d`'s initialisation and repr (PyTorch's `_ConvNd`)."""

import torch

from .. import functional as F
from ..parameter import Parameter
from .conv import Conv2d

__all__ = ["Conv1d", "ConvTranspose1d", "ConvTranspose2d"]


def _tuple(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


class _ConvNd(Conv2d):
    """Conv2d's checks, parameters and repr for `dims` spatial dims, the
    weight (out, in / groups, *kernel), or (in, out / groups, *kernel)
    when `transposed`."""

    dims = 2
    transposed_kind = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        torch.nn.Module.__init__(self)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise NotImplementedError(f"gradscope's {type(self).__name__} supports padding_mode='zeros' only")
        n = self.dims
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _tuple(kernel_size, n)
        self.stride = _tuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, n)
        self.dilation = _tuple(dilation, n)
        self.transposed = self.transposed_kind
        self.output_padding = _tuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        shape = ((in_channels, out_channels // groups) if self.transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        self.weight = Parameter(torch.empty(shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()


class Conv1d(_ConvNd):
    __module__ = "torch.nn.modules.conv"
    dims = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, 0, groups, bias, dilation,
                         padding_mode, device, dtype)

    def forward(self, input):
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class _ConvTransposeNd(_ConvNd):
    transposed_kind = True

    def _output_padding(self, input, output_size):
        """The output padding that gives `output_size` (PyTorch's
        `_ConvTransposeNd._output_padding`), else the module's."""
        if output_size is None:
            return self.output_padding
        n = self.dims
        size = list(output_size)
        if len(size) == n + 2 or len(size) == n + 1:
            size = size[-n:]
        if len(size) != n:
            raise ValueError(
                f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or {n + 2} elements "
                f"(got {len(output_size)})"
            )
        smallest, largest = [], []
        for d in range(n):
            length = input.shape[input.dim() - n + d]
            low = ((length - 1) * self.stride[d] - 2 * self.padding[d]
                   + self.dilation[d] * (self.kernel_size[d] - 1) + 1)
            smallest.append(low)
            largest.append(low + self.stride[d] - 1)
        for d in range(n):
            if not smallest[d] <= size[d] <= largest[d]:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from {smallest} to "
                    f"{largest} (for an input of {input.shape[input.dim() - n:]})"
                )
        return tuple(s - low for s, low in zip(size, smallest))


class ConvTranspose1d(_ConvTransposeNd):
    __module__ = "torch.nn.modules.conv"
    dims = 1

    def forward(self, input, output_size=None):
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    __module__ = "torch.nn.modules.conv"

    def forward(self, input, output_size=None):
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)
