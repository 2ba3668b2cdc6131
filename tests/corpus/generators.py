# torch.Generator: seeded draws of their own, leaving the global sequence alone
# (makemore-style programs pass generator=g everywhere).
import torch
from torch.utils.data import DataLoader, TensorDataset

g = torch.Generator().manual_seed(2147483647)
print(g.initial_seed())
C = torch.randn((27, 2), generator=g)
print(C[:3])
W = torch.randn((6, 4), generator=g)
print(W.sum().item())
print(torch.rand(3, generator=g), torch.randint(0, 10, (4,), generator=g))
print(torch.randperm(5, generator=g))

torch.manual_seed(0)
a = torch.rand(2)
torch.manual_seed(0)
torch.randn(5, generator=torch.Generator().manual_seed(1))
b = torch.rand(2)
print(torch.equal(a, b))

g2 = torch.Generator().manual_seed(42)
w = torch.empty(3, 4)
torch.nn.init.kaiming_uniform_(w, generator=g2)
print(w)
print(torch.empty(2).uniform_(-1, 1, generator=g2), torch.empty(2).normal_(generator=g2))
print(torch.Generator().initial_seed())

ds = TensorDataset(torch.arange(8))
for (batch,) in DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(3)):
    print(batch)
train, val = torch.utils.data.random_split(ds, [6, 2], generator=torch.Generator().manual_seed(7))
print(len(train), len(val), [int(val[i][0]) for i in range(2)])
print(torch.manual_seed(5).initial_seed())
