import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(p))
print(p.requires_grad, p.is_leaf, p.grad_fn)
q = nn.Parameter(torch.zeros(2, 2), requires_grad=False)
print(q)
y = (p * 3).sum()
print(y)
y.backward()
print(p.grad)
print(type(p).__name__, isinstance(p, torch.Tensor))
print(p.data)
print(p + 1)
