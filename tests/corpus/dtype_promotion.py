import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
b = torch.tensor([True, False, True])
print((i + 1).dtype, (i + 1.5).dtype, (i * 2.0))
print((i / 2), (i / 2).dtype)
print((f + d).dtype, (f + torch.tensor(1.0, dtype=torch.float64)).dtype)
print((i + torch.tensor(1.5)).dtype, (i + f).dtype)
print((b + b), (b + 1).dtype, (b * 1.5).dtype)
print(torch.tensor(2) * 3, torch.tensor(2.0, dtype=torch.float64) * 3)
print(i.float(), f.long(), f.double().dtype, f.to(torch.int64))
