# copy.deepcopy of models, and a small Transformer encoder in eval mode.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 3), nn.ReLU())
model(torch.ones(1, 3)).sum().backward()
clone = copy.deepcopy(model)
print(clone)
print(clone[0].weight is model[0].weight, torch.equal(clone[0].weight, model[0].weight))
print(type(clone[0].weight).__name__, clone[0].weight.requires_grad, clone[0].weight.grad is not None)
with torch.no_grad():
    clone[0].weight.fill_(0)
print(model[0].weight.sum().item() != 0)
t = torch.ones(2, requires_grad=True)
print(copy.deepcopy(t))
try:
    copy.deepcopy(t * 2)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print(len(encoder.layers), sum(p.numel() for p in encoder.parameters()))
encoder.eval()
x = torch.randn(2, 5, 8)
with torch.no_grad():
    y = encoder(x)
print(y.shape)
print(y[0, :2])
encoder.train()
out = encoder(x)
print(out.grad_fn is not None)
