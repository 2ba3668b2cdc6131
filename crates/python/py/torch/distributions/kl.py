"""`torch.distributions.kl`."""

from . import kl_divergence

__all__ = ["kl_divergence"]
