"""The `torch` that `numpy`'s modules make tensors with: the real module, but
its factories make CPU tensors whatever the default device is, since NumPy's
arrays live in host memory (`gradscope run --device webgpu` and the page's
GPU runs make tensors on the GPU by default, where float64 cannot live)."""

import torch as _torch

_FACTORIES = ("tensor", "as_tensor", "zeros", "ones", "full", "empty", "arange", "linspace", "logspace",
              "eye", "rand", "randn", "randint", "randperm")


class _CpuTorch:
    def __getattr__(self, name):
        value = getattr(_torch, name)
        if name in _FACTORIES:
            make = value

            def value(*args, **kwargs):
                if kwargs.get("device") is None:
                    kwargs["device"] = "cpu"
                return make(*args, **kwargs)

            value.__name__ = name
        # Kept on the instance: the next lookup is a plain attribute.
        setattr(self, name, value)
        return value


torch = _CpuTorch()
