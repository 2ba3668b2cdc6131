"""Gradient clipping, computed as PyTorch's `clip_grad.py` computes it (the
per-tensor norms stacked and normed again, in the gradients' dtype)."""

import math

import _gradscope as _C

import torch

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_"]


def _params(parameters):
    if isinstance(parameters, torch.Tensor):
        return [parameters]
    return list(parameters)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    grads = [p.grad for p in _params(parameters) if p.grad is not None]
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return torch.tensor(0.0)
    with torch.no_grad():
        norms = [g.norm(norm_type) for g in grads]
        if norm_type == math.inf:
            total_norm = norms[0] if len(norms) == 1 else torch.stack(norms).max()
        else:
            total_norm = torch.stack(norms).norm(norm_type)
        if error_if_nonfinite and (total_norm.isnan() or total_norm.isinf()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from "
                "`parameters` is non-finite, so it cannot be clipped. To disable "
                "this error and scale the gradients by the non-finite norm anyway, "
                "set `error_if_nonfinite=False`"
            )
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = clip_coef.clamp(max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)
        if norm_type == math.inf:
            clipped = max(float(g.abs().max()) for g in grads)
        else:
            # In float64 on the host for the trace's figure (GPUs have no float64).
            clipped = float(torch.stack([g.cpu().double().norm(norm_type) for g in grads]).norm(norm_type))
        _C._emit_grad_clipped(float(total_norm), clipped, max_norm)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    warnings_text = (
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`."
    )
    import warnings

    warnings.warn(warnings_text, FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    clip_value = float(clip_value)
    with torch.no_grad():
        for p in _params(parameters):
            if p.grad is not None:
                p.grad.copy_(p.grad.clamp(min=-clip_value, max=clip_value))
