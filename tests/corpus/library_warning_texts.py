# Warnings PyTorch raises from inside its library, by their text and how
# often: torch.cross without dim (with the C++ source PyTorch names), and
# Tensor.storage()'s TypedStorage deprecation, given once per process.
import warnings

import torch

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])))
    t = torch.arange(10)
    print(t.storage().size(), t[2:4].storage().size(), t.untyped_storage().size())
for w in caught:
    print(w.category.__name__ + ":", w.message)
