"""`torch.nn.utils.spectral_norm` and `remove_spectral_norm` (PyTorch's
older API): the weight divided by its largest singular value, estimated
by power iteration on buffers `weight_u` and `weight_v` before each
training forward, with PyTorch's draws and order of operations."""

import torch

from .. import functional as F

__all__ = ["SpectralNorm", "spectral_norm", "remove_spectral_norm"]


class SpectralNorm:
    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.name = name
        self.dim = dim
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        matrix = weight
        if self.dim != 0:
            order = [self.dim] + [d for d in range(matrix.dim()) if d != self.dim]
            matrix = matrix.permute(*order)
        return matrix.reshape(matrix.shape[0], -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(weight_mat.t().mv(u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(weight_mat.mv(v), dim=0, eps=self.eps))
                u = u.clone()
                v = v.clone()
        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def remove(self, module):
        with torch.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        module.__dict__.pop(self.name, None)
        del module._buffers[self.name + "_u"]
        del module._buffers[self.name + "_v"]
        del module._parameters[self.name + "_orig"]
        module.register_parameter(self.name, torch.nn.Parameter(weight.detach()))

    def __call__(self, module, inputs):
        module.__dict__[self.name] = self.compute_weight(module, do_power_iteration=module.training)

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        with torch.no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            u = F.normalize(torch.empty(h, dtype=weight.dtype).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(torch.empty(w, dtype=weight.dtype).normal_(0, 1), dim=0, eps=fn.eps)
        del module._parameters[name]
        module.register_parameter(name + "_orig", weight)
        module.__dict__[name] = weight.detach()
        module.register_buffer(name + "_u", u)
        module.register_buffer(name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    if dim is None:
        transposed = type(module).__name__ in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")
        dim = 1 if transposed else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"spectral_norm of '{name}' not found in {module}")
