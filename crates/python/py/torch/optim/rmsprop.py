"""`torch.optim.RMSprop` and `torch.optim.Adagrad`, PyTorch's single-tensor
updates (`addcmul_`/`addcdiv_` scale their first factor first)."""

import _gradscope as _C

import torch

from .optimizer import Optimizer, _check_nonnegative, _state_like, _weight_decay

__all__ = ["RMSprop", "Adagrad"]


class RMSprop(Optimizer):
    __module__ = "torch.optim.rmsprop"

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        _check_nonnegative(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
        momentum, wd = group["momentum"], group["weight_decay"]
        buffers = ["square_avg"]
        if momentum > 0:
            buffers.append("momentum_buffer")
        if group["centered"]:
            buffers.append("grad_avg")
        for p, grad, state in self._stepped(group, *buffers):
            grad = _weight_decay(p, grad, lr, wd)
            square_avg = state["square_avg"]
            square_avg.copy_(square_avg * alpha + grad * (1 - alpha) * grad)
            if group["centered"]:
                grad_avg = state["grad_avg"]
                grad_avg.copy_(grad_avg + (grad - grad_avg) * (1 - alpha))
                avg = (square_avg + grad_avg * -1 * grad_avg).sqrt() + eps
            else:
                avg = square_avg.sqrt() + eps
            if momentum > 0:
                buf = state["momentum_buffer"]
                buf.copy_(buf * momentum + grad / avg)
                p.copy_(_C._add_alpha(p, buf, -lr, False))
            else:
                p.copy_(p + grad * -lr / avg)


class Adagrad(Optimizer):
    __module__ = "torch.optim.adagrad"

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_nonnegative(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                           initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = torch.tensor(0.0)
                state["sum"] = _state_like(p)
                if group["initial_accumulator_value"] != 0:
                    state["sum"].fill_(group["initial_accumulator_value"])

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        lr, lr_decay, wd, eps = group["lr"], group["lr_decay"], group["weight_decay"], group["eps"]
        for p, grad, state in self._stepped(group):
            step = state["step"].item()
            grad = _weight_decay(p, grad, lr, wd)
            clr = lr / (1 + (step - 1) * lr_decay)
            state_sum = state["sum"]
            state_sum.copy_(state_sum + grad * 1 * grad)
            std = state_sum.sqrt() + eps
            p.copy_(p + grad * -clr / std)
