# In-place ops bump version counters; modifying a saved tensor breaks backward.
import torch

USE_CLONE = False
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
s = torch.sigmoid(x)
print(s._version)
if USE_CLONE:
    s = s.clone()
s.mul_(2)
print(s._version, s.grad_fn)
s.sum().backward()
