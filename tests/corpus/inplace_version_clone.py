import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
s = torch.sigmoid(x).clone()
s.mul_(2)
print(s._version, s.grad_fn)
s.sum().backward()
print(x.grad)
x2 = x.detach().clone().requires_grad_()
(torch.sigmoid(x2) * 2).sum().backward()
print(torch.allclose(x.grad, x2.grad))
