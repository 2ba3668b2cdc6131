"""`nn.Parameter`: a tensor that a module registers as a parameter."""

import _gradscope as _C

import torch


class _ParameterMeta(type):
    """`isinstance(t, Parameter)` also holds for a tensor of a class that
    takes over its ops, made a parameter (`_is_param`), as in PyTorch."""

    def __instancecheck__(self, instance):
        # Only a class routed through its own ops can carry the flag.
        if self is Parameter and type(instance) in torch._python_dispatch._routed_classes:
            return bool(instance.__dict__.get("_is_param", False)) or super().__instancecheck__(instance)
        return super().__instancecheck__(instance)


class Parameter(torch.Tensor, metaclass=_ParameterMeta):
    __module__ = "torch.nn.parameter"

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        if type(data) in torch._python_dispatch._routed_classes:
            # A wrapper (or a class with its own __torch_function__) stays
            # its class: its own detach(), flagged as a parameter.
            t = data.detach().requires_grad_(requires_grad)
            if type(t) is not type(data):
                raise RuntimeError(
                    f"Creating a Parameter from an instance of type {type(data).__name__} requires that "
                    f"detach() returns an instance of the same type, but return type {type(t).__name__} was "
                    "found instead. To use the type as a Parameter, please correct the detach() semantics "
                    "defined by its __torch_dispatch__() implementation."
                )
            t._is_param = True
            return t
        param = torch.Tensor._make_subclass(cls, data, requires_grad)
        # The memory view counts a parameter's bytes as parameters.
        _C._set_memory_role(param, "parameter")
        return param

    def __init__(self, data=None, requires_grad=True):
        pass

    # Parameters take no part in `__torch_function__`: ops on them give
    # plain tensors, as in PyTorch.
    __torch_function__ = _C._disabled_torch_function_impl

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        data = torch._meta.empty(self.shape, self.dtype) if self._is_meta else self.detach().clone()
        result = type(self)(data, self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, proto):
        raise NotImplementedError("gradscope cannot pickle parameters")


class UninitializedParameter(Parameter):
    """A parameter of a lazy module before its first call: no shape yet.
    `materialize(shape)` gives the `Parameter` it becomes (gradscope makes
    a new one; PyTorch turns this object into it)."""

    __module__ = "torch.nn.parameter"
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return super().__new__(cls, torch.empty(0, device=device, dtype=dtype), requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass

    def __repr__(self):
        return "<UninitializedParameter>"

    def materialize(self, shape, device=None, dtype=None):
        data = torch.empty(shape, device=device or self.device, dtype=dtype or self.dtype)
        return Parameter(data, self.requires_grad)


class UninitializedBuffer(torch.Tensor):
    __module__ = "torch.nn.parameter"


def is_lazy(param):
    return isinstance(param, UninitializedParameter)


class Buffer:
    """`nn.Buffer(data, persistent=True)`: marks a tensor assigned to a module
    as a buffer."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = torch.empty(0)
        data.__dict__["_is_buffer"] = True
        data.__dict__["_persistent"] = persistent
        return data
