"""Activation modules."""

from .. import functional as F
from .module import Module

__all__ = ["ReLU", "GELU", "Tanh", "Sigmoid", "LeakyReLU", "Softmax", "LogSoftmax",
           "Softplus", "SiLU", "ELU"]


class ReLU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={repr(self.approximate)}"


class Tanh(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return input.tanh()


class Sigmoid(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return input.sigmoid()


class SiLU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ELU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace_str}"


class LeakyReLU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, inplace=self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace_str}"


class Softplus(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"
