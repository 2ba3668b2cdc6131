# torch.nn.utils.weight_norm (WaveNet- and GAN-style code): the weight
# split into weight_g and weight_v, recomputed before each forward as
# PyTorch's WeightNormInterfaceBackward0, trained, and removed again.
import warnings

import torch
import torch.nn as nn
from torch.nn.utils import remove_weight_norm, weight_norm

warnings.simplefilter("ignore")
torch.manual_seed(0)
layer = weight_norm(nn.Linear(3, 2))
print([n for n, _ in layer.named_parameters()], tuple(layer.weight_g.shape), tuple(layer.weight_v.shape))
print(layer.weight_g.detach().round(decimals=4), layer.weight.grad_fn.name())
x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]])
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    loss = layer(x).pow(2).sum()
    loss.backward()
    opt.step()
    print(round(loss.item(), 5), layer.weight_g.grad.reshape(-1).round(decimals=4))
print(layer.weight.detach().round(decimals=4))
conv = weight_norm(nn.Conv1d(2, 3, 2), name="weight", dim=1)
print(tuple(conv.weight_g.shape), conv(torch.ones(1, 2, 4)).detach().round(decimals=4))
whole = weight_norm(nn.Linear(2, 2), dim=None)
print(whole.weight_g.detach().round(decimals=4))
remove_weight_norm(layer)
print([n for n, _ in layer.named_parameters()], layer.weight.detach().round(decimals=4))
try:
    remove_weight_norm(layer)
except ValueError as e:
    print(e)
