"""Padding modules: `ZeroPad2d`, `ConstantPad1d`, `ReflectionPad2d`,
`ReplicationPad2d`, `CircularPad2d` and their 1-d and 3-d forms."""

from .. import functional as F
from .module import Module

__all__ = []


def _sizes(padding, n):
    """An int padding as `2 * n` equal sizes, a sequence as a tuple."""
    if isinstance(padding, int):
        return (padding,) * (2 * n)
    return tuple(padding)


class _Pad(Module):
    __module__ = "torch.nn.modules.padding"
    mode = "constant"

    def __init__(self, padding, value=None):
        super().__init__()
        self.padding = _sizes(padding, self.dims)
        if value is not None:
            self.value = value

    def forward(self, input):
        if self.mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPad(_Pad):
    def __init__(self, padding, value):
        super().__init__(padding, value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPad(_ConstantPad):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


def _define(base, family, mode=None):
    for dims in (1, 2, 3):
        name = f"{family}{dims}d"
        attrs = {"dims": dims, "__module__": "torch.nn.modules.padding", "__qualname__": name}
        if mode is not None:
            attrs["mode"] = mode
        globals()[name] = type(name, (base,), attrs)
        __all__.append(name)


_define(_ConstantPad, "ConstantPad")
_define(_ZeroPad, "ZeroPad")
_define(_Pad, "ReflectionPad", "reflect")
_define(_Pad, "ReplicationPad", "replicate")
_define(_Pad, "CircularPad", "circular")
