import torch
import torch.nn as nn

torch.manual_seed(0)
a = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
b = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
sd = a.state_dict()
print(sd.keys())
print(sd["0.bias"])
print(b.load_state_dict(sd))
print(torch.equal(a[0].weight, b[0].weight))
print(b[0].weight.requires_grad, sd["0.weight"].requires_grad)
small = nn.Linear(2, 3)
print(small.state_dict())
bad = {"weight": torch.zeros(3, 2)}
print(small.load_state_dict(bad, strict=False))
small.load_state_dict({"weight": torch.zeros(3, 2), "bias": torch.zeros(3), "extra": torch.ones(1)})
