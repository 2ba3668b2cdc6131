# Ops gradscope composes in Python (cumsum, repeat and tile, sort and topk,
# flip, roll) each record the one node PyTorch records, with its backward
# formula, differentiable again.
import torch

x = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], requires_grad=True)


def show(label, y):
    names = [None if n is None else n.name() for n, _ in y.grad_fn.next_functions]
    print(label, y.grad_fn.name(), names)
    print(y)
    weights = torch.arange(1.0, y.numel() + 1).reshape(y.shape).to(y.dtype)
    (grad,) = torch.autograd.grad((y * y * weights).sum(), x, create_graph=True)
    print(grad.detach())
    # Second order: through the node's backward, itself differentiable.
    (second,) = torch.autograd.grad(grad.sum(), x)
    print(second)


show("cumsum 1", x.cumsum(1))
show("cumsum 0", torch.cumsum(x, dim=0))
show("cumsum dtype", x.cumsum(-1, dtype=torch.float32))
show("repeat", x.repeat(2, 1))
show("repeat 3d", x.repeat(2, 1, 2))
show("tile", x.tile(2))
show("sort", x.sort(1).values)
show("sort 0 desc", x.sort(0, descending=True).values)
show("sort stable", torch.sort(x, stable=True).values)
show("topk", x.topk(2).values)
show("topk 0", x.topk(1, dim=0).values)
show("topk smallest", x.topk(2, largest=False).values)
show("flip", x.flip(1))
show("flip both", x.flip(0, 1))
show("roll", x.roll(1, 1))
show("roll two", x.roll((1, 1), (0, 1)))
show("roll flat", x.roll(2))
print(x.argsort(dim=1), x.sort(1).indices, x.topk(2).indices)
with torch.no_grad():
    print(x.cumsum(1).grad_fn, x.repeat(1, 2).requires_grad)
print(torch.arange(5).cumsum(0), torch.tensor([True, False]).repeat(2))


def show_first(label, y):
    """Nodes whose backward is constant in x: no second derivative."""
    print(label, y.grad_fn.name(), [None if n is None else n.name() for n, _ in y.grad_fn.next_functions])
    print(y)
    weights = torch.arange(1.0, y.numel() + 1).reshape(y.shape).to(y.dtype)
    (grad,) = torch.autograd.grad((y * weights).sum(), x)
    print(grad)


m = torch.tensor([[True, False, True], [False, False, True]])
show("masked_fill", x.masked_fill(m, 0.5))
show("masked_fill row", x.masked_fill(m[0], -1e9))
show("tril", x.tril())
show("triu", torch.triu(x, 1))
square = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.5]], requires_grad=True)
t = square.trace()
print("trace", t.grad_fn.name(), t, torch.autograd.grad(t, square)[0])
y = torch.tensor([[3.5, 1.2, -2.7], [0.5, -1.0, 4.0]], requires_grad=True)
x = y
show_first("ceil", y.ceil())
show_first("trunc", y.trunc())
show_first("frac", y.frac())
show_first("fmod", y.fmod(2))
