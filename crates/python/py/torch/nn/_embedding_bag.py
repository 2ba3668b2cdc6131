"""`embedding_bag`: the embeddings of each bag of indices summed,
averaged or maxed, recorded as PyTorch's one `EmbeddingBagBackward0`
node (`_composite.recorded`)."""

import torch
from torch import _composite


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        raise NotImplementedError("gradscope's embedding_bag does not take max_norm yet")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            f"embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
            f"mode='sum' (got mode='{mode}'). Please open a feature request on GitHub."
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length "
                f"sequences. However, found offsets of type {type(offsets)}"
            )
        rows, width = input.shape
        starts = [r * width for r in range(rows)]
        flat = input.reshape(-1)
        weights = None if per_sample_weights is None else per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        starts = offsets.tolist()
        if include_last_offset:
            starts = starts[:-1]
        flat = input
        weights = per_sample_weights
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    n = flat.numel()
    ends = starts[1:] + [offsets.tolist()[-1] if include_last_offset and offsets is not None else n]
    indices = flat.tolist()
    # Each element's bag, leaving out padding_idx entries.
    members = [[i for i in range(s, e) if indices[i] != padding_idx] for s, e in zip(starts, ends)]

    def fn(w, psw):
        dim = w.shape[1]
        bags = []
        for m in members:
            if not m:
                bags.append(torch.zeros(dim, dtype=w.dtype, device=w._device))
                continue
            at = torch.tensor([indices[i] for i in m], dtype=torch.int64, device=w._device)
            rows_ = w.index_select(0, at)
            if psw is not None:
                rows_ = rows_ * psw.index_select(0, torch.tensor(m, dtype=torch.int64, device=w._device)).unsqueeze(1)
            if mode == "sum":
                bags.append(rows_.sum(0))
            elif mode == "mean":
                bags.append(rows_.sum(0) / len(m))
            else:
                bags.append(rows_.amax(0))
        return torch.stack(bags, 0) if bags else torch.zeros(0, dim, dtype=w.dtype, device=w._device)

    return _composite.recorded("EmbeddingBagBackward0", [weight, weights], fn, ("weight", "per_sample_weights"))
