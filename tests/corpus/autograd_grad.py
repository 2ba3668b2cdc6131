import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x * x).sum()
(dx,) = torch.autograd.grad(y, x, create_graph=True)
print(dx)
(ddx,) = torch.autograd.grad(dx.sum(), x)
print(ddx)
print(x.grad)

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(5.0, requires_grad=True)
c = a * b
ga, gb = torch.autograd.grad(c, [a, b])
print(ga, gb)

unused = torch.tensor(1.0, requires_grad=True)
d = a * 3
print(torch.autograd.grad(d, [a, unused], allow_unused=True))
