# index_put, put, scatter_reduce and the in-place scatter_add_ /
# index_add_ (with alpha) that GNN and counting code uses: PyTorch's
# values, node names and gradients.
import torch

x = torch.arange(12.0).reshape(3, 4).div(4).requires_grad_()
v = torch.tensor([10.0, 20.0], requires_grad=True)


def show(label, out, inputs):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach())
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    for g in torch.autograd.grad((out * weights).sum(), inputs):
        print(g)


show("index_put", x.index_put((torch.tensor([0, 2]), torch.tensor([1, 3])), v), (x, v))
show("index_put rows accumulate", torch.index_put(x, (torch.tensor([0, 0]),), torch.ones(4, requires_grad=True) * 2,
                                                  accumulate=True), (x,))
row = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
show("index_put broadcast", x.index_put((torch.tensor([1, 2]),), row), (x, row))
show("index_put negative", x.index_put((torch.tensor([-1]), torch.tensor([-2])), torch.tensor(9.0)), (x,))
show("put", x.put(torch.tensor([1, -1]), v), (x, v))
show("put accumulate", x.put(torch.tensor([5, 5]), v, accumulate=True), (x, v))
src = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
base = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
idx = torch.tensor([0, 1, 0, 0])
show("scatter_reduce sum", base.scatter_reduce(0, idx, src, "sum"), (base, src))
show("scatter_reduce mean", torch.scatter_reduce(base, 0, idx, src, "mean"), (base, src))
show("scatter_reduce mean exclude", base.scatter_reduce(0, idx, src, reduce="mean", include_self=False), (base, src))
show("scatter_reduce sum exclude", base.scatter_reduce(0, idx, src, "sum", include_self=False), (base, src))
show("index_add alpha", x.index_add(1, torch.tensor([0, 3]), torch.ones(3, 2), alpha=2.5), (x,))

counts = torch.zeros(5)
counts.scatter_add_(0, torch.tensor([1, 3, 1, 1]), torch.ones(4))
counts.index_add_(0, torch.tensor([0, 4]), torch.tensor([5.0, 6.0]), alpha=-1)
print(counts)
t = torch.zeros(2, 3)
t.index_put_((torch.tensor([1]), torch.tensor([2])), torch.tensor(7.0))
t.put_(torch.tensor([0]), torch.tensor([3.0]), accumulate=True)
t.scatter_reduce_(1, torch.tensor([[0, 0, 1]]), torch.tensor([[1.0, 2.0, 3.0]]), "sum")
print(t)
y = x * 1
y.index_add_(0, torch.tensor([2]), torch.ones(1, 4), alpha=3)
print(y.grad_fn.name(), y)

# amax and amin (graph max-pooling): ties share the gradient.
feats = torch.tensor([[1.0, 5.0], [3.0, 2.0], [3.0, 7.0], [0.5, 0.5]], requires_grad=True)
groups = torch.tensor([[0, 0], [1, 1], [1, 1], [0, 0]])
start = torch.zeros(2, 2, requires_grad=True)
for reduce in ["amax", "amin"]:
    for include in [True, False]:
        out = start.scatter_reduce(0, groups, feats, reduce, include_self=include)
        print(reduce, include, out.grad_fn.name(), out.detach())
        g_start, g_feats = torch.autograd.grad((out * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum(), (start, feats))
        print(g_start, g_feats)
