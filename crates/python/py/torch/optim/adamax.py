"""`torch.optim.Adamax`, PyTorch's single-tensor update."""

import torch

from .optimizer import Optimizer, _check_adam_args, _weight_decay

__all__ = ["Adamax"]


class Adamax(Optimizer):
    __module__ = "torch.optim.adamax"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        beta1, beta2 = group["betas"]
        lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
        for p, grad, state in self._stepped(group, "exp_avg", "exp_inf"):
            grad = _weight_decay(p, grad, lr, wd)
            exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
            exp_avg.copy_(exp_avg + (grad - exp_avg) * (1 - beta1))
            exp_inf.copy_(torch.maximum(exp_inf * beta2, grad.abs() + eps))
            clr = lr / (1 - beta1 ** state["step"].item())
            p.copy_(p + exp_avg * (-clr) / exp_inf)
