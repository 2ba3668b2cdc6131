# Indexing and splitting methods learners paste (flipud, tensor_split,
# hsplit, take, argwhere, isin, index_fill, index_copy, masked_scatter,
# the *_scatter family, fill_diagonal_, unique_consecutive): PyTorch's
# values, node names and gradients.
import torch

x = torch.arange(12.0).reshape(3, 4).div(4).requires_grad_()
src = torch.tensor([[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]], requires_grad=True)


def show(label, out, inputs=(x,)):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach())
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    for g in torch.autograd.grad((out * weights).sum(), inputs):
        print(g)


show("flipud", x.flipud())
show("fliplr", torch.fliplr(x))
for label, parts in [("tensor_split 3", x.tensor_split(3, dim=1)), ("tensor_split idx", torch.tensor_split(x, [1, 3], 1)),
                     ("hsplit", x.hsplit(2)), ("vsplit", torch.vsplit(x, [1])), ("split_with_sizes", x.split_with_sizes([1, 3], 1))]:
    print(label, [tuple(p.shape) for p in parts], parts[-1].grad_fn.name())
show("narrow_copy", x.narrow_copy(1, 1, 2))
show("take", x.take(torch.tensor([[0, 5], [-1, 7]])))
print(torch.argwhere(x > 1.5), x.argwhere().shape)
print(torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4, 6])), torch.isin(torch.tensor([1.5, 2.0]), 2.0))
print(torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2]), invert=True))
show("index_fill", x.index_fill(1, torch.tensor([0, 2]), -1.0))
show("index_copy", x.index_copy(1, torch.tensor([3, 0]), src), (x, src))
mask = torch.tensor([[True, False, True, False], [False, False, True, True], [True, False, False, False]])
show("masked_scatter", x.masked_scatter(mask, torch.arange(100.0, 112.0).reshape(3, 4).requires_grad_()))
s2 = torch.arange(100.0, 112.0).reshape(3, 4).requires_grad_()
show("masked_scatter source", x.masked_scatter(mask, s2), (x, s2))
d = torch.tensor([7.0, 8.0, 9.0], requires_grad=True)
show("diagonal_scatter", torch.diagonal_scatter(x, d), (x, d))
show("diagonal_scatter offset", x.diagonal_scatter(d, 1), (x, d))
r = torch.tensor([5.0, 6.0, 7.0, 8.0], requires_grad=True)
show("select_scatter", torch.select_scatter(x, r, 0, 1), (x, r))
show("slice_scatter", torch.slice_scatter(x, src, dim=1, start=0, end=4, step=2), (x, src))
show("slice_scatter rows", x.slice_scatter(torch.ones(1, 4), 0, 2), (x,))
t = x.detach().clone()
t.index_fill_(0, torch.tensor([1]), 0.5)
t.fill_diagonal_(-3.0)
print(t)
tall = torch.zeros(7, 3)
print(tall.fill_diagonal_(1.0, wrap=True))
print(torch.zeros(2, 2, 2).fill_diagonal_(4.0))
y = x * 1
y.masked_scatter_(mask, torch.zeros(12))
y.index_copy_(0, torch.tensor([2]), torch.ones(1, 4))
print(y.grad_fn.name(), y)
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])))
print(torch.tensor([1, 1, 2, 2, 3, 1]).unique_consecutive(return_inverse=True, return_counts=True))
for bad in [lambda: x.hsplit(3), lambda: torch.vsplit(torch.ones(3), 1), lambda: x.masked_scatter(mask, torch.ones(2)),
            lambda: torch.ones(3).fill_diagonal_(1.0)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
print(torch.zeros(3, dtype=torch.bool).index_fill(0, torch.tensor([1]), True),
      torch.zeros(3, dtype=torch.bool).masked_fill(torch.tensor([True, False, False]), True))
