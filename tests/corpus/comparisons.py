import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([3.0, 2.0, 1.0])
print(a == b, a != b, a < b, a <= 2, a > b, a >= 2.5)
print((a > 1) & (b > 1), (a > 2) | (b > 2), ~(a > 2))
print(torch.maximum(a, b), torch.minimum(a, b), torch.where(a > b, a, b))
print((a == 2).dtype, a.eq(2), a.gt(b).sum())
print(a.clamp(1.5, 2.5), a.clamp(min=2))
