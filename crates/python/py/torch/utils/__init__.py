"""`torch.utils`."""

from . import checkpoint, data
