"""`torch.utils.data.dataset`."""

from . import ConcatDataset, Dataset, Subset, TensorDataset, random_split

__all__ = ["ConcatDataset", "Dataset", "Subset", "TensorDataset", "random_split"]
