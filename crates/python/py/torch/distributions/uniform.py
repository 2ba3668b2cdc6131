"""`torch.distributions.uniform`."""

from . import Uniform

__all__ = ["Uniform"]
