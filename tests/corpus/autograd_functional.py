# Jacobians and Hessians with torch.autograd.functional.
import torch
from torch.autograd.functional import hessian, jacobian, vjp, hvp

x = torch.tensor([1.0, 2.0, 3.0])


def f(t):
    return t ** 2 * torch.tensor([1.0, -1.0, 0.5])


print(jacobian(f, x))
print(hessian(lambda t: (t ** 3).sum(), x))
print(jacobian(lambda a, b: a * b, (x, torch.ones(3))))
out, g = vjp(f, x, torch.ones(3))
print(out, g)
print(hvp(lambda t: (t ** 3).sum(), x, torch.ones(3)))
W = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(jacobian(lambda w: w @ torch.tensor([1.0, -1.0]), W).shape)
print(hessian(lambda t: t.sin().sum(), torch.tensor([0.0, 1.0])))
print(x.requires_grad)
