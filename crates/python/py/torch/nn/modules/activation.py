"""Activation modules."""

from .. import functional as F
from .module import Module

__all__ = ["ReLU", "GELU", "Tanh", "Sigmoid", "LeakyReLU", "Softmax", "LogSoftmax",
           "Softplus", "SiLU", "ELU", "SELU", "CELU", "Mish", "Hardtanh", "ReLU6", "LogSigmoid", "GLU",
           "Hardsigmoid", "Hardswish", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold",
           "PReLU", "Softmin", "Softmax2d"]


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
        return F.silu(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ELU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

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


class SELU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class CELU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace_str}"


class Mish(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.mish(input, self.inplace)


class Hardtanh(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace_str}"


class ReLU6(Hardtanh):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return F.logsigmoid(input)


class GLU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Hardsigmoid(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Softsign(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return F.tanhshrink(input)


class Softshrink(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Threshold(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace_str}"


class PReLU(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        import torch
        from ..parameter import Parameter

        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(torch.full((num_parameters,), float(init), dtype=dtype or torch.float32))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Softmin(Module):
    __module__ = "torch.nn.modules.activation"

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return input.softmax(-3)
