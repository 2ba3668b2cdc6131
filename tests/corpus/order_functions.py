# Functions that pick values by their order or count them (median,
# kthvalue, cummax, aminmax, unique, searchsorted, bincount) and bernoulli:
# PyTorch's values, indices, node names and gradients.
import torch

x = torch.tensor([[0.5, -1.0, 3.0, 2.0], [4.0, 1.5, -2.0, 0.0], [1.0, 2.5, 0.25, -0.5]],
                 requires_grad=True)


def show(label, out, inputs=(x,)):
    print(label, out.grad_fn.name())
    print(out)
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    grads = torch.autograd.grad((out * weights).sum(), inputs, create_graph=True)
    for g in grads:
        print(g.detach())
    (second,) = torch.autograd.grad((grads[0] * grads[0]).sum() + out.sum(), inputs)
    print(second)


r = torch.cummax(x, dim=1)
print(r.indices)
show("cummax", r.values)
r = x.cummin(0)
print(r)
show("cummin", r.values)
ties = torch.tensor([1.0, 3.0, 2.0, 3.0, 1.0, 0.0], requires_grad=True)
print(torch.cummax(ties, 0), torch.cummin(ties, 0))
show("cummax ties", ties.cummax(0).values, (ties,))

show("median", torch.median(x))
show("median even", x[:, :2].median())
r = torch.median(x, dim=1)
print(r)
show("median dim", r.values)
show("median keepdim", x.median(0, keepdim=True).values)
r = torch.kthvalue(x, 2, dim=1)
print(r)
show("kthvalue", r.values)
show("kthvalue dim 0", torch.kthvalue(x, 3, 0, True)[0])

mn, mx = torch.aminmax(x)
print(mn, mx)
show("aminmax min", mn)
r = torch.aminmax(x, dim=1)
print(r)
show("aminmax max dim", r.max)
same = torch.tensor([2.0, 5.0, 5.0, 1.0], requires_grad=True)
show("aminmax ties", same.aminmax().max, (same,))

labels = torch.tensor([2, 0, 2, 3, 3, 3])
print(torch.bincount(labels))
print(labels.bincount(minlength=6))
print(torch.bincount(labels, weights=torch.tensor([0.5, 1.0, 1.5, 2.0, 0.25, 0.25])))
print(torch.unique(labels))
print(torch.unique(labels, return_counts=True))
print(labels.unique(return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([[1.5, -1.0], [1.5, 2.0]]), return_inverse=True))

edges = torch.tensor([0.0, 1.0, 2.0, 3.0])
queries = torch.tensor([-1.0, 1.0, 2.5, 3.0, 9.0])
print(torch.searchsorted(edges, queries))
print(torch.searchsorted(edges, queries, right=True))
print(torch.searchsorted(edges, queries, side="right"))
print(torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3, 6], [1, 4]])))
print(torch.searchsorted(edges, 1.5))

torch.manual_seed(0)
p = torch.tensor([[0.1, 0.5, 0.9], [0.0, 1.0, 0.3]])
print(torch.bernoulli(p))
print(p.bernoulli())
g = torch.Generator().manual_seed(3)
print(torch.bernoulli(torch.full((8,), 0.5), generator=g))
print(torch.rand(2))

for bad in [
    lambda: torch.kthvalue(x, 5, 1),
    lambda: torch.bincount(torch.tensor([-1, 2])),
    lambda: torch.bincount(torch.tensor([[1, 2]])),
]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)

# NaN: the median is NaN (its gradient shared by the NaNs); kthvalue sorts it last.
nan = float("nan")
w = torch.tensor([[1.0, nan, 2.0, nan], [3.0, 1.0, 2.0, 0.0]], requires_grad=True)
r = torch.median(w, 1)
print(r)
r.values.sum().backward()
print(w.grad)
w.grad = None
m = torch.median(w)
m.backward()
print(m, w.grad)
print(torch.kthvalue(w[1], 2))
for bad in [lambda: torch.bincount(torch.tensor([1.0])), lambda: torch.bernoulli(torch.tensor([1, 0])),
            lambda: torch.logcumsumexp(torch.tensor([1, 2]), 0), lambda: torch.histc(torch.tensor([1, 2]))]:
    try:
        bad()
    except NotImplementedError as e:
        print(type(e).__name__, e)
