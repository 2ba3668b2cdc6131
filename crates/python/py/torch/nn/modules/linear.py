"""`nn.Linear`, `nn.Identity`."""

import math

import torch

from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear", "LazyLinear"]


class Identity(Module):
    __module__ = "torch.nn.modules.linear"

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    __module__ = "torch.nn.modules.linear"

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(Linear):
    """A `Linear` whose `in_features` is read from its first input; it
    becomes a `Linear` then, as PyTorch's lazy modules do."""

    __module__ = "torch.nn.modules.linear"
    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        from ..parameter import UninitializedParameter

        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self._lazy_hook = self.register_forward_pre_hook(LazyLinear._infer_parameters)

    def reset_parameters(self):
        if self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            self.in_features = self.weight.shape[1]
            return
        with torch.no_grad():
            self.in_features = input.shape[-1]
            self.weight = self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias = self.bias.materialize((self.out_features,))
            self.reset_parameters()

    def has_uninitialized_params(self):
        from ..parameter import UninitializedParameter

        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

    def _lazy_load_hook(self, state_dict, prefix):
        """Materializes the parameters in the checkpoint's shapes (the module
        stays lazy until its first call, as in PyTorch)."""
        from ..parameter import UninitializedParameter

        for name in ("weight", "bias"):
            param = self._parameters.get(name)
            key = prefix + name
            if isinstance(param, UninitializedParameter) and key in state_dict:
                self._parameters[name] = param.materialize(tuple(state_dict[key].shape))

    @staticmethod
    def _infer_parameters(module, args):
        module.initialize_parameters(*args)
        module._lazy_hook.remove()
        del module.__dict__["_lazy_hook"]
        module.__class__ = module.cls_to_become


class Bilinear(Module):
    __module__ = "torch.nn.modules.linear"

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in1_features, in2_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
