"""Activation modules."""

from .. import functional as F
from .module import Module

__all__ = ["ReLU", "GELU", "Tanh", "Sigmoid", "LeakyReLU", "Softmax", "LogSoftmax",
           "Softplus", "SiLU", "ELU", "SELU", "CELU", "Mish", "Hardtanh", "ReLU6", "LogSigmoid", "GLU",
           "Hardsigmoid", "Hardswish", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold",
           "PReLU", "Softmin", "Softmax2d"]


class _Pointwise(Module):
    """A module computing `F.<_fn>(input, *args)`, its arguments being the
    constructor's, kept as attributes named `_args` (in the functional's order).
    `extra_repr` prints the `_repr_args` attributes (`_args` other than
    `inplace` unless given) as `name=value` (bare values when not `_repr_named`),
    then `inplace=True` when `inplace` is set and `_repr_inplace`, as PyTorch
    prints each module."""

    _fn = None
    _args = ()
    _repr_args = None
    _repr_named = True
    _repr_inplace = True

    def __init__(self, *values):
        super().__init__()
        for name, value in zip(self._args, values):
            setattr(self, name, value)

    def forward(self, input):
        return getattr(F, self._fn)(input, *[getattr(self, name) for name in self._args])

    def extra_repr(self):
        names = self._repr_args
        if names is None:
            names = [name for name in self._args if name != "inplace"]
        if self._repr_named:
            parts = [f"{name}={getattr(self, name)}" for name in names]
        else:
            parts = [f"{getattr(self, name)}" for name in names]
        if self._repr_inplace and "inplace" in self._args and self.inplace:
            parts.append("inplace=True")
        return ", ".join(parts)


class ReLU(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "relu"
    _args = ("inplace",)

    def __init__(self, inplace=False):
        super().__init__(inplace)


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


class SiLU(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "silu"
    _args = ("inplace",)

    def __init__(self, inplace=False):
        super().__init__(inplace)


class ELU(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "elu"
    _args = ("alpha", "inplace")

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(alpha, inplace)


class LeakyReLU(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "leaky_relu"
    _args = ("negative_slope", "inplace")

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__(negative_slope, inplace)


class Softplus(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "softplus"
    _args = ("beta", "threshold")

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__(beta, threshold)


class Softmax(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "softmax"
    _args = ("dim",)

    def __init__(self, dim=None):
        super().__init__(dim)


class LogSoftmax(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "log_softmax"
    _args = ("dim",)

    def __init__(self, dim=None):
        super().__init__(dim)


class SELU(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "selu"
    _args = ("inplace",)

    def __init__(self, inplace=False):
        super().__init__(inplace)


class CELU(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "celu"
    _args = ("alpha", "inplace")

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(alpha, inplace)


class Mish(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "mish"
    _args = ("inplace",)
    _repr_inplace = False

    def __init__(self, inplace=False):
        super().__init__(inplace)


class Hardtanh(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "hardtanh"
    _args = ("min_val", "max_val", "inplace")

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__(min_val, max_val, inplace)
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")


class ReLU6(Hardtanh):
    __module__ = "torch.nn.modules.activation"
    _repr_args = ()

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)


class LogSigmoid(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return F.logsigmoid(input)


class GLU(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "glu"
    _args = ("dim",)

    def __init__(self, dim=-1):
        super().__init__(dim)


class Hardsigmoid(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "hardsigmoid"
    _args = ("inplace",)
    _repr_inplace = False

    def __init__(self, inplace=False):
        super().__init__(inplace)


class Hardswish(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "hardswish"
    _args = ("inplace",)
    _repr_inplace = False

    def __init__(self, inplace=False):
        super().__init__(inplace)


class Softsign(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        return F.tanhshrink(input)


class Softshrink(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "softshrink"
    _args = ("lambd",)
    _repr_named = False

    def __init__(self, lambd=0.5):
        super().__init__(lambd)


class Hardshrink(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "hardshrink"
    _args = ("lambd",)
    _repr_named = False

    def __init__(self, lambd=0.5):
        super().__init__(lambd)


class Threshold(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _fn = "threshold"
    _args = ("threshold", "value", "inplace")

    def __init__(self, threshold, value, inplace=False):
        super().__init__(threshold, value, inplace)


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


class Softmin(_Pointwise):
    __module__ = "torch.nn.modules.activation"
    _args = ("dim",)

    def __init__(self, dim=None):
        super().__init__(dim)

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    __module__ = "torch.nn.modules.activation"

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return input.softmax(-3)
