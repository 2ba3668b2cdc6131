"""`torch.optim.NAdam`, PyTorch's single-tensor update (its momentum
schedule's running product kept as a float32 tensor, as PyTorch keeps it)."""

from .optimizer import Optimizer, _check_adam_args, _check_nonnegative, _weight_decay

__all__ = ["NAdam"]


class NAdam(Optimizer):
    __module__ = "torch.optim.nadam"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_args(lr, eps, betas, weight_decay)
        _check_nonnegative(momentum_decay=momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._step_groups(closure)

    def _update_group(self, group):
        beta1, beta2 = group["betas"]
        lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
        decay = group["momentum_decay"]
        for p, grad, state in self._stepped(group, ("mu_product", 1.0), "exp_avg", "exp_avg_sq"):
            step = state["step"].item()
            bias_correction2 = 1 - beta2 ** step
            grad = _weight_decay(p, grad, lr, wd, group["decoupled_weight_decay"])
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
