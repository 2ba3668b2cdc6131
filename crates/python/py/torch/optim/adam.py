"""`torch.optim.Adam` and `torch.optim.AdamW`."""

from .optimizer import Optimizer, _check_adam_args, _weight_decay

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    __module__ = "torch.optim.adam"
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        _check_adam_args(lr, eps, betas, weight_decay)
        if amsgrad:
            raise NotImplementedError("gradscope's Adam does not support amsgrad yet")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay or self._decoupled)
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        eps = group["eps"]
        weight_decay = group["weight_decay"]
        decoupled = group["decoupled_weight_decay"]
        for p, grad, state in self._stepped(group, "exp_avg", "exp_avg_sq"):
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            step = int(state["step"].item())
            grad = _weight_decay(p, grad, lr, weight_decay, decoupled)
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
