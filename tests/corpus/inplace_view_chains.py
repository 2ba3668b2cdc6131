# In-place ops chained on views of a non-leaf: the base's grad_fn becomes
# CopySlices and the gradients are PyTorch's, whatever the op is made of.
import torch


def edges(t):
    return [n for n, _ in t.grad_fn.next_functions]


a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
x = a * 1
x[0].mul_(2).add_(1)
print(x, x.grad_fn, edges(x))
(x * x).sum().backward()
print(a.grad)

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
x = a.clone()
x[1].mul_(w).sub_(w, alpha=2).clamp_(min=-3.0)
print(x, edges(x))
(x * torch.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
print(a.grad, w.grad)

a = torch.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True)
x = a * 2
x[1:3].add_(1, alpha=3).div_(2)
x[::2].mul_(torch.tensor([2.0, -1.0]))
print(x, edges(x))
x.sum().backward()
print(a.grad)

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
x = a * 1
x[:, 1].sin_().mul_(3)
print(x)
x.sum().backward()
print(a.grad)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
v = x[1:]
v += 1
v *= 2
print(x, x.grad_fn, v.grad_fn)
x.sum().backward()
print(a.grad)


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
x[1:].masked_fill_(torch.tensor([True, False]), 0.0).mul_(5)
x.sum().backward()
print(x, a.grad)

# x[0] ** 2 saved x[0], a view the next write to x moves on.
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
x[0] += x[1] * 2
x[2] = x[0] ** 2
x.sum().backward()
print(x, a.grad)
