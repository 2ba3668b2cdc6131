# pow_ in place, on a tensor and on a view: PowBackward0 (a number
# exponent) or PowBackward1 (a tensor exponent), with PyTorch's gradients.
import torch

a = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], requires_grad=True)
x = a * 1
x[:, 1].pow_(2).neg_()
print(x, x.grad_fn)
(x * torch.tensor([[1.0, 10.0, 100.0], [2.0, 20.0, 200.0]])).sum().backward()
print(a.grad)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = torch.tensor([2.0, 0.5, 1.0], requires_grad=True)
y = a * 1
z = y.pow_(e)
print(z is y, y, y.grad_fn, y._version)
y.sum().backward()
print(a.grad, e.grad)

t = torch.tensor([1, 2, 3])
t.pow_(2)
print(t)
