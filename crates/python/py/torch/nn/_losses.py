"""The losses for ranking, embeddings and counts (`margin_ranking_loss`,
`triplet_margin_loss`, `cosine_embedding_loss`, `poisson_nll_loss`,
...), each composed as PyTorch's `Loss.cpp` or `functional.py` composes
it, so the values, the gradients and the last node (`MeanBackward0`) are
PyTorch's; `soft_margin_loss` and `multi_margin_loss` record the one
node PyTorch's kernels do."""

import math

import torch
from torch import _composite


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy(size_average, reduce, reduction):
    from .functional import _reduction

    return _reduction(size_average, reduce, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {torch.Size(input1.shape)}, input2: {torch.Size(input2.shape)}, "
            f"target: {torch.Size(target.shape)} "
        )
    loss = (-target * (input1 - input2) + margin).clamp_min(0)
    return _reduce(loss, _legacy(size_average, reduce, reduction))


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    zeros = torch.zeros_like(input)
    margin_clamp = (margin - input).clamp_min(0)
    output = torch.where(target != 1, margin_clamp, zeros) + torch.where(target != -1, input, zeros)
    return _reduce(output, _legacy(size_average, reduce, reduction))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _legacy(size_average, reduce, reduction)
    if target.requires_grad and torch.is_grad_enabled():
        raise RuntimeError(
            "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. "
            "This input cannot have requires_grad True."
        )

    def fn(x, y):
        return _reduce((-x * y).exp().log1p(), reduction)

    return _composite.recorded("SoftMarginLossBackward0", [input, target], fn, ("self", "target"))


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                          reduction="mean"):
    dim = input1.dim() - 1 if input1.dim() > 0 else 0
    eps = 1e-12
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = (input1 * input1).sum(dim) + eps
    mag_square2 = (input2 * input2).sum(dim) + eps
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    zeros = torch.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min(0)
    output = torch.where(target == 1, pos, zeros) + torch.where(target == -1, neg, zeros)
    return _reduce(output, _legacy(size_average, reduce, reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    from .functional import pairwise_distance

    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, "
            f"but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D inputs"
        )
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = torch.min(dist_neg, pairwise_distance(positive, negative, p, eps))
    output = (margin + dist_pos - dist_neg).clamp_min(0)
    return _reduce(output, _legacy(size_average, reduce, reduction))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    from .functional import logsigmoid

    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    return _reduce(loss, _legacy(size_average, reduce, reduction))


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + (2 * math.pi * target).log() * 0.5
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, _legacy(size_average, reduce, reduction))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    if not isinstance(var, torch.Tensor):
        var = torch.full(tuple(input.shape), float(var), dtype=input.dtype, device=input._device)
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    # PyTorch clamps a copy in place without grad: the gradient passes as if unclamped.
    var = var + (var.clamp(min=eps) - var).detach()
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    reduction = _legacy(size_average, reduce, reduction)
    y = target.reshape(-1, 1)
    classes = input.shape[-1]

    def fn(x, w):
        rows = x if x.dim() == 2 else x.reshape(1, -1)
        picked = rows.gather(1, y)
        margins = (margin - picked + rows).clamp_min(0)
        if p == 2:
            margins = margins * margins
        if w is not None:
            margins = margins * w.index_select(0, y.reshape(-1)).unsqueeze(1)
        own = torch.arange(classes, device=x._device).unsqueeze(0) == y
        loss = margins.masked_fill(own, 0).sum(1) / classes
        if x.dim() < 2:
            loss = loss.reshape(())
        return _reduce(loss, reduction)

    return _composite.recorded("MultiMarginLossBackward0", [input, weight], fn, ("self", "weight"),
                               once="multi_margin_loss_backward")
