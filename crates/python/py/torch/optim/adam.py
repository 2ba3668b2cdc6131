"""`torch.optim.Adam` and `torch.optim.AdamW`."""

import math

import _gradscope as _C

import torch

from .optimizer import Optimizer, _state_like

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    __module__ = "torch.optim.adam"
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
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
        if amsgrad:
            raise NotImplementedError("gradscope's Adam does not support amsgrad yet")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay or self._decoupled)
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure(closure)
        self._emit_step()
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                lr = group["lr"]
                eps = group["eps"]
                weight_decay = group["weight_decay"]
                decoupled = group["decoupled_weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0)
                        state["exp_avg"] = _state_like(p)
                        state["exp_avg_sq"] = _state_like(p)
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    state["step"].add_(1)
                    step = int(state["step"].item())
                    if weight_decay != 0:
                        if decoupled:
                            p.copy_(p * (1 - lr * weight_decay))
                        else:
                            grad = _C._add_alpha(grad, p, weight_decay, False)
                    # exp_avg.lerp_(grad, 1 - beta1): PyTorch's lerp for weight < 0.5.
                    exp_avg.copy_(exp_avg + (grad - exp_avg) * (1 - beta1))
                    # addcmul_ and addcdiv_ multiply by the scalar first, as PyTorch's kernels do.
                    exp_avg_sq.copy_(exp_avg_sq * beta2 + grad * (1 - beta2) * grad)
                    bias_correction1 = 1 - beta1**step
                    bias_correction2 = 1 - beta2**step
                    step_size = lr / bias_correction1
                    bias_correction2_sqrt = bias_correction2**0.5
                    denom = exp_avg_sq.sqrt() / bias_correction2_sqrt + eps
                    p.copy_(p + exp_avg * (-step_size) / denom)
        return loss


class AdamW(Adam):
    __module__ = "torch.optim.adamw"
    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
