"""`torch.optim.Adadelta`, PyTorch's single-tensor update."""

from .optimizer import Optimizer, _check_nonnegative, _weight_decay

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    __module__ = "torch.optim.adadelta"

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_nonnegative(lr=lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_nonnegative(eps=eps, weight_decay=weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        lr, rho, eps, wd = group["lr"], group["rho"], group["eps"], group["weight_decay"]
        for p, grad, state in self._stepped(group, "square_avg", "acc_delta"):
            grad = _weight_decay(p, grad, lr, wd)
            square_avg, acc_delta = state["square_avg"], state["acc_delta"]
            square_avg.copy_(square_avg * rho + grad * (1 - rho) * grad)
            std = (square_avg + eps).sqrt()
            delta = (acc_delta + eps).sqrt() / std * grad
            acc_delta.copy_(acc_delta * rho + delta * (1 - rho) * delta)
            p.copy_(p + delta * (-lr))
