# Random values differ from PyTorch's generator; shapes, dtypes and
# reproducibility under a seed do not.
import torch

torch.manual_seed(0)
a = torch.randn(2, 3)
torch.manual_seed(0)
b = torch.randn(2, 3)
print(a.shape, a.dtype, bool((a == b).all()) if hasattr(a, "all") else (a - b).abs().sum().item() == 0)
print(torch.rand(4).shape, torch.randint(0, 10, (3,)).dtype, torch.randn(2, 2, dtype=torch.float64).dtype)
u = torch.rand(1000)
print(bool(((u >= 0) & (u < 1)).sum() == 1000))
