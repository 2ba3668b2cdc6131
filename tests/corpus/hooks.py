import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []


def record(grad):
    seen.append(grad)
    return grad * 10


handle = x.register_hook(record)
(x * 3).sum().backward()
print(x.grad, seen)
handle.remove()
x.grad = None
(x * 3).sum().backward()
print(x.grad, len(seen))

y = x * 2
y.retain_grad()
z = (y * y).sum()
z.backward()
print(y.grad, y.retains_grad, x.grad)
