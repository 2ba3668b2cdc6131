"""`torch.distributions.normal`."""

from . import Normal

__all__ = ["Normal"]
