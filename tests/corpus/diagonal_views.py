# diagonal as PyTorch's view (DiagonalBackward0): offsets, other dims,
# strides, writes through it (fill_, add_, an in-place op on a graph's
# diagonal: CopySlices), diag's copy, trace, stride() and the errors.
import torch
x = torch.arange(12.0).reshape(3, 4).requires_grad_()
d = x.diagonal()
print(d, d.grad_fn.name(), d.stride(), d.storage_offset(), x.stride(), x.t().stride(1))
print(x.diagonal(1), x.diagonal(-1), x.diagonal(5), torch.diagonal(x, 1, 1, 0))
y = torch.arange(24.0).reshape(2, 3, 4)
print(y.diagonal(0, 1, 2), y.diagonal(1, -1, 0).shape, y.diagonal(0, 2, 0).stride())
(d * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
m = torch.zeros(3, 3)
m.diagonal().fill_(1.0)
m.diagonal(1).add_(2.0)
print(m)
w = torch.ones(3, 3, requires_grad=True)
z = w * 2
z.diagonal().mul_(5)
z.sum().backward()
print(w.grad, z.grad_fn.name())
s = torch.ones(3, 3, requires_grad=True)
print(s.trace(), torch.diag(s), torch.diag(torch.tensor([1.0, 2.0]), 1))
for bad in [lambda: x.diagonal(0, 1, 1), lambda: x.diagonal(0, 0, -2), lambda: torch.ones(3).diagonal()]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
import torch
x = torch.arange(12.0).reshape(3, 4).requires_grad_()
y = torch.diag(x, 1)
print(y)
y.add_(100)
print(x[0])
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
