"""`torch.utils.data.dataloader`."""

from . import DataLoader, default_collate

__all__ = ["DataLoader", "default_collate"]
