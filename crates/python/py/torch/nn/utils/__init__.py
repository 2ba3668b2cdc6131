"""`torch.nn.utils`."""

from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_
from . import parametrize, rnn
from .weight_norm import remove_weight_norm, weight_norm
from .spectral_norm import remove_spectral_norm, spectral_norm

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "parameters_to_vector",
           "vector_to_parameters", "rnn", "weight_norm", "remove_weight_norm",
           "spectral_norm", "remove_spectral_norm"]


def parameters_to_vector(parameters):
    import torch

    return torch.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    import torch

    pointer = 0
    with torch.no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[pointer:pointer + n].reshape(p.shape))
            pointer += n
