"""`torch.optim.SGD`."""

import _gradscope as _C

import torch

from .optimizer import Optimizer, _state_like, _weight_decay, required

__all__ = ["SGD"]


class SGD(Optimizer):
    __module__ = "torch.optim.sgd"

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False, foreach=None, differentiable=False, fused=None):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach,
                        differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        lr = group["lr"]
        momentum = group["momentum"]
        dampening = group["dampening"]
        weight_decay = group["weight_decay"]
        nesterov = group["nesterov"]
        for p, d_p in self._with_grad(group):
            d_p = _weight_decay(p, d_p, lr, weight_decay)
            if momentum != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = _state_like(p)
                    buf.copy_(d_p)
                    state["momentum_buffer"] = buf
                else:
                    buf.copy_(_C._add_alpha(buf * momentum, d_p, 1 - dampening, False))
                if nesterov:
                    d_p = _C._add_alpha(d_p, buf, momentum, False)
                else:
                    d_p = buf
            p.copy_(_C._add_alpha(p, d_p, -lr, False))
