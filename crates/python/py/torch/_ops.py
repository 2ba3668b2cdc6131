"""`torch.ops`: the operator namespaces (`torch.ops.aten.add.Tensor`).

In PyTorch these are the dispatcher's operators. gradscope has no
dispatcher: an `aten` operator here is the `torch` function (or, where
there is none, the `Tensor` method) of the same name, and each of its
overloads (`.default`, `.Tensor`, `.Scalar`...) calls that same function,
whose own argument parsing picks the overload. So `func is
aten.detach.default` tests, and calls through `torch.ops.aten`, work as in
PyTorch. Operator registration (`torch.library`) and namespaces other than
`aten` are not here.
"""

import builtins as _builtins

import _gradscope as _C

# aten operators whose Python spelling differs from their name.
_RENAMED = {"_to_copy": "to", "tanh_backward": "_tanh_backward"}


def _resolve(name):
    import torch

    target = _RENAMED.get(name, name)
    if name.startswith("__") or name.endswith("_out"):
        return None
    fn = getattr(torch, target, None)
    if callable(fn) and not isinstance(fn, type):
        return fn
    method = getattr(torch.Tensor, target, None)
    if callable(method):
        return lambda self, *args, **kwargs: getattr(self, target)(*args, **kwargs)
    return None


class OpOverload:
    """One overload of an operator (`torch.ops.aten.add.Tensor`)."""

    __module__ = "torch._ops"

    def __init__(self, packet, overload):
        self._packet = packet
        self._overloadname = overload
        self.__name__ = f"{packet._name}.{overload}"
        self.__qualname__ = self.__name__

    @property
    def overloadpacket(self):
        return self._packet

    def name(self):
        return f"aten::{self._packet._name}" + ("" if self._overloadname == "default" else f".{self._overloadname}")

    def __call__(self, *args, **kwargs):
        return self._packet._fn(*args, **kwargs)

    def __repr__(self):
        return f"<OpOverload(op='aten.{self._packet._name}', overload='{self._overloadname}')>"

    def __str__(self):
        return f"aten.{self.__name__}"

    def __hash__(self):
        return hash((self._packet._name, self._overloadname))

    def __eq__(self, other):
        return isinstance(other, OpOverload) and (other._packet._name, other._overloadname) == (
            self._packet._name,
            self._overloadname,
        )


class OpOverloadPacket:
    """An operator with its overloads (`torch.ops.aten.add`); calling it
    calls the operator."""

    __module__ = "torch._ops"

    def __init__(self, name, fn):
        self._name = name
        self._fn = fn
        self._overloads = {}
        self.__name__ = name
        self.__qualname__ = name

    def __getattr__(self, overload):
        if overload.startswith("__"):
            raise AttributeError(overload)
        found = self._overloads.get(overload)
        if found is None:
            found = self._overloads[overload] = OpOverload(self, overload)
        return found

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def __repr__(self):
        return f"<OpOverloadPacket(op='aten.{self._name}')>"

    def __str__(self):
        return f"aten.{self._name}"


class _OpNamespace:
    """`torch.ops.aten`: its operators, made on first use and kept, so
    `aten.add.Tensor is aten.add.Tensor`."""

    __module__ = "torch._ops"

    def __init__(self, name):
        self.name = name
        self._packets = {}

    def __getattr__(self, op):
        if op.startswith("__"):
            raise AttributeError(op)
        packet = self._packets.get(op)
        if packet is None:
            fn = _resolve(op) if self.name == "aten" else None
            if fn is None:
                raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute '{op}'")
            packet = self._packets[op] = OpOverloadPacket(op, fn)
        return packet


class _Ops:
    """`torch.ops`: operator namespaces by name."""

    __module__ = "torch._ops"
    __name__ = "torch.ops"

    def __init__(self):
        self._namespaces = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        ns = self._namespaces.get(name)
        if ns is None:
            ns = self._namespaces[name] = _OpNamespace(name)
        return ns


ops = _Ops()
del _builtins, _C
