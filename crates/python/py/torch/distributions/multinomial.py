"""`torch.distributions.multinomial`: counts of `total_count` draws from a
categorical distribution, drawn as PyTorch draws them."""

import torch

from . import Categorical, Distribution, _size

__all__ = ["Multinomial"]


class Multinomial(Distribution):
    arg_constraints = {}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def param_shape(self):
        return self._categorical.param_shape

    def sample(self, sample_shape=torch.Size()):
        sample_shape = _size(sample_shape)
        samples = self._categorical.sample(torch.Size((self.total_count,) + tuple(sample_shape)))
        shifted = list(range(samples.dim()))
        shifted.append(shifted.pop(0))
        samples = samples.permute(*shifted)
        counts = torch.zeros(self._extended_shape(sample_shape), dtype=samples.dtype)
        counts = counts.scatter_add(-1, samples, torch.ones_like(samples))
        return counts.type_as(self.probs)

    def log_prob(self, value):
        logits = self.logits.clone()
        logits[(value == 0) & (logits == -float("inf"))] = 0
        log_factorial_n = torch.lgamma(value.sum(-1) + 1)
        log_factorial_xs = torch.lgamma(value + 1).sum(-1)
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers
