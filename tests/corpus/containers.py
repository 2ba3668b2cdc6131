import torch
import torch.nn as nn
from collections import OrderedDict

torch.manual_seed(0)
seq = nn.Sequential(OrderedDict([("fc1", nn.Linear(3, 4)), ("act", nn.GELU()), ("fc2", nn.Linear(4, 2))]))
print(seq)
print(seq.fc1, seq[-1], len(seq))
print(seq[:2])
layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
layers.append(nn.ReLU())
print(layers)
print(len(layers), type(layers[1:]).__name__)
d = nn.ModuleDict({"enc": nn.Linear(2, 2), "dec": nn.Identity()})
print(d)
print(list(d.keys()))
print(nn.Sequential(nn.Flatten(), nn.LayerNorm(6), nn.Sigmoid(), nn.Softmax(dim=1)))
print(nn.Sequential(nn.Conv2d(3, 6, 5, stride=2, bias=False), nn.MaxPool2d(2, stride=1), nn.Embedding(10, 4)))
x = torch.ones(2, 3)
print(seq(x).shape)
