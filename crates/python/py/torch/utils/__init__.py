"""`torch.utils`."""

from . import backcompat, checkpoint, data
