"""`torch.optim.RAdam`, PyTorch's single-tensor update: Adam with the
variance rectification, plain momentum while the variance is unreliable."""

from .optimizer import Optimizer, _check_adam_args, _weight_decay

__all__ = ["RAdam"]


class RAdam(Optimizer):
    __module__ = "torch.optim.radam"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        beta1, beta2 = group["betas"]
        lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
        for p, grad, state in self._stepped(group, "exp_avg", "exp_avg_sq"):
            step = state["step"].item()
            grad = _weight_decay(p, grad, lr, wd, group["decoupled_weight_decay"])
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
