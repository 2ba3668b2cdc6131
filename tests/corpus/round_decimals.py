# round(decimals=): RoundBackward1, half to even at the scaled value, and
# PyTorch's error for integers.
import torch
x = torch.tensor([0.125, 1.2345, -2.5, 1234.5678], requires_grad=True)
y = x.round(decimals=2)
print(y, y.grad_fn.name())
print(x.round(decimals=-2), torch.round(x, decimals=1), x.round(decimals=0).grad_fn.name(), x.round().grad_fn.name())
print(torch.tensor([1.23456789]).round(decimals=3))
y.sum().backward()
print(x.grad)
try:
    torch.tensor([15, 25]).round(decimals=-1)
except NotImplementedError as e:
    print(type(e).__name__, e)
