"""`torch.functional`: the functions PyTorch writes in Python at
`torch.functional` (all also `torch.*`), and its `F`, which is
`torch.nn.functional`."""

import torch
import torch.nn.functional as F  # noqa: F401 (PyTorch's module has it)
from torch import Tensor  # noqa: F401

_NAMES = ("atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes", "broadcast_tensors",
          "cartesian_prod", "cdist", "chain_matmul", "einsum", "meshgrid", "norm", "split", "tensordot",
          "unique", "unique_consecutive", "unravel_index", "stft", "istft", "lu")
for _name in _NAMES:
    if hasattr(torch, _name):
        globals()[_name] = getattr(torch, _name)
del _name

__all__ = [n for n in _NAMES if n in globals()]
