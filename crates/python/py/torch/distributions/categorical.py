"""`torch.distributions.categorical`."""

from . import Categorical

__all__ = ["Categorical"]
