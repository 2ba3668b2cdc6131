import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x = torch.arange(10.0).unsqueeze(1)
y = torch.arange(10) % 2
ds = TensorDataset(x, y)
print(len(ds), ds[3])
for xb, yb in DataLoader(ds, batch_size=4):
    print(xb.squeeze(1), yb)
for xb, yb in DataLoader(ds, batch_size=3, shuffle=True, drop_last=True):
    print(xb.squeeze(1), yb)
print(len(DataLoader(ds, batch_size=3)), len(DataLoader(ds, batch_size=3, drop_last=True)))
print(torch.randperm(6))
