"""`torch.optim.Adadelta`, PyTorch's single-tensor update."""

import _gradscope as _C

import torch

from .optimizer import Optimizer, _state_like

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    __module__ = "torch.optim.adadelta"

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure(closure)
        self._emit_step()
        with torch.no_grad():
            for group in self.param_groups:
                lr, rho, eps, wd = group["lr"], group["rho"], group["eps"], group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0)
                        state["square_avg"] = _state_like(p)
                        state["acc_delta"] = _state_like(p)
                    state["step"].add_(1)
                    if wd != 0:
                        grad = _C._add_alpha(grad, p, wd, False)
                    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                    square_avg.copy_(square_avg * rho + grad * (1 - rho) * grad)
                    std = (square_avg + eps).sqrt()
                    delta = (acc_delta + eps).sqrt() / std * grad
                    acc_delta.copy_(acc_delta * rho + delta * (1 - rho) * delta)
                    p.copy_(p + delta * (-lr))
        return loss
