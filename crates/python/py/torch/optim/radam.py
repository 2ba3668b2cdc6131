"""`torch.optim.RAdam`, PyTorch's single-tensor update: Adam with the
variance rectification, plain momentum while the variance is unreliable."""

import _gradscope as _C

import torch

from .optimizer import Optimizer, _state_like

__all__ = ["RAdam"]


class RAdam(Optimizer):
    __module__ = "torch.optim.radam"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
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
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
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
                        state["exp_avg_sq"] = _state_like(p)
                    state["step"].add_(1)
                    step = state["step"].item()
                    if wd != 0:
                        if group["decoupled_weight_decay"]:
                            p.copy_(p * (1 - lr * wd))
                        else:
                            grad = _C._add_alpha(grad, p, wd, False)
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    exp_avg.copy_(exp_avg + (grad - exp_avg) * (1 - beta1))
                    exp_avg_sq.copy_(exp_avg_sq * beta2 + grad * (1 - beta2) * grad)
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2 = 1 - beta2 ** step
                    corrected = exp_avg / bias_correction1
                    rho_inf = 2 / (1 - beta2) - 1
                    rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                    if rho_t > 5.0:
                        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                        adaptive = (bias_correction2 ** 0.5) / (exp_avg_sq.sqrt() + eps)
                        p.copy_(p - corrected * lr * adaptive * rect)
                    else:
                        p.copy_(p - corrected * lr)
        return loss
