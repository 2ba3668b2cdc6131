"""`torch.distributions.bernoulli`."""

from . import Bernoulli

__all__ = ["Bernoulli"]
