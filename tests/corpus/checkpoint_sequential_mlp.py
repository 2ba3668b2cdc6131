# Checkpointing a deep MLP: the same gradients, with a forward run again.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

DEPTH = 8
SEGMENTS = 2
torch.manual_seed(0)
layers = []
for _ in range(DEPTH):
    layers += [nn.Linear(6, 6), nn.Tanh()]
model = nn.Sequential(*layers)
x = torch.randn(4, 6, requires_grad=True)

model(x).sum().backward()
plain = [p.grad.clone() for p in model.parameters()]
plain_x = x.grad.clone()

model.zero_grad()
x.grad = None
out = checkpoint_sequential(model, SEGMENTS, x, use_reentrant=False)
out.sum().backward()
same = all(torch.allclose(p.grad, g) for p, g in zip(model.parameters(), plain))
print("same gradients:", same, torch.allclose(x.grad, plain_x))

calls = []


def block(t):
    calls.append("forward")
    print("block runs")
    return torch.tanh(t @ torch.ones(6, 6) * 0.1)


y = checkpoint(block, x, use_reentrant=False)
print(y.grad_fn is not None, calls)
y.sum().backward()
print(calls)
