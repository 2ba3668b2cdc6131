"""`torch.optim.NAdam`, PyTorch's single-tensor update (its momentum
schedule's running product kept as a float32 tensor, as PyTorch keeps it)."""

import _gradscope as _C

import torch

from .optimizer import Optimizer, _state_like

__all__ = ["NAdam"]


class NAdam(Optimizer):
    __module__ = "torch.optim.nadam"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
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
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure(closure)
        self._emit_step()
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
                decay = group["momentum_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0)
                        state["mu_product"] = torch.tensor(1.0)
                        state["exp_avg"] = _state_like(p)
                        state["exp_avg_sq"] = _state_like(p)
                    state["step"].add_(1)
                    step = state["step"].item()
                    bias_correction2 = 1 - beta2 ** step
                    if wd != 0:
                        if group["decoupled_weight_decay"]:
                            p.copy_(p * (1 - lr * wd))
                        else:
                            grad = _C._add_alpha(grad, p, wd, False)
                    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
                    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
                    mu_product = state["mu_product"]
                    mu_product.copy_(mu_product * mu)
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    exp_avg.copy_(exp_avg + (grad - exp_avg) * (1 - beta1))
                    exp_avg_sq.copy_(exp_avg_sq * beta2 + grad * (1 - beta2) * grad)
                    denom = (exp_avg_sq / bias_correction2).sqrt() + eps
                    product = mu_product.item()
                    product_next = product * mu_next
                    p.copy_(p + grad * (-lr * (1.0 - mu) / (1.0 - product)) / denom)
                    p.copy_(p + exp_avg * ((-lr * mu_next) / (1.0 - product_next)) / denom)
        return loss
