"""`torch.optim.Adamax`, PyTorch's single-tensor update."""

import _gradscope as _C

import torch

from .optimizer import Optimizer, _state_like

__all__ = ["Adamax"]


class Adamax(Optimizer):
    __module__ = "torch.optim.adamax"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure(closure)
        self._emit_step()
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0)
                        state["exp_avg"] = _state_like(p)
                        state["exp_inf"] = _state_like(p)
                    state["step"].add_(1)
                    if wd != 0:
                        grad = _C._add_alpha(grad, p, wd, False)
                    exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
                    exp_avg.copy_(exp_avg + (grad - exp_avg) * (1 - beta1))
                    exp_inf.copy_(torch.maximum(exp_inf * beta2, grad.abs() + eps))
                    clr = lr / (1 - beta1 ** state["step"].item())
                    p.copy_(p + exp_avg * (-clr) / exp_inf)
        return loss
