# Reductions and products learners paste (nansum, std_mean, logcumsumexp,
# mode, histc, cdist, block_diag, diag_embed, trapezoid, addmv, addbmm):
# PyTorch's values, node names and gradients.
import torch

x = torch.tensor([[0.5, -1.0, 3.0, 2.0], [4.0, 1.5, -2.0, 0.0], [1.0, 2.5, 0.25, -0.5]],
                 requires_grad=True)
y = torch.tensor([[1.0, 0.0, -1.0, 2.0], [0.5, 0.5, 1.0, -3.0]], requires_grad=True)


def show(label, out, inputs=(x,), second_order=True):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    grads = torch.autograd.grad((out * out * weights).sum(), inputs, create_graph=second_order)
    for g in grads:
        print(g.detach().round(decimals=3) + 0.0)
    if second_order:
        second = torch.autograd.grad(sum(g.sum() for g in grads), inputs)
        for g in second:
            print(g.round(decimals=3) + 0.0)


n = torch.tensor([[1.0, float("nan"), 2.0], [float("nan"), float("nan"), 4.0]], requires_grad=True)
show("nansum", torch.nansum(n), (n,))
show("nansum dim", n.nansum(1), (n,))
show("nanmean", torch.nanmean(n, dim=1, keepdim=True), (n,))
# Both results come from one node in PyTorch: one backward through both.
std, mean = torch.std_mean(x)
print(std.grad_fn.name(), mean.grad_fn.name())
show("std_mean", torch.stack([std, mean]))
var, mean = torch.var_mean(x, dim=1, keepdim=True)
print(var.grad_fn.name(), mean.grad_fn.name())
show("var_mean", torch.cat([var, mean]))
show("var_mean correction 0", torch.stack(torch.var_mean(x, 0, correction=0)))
show("std_mean unbiased False", torch.stack(torch.std_mean(x, (0, 1), unbiased=False)))
print(torch.count_nonzero(x), torch.count_nonzero(x, dim=0), x.count_nonzero(1))
show("logcumsumexp", torch.logcumsumexp(x, dim=1))
show("logcumsumexp 0", x.logcumsumexp(0))
print(torch.logcumsumexp(torch.tensor([-1000.0, 0.0, float("-inf"), 1000.0]), 0))
m = torch.tensor([[1.0, 3.0, 3.0, 2.0, 2.0, 5.0], [4.0, 4.0, 1.0, 1.0, 0.0, 4.0]], requires_grad=True)
r = torch.mode(m)
print(r)
show("mode", r.values, (m,))
show("mode dim 0 keepdim", m.mode(0, keepdim=True).values, (m,))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0, 7.0, 9.0]), bins=4, min=0, max=8))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=3))
print(x.histc(bins=5, min=-2, max=4))

show("cdist", torch.cdist(x, y), (x, y))
show("cdist p=1", torch.cdist(x, y, p=1), (x, y), second_order=False)
show("cdist batch", torch.cdist(x.unsqueeze(0), y.unsqueeze(0), p=3), (x, y))
a = torch.tensor([[2.0, -1.0], [0.5, 3.0]], requires_grad=True)
v = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
show("block_diag", torch.block_diag(a, v, torch.tensor(7.0)), (a, v))
show("cartesian_prod", torch.cartesian_prod(v, a[0]), (v, a))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5])))
show("diag_embed", torch.diag_embed(a), (a,))
show("diag_embed offset", torch.diag_embed(a, offset=-1), (a,))
show("diag_embed dims", torch.diag_embed(a, 1, 0, 2), (a,))
show("diagflat", torch.diagflat(a), (a,))
show("diagflat offset", v.diagflat(2), (v,))
show("trapezoid", torch.trapezoid(x), (x,))
show("trapezoid dx", torch.trapezoid(x, dx=0.5, dim=0), (x,))
show("trapezoid x", torch.trapezoid(x, torch.tensor([0.0, 1.0, 3.0, 4.5])), (x,))
show("trapz", torch.trapz(y), (y,))
show("addmv", torch.addmv(v[:2], a, v[1:], beta=0.5, alpha=2.0), (a, v))
b1 = torch.tensor([[[1.0, 2.0], [0.0, -1.0]], [[0.5, 0.5], [2.0, 1.0]]], requires_grad=True)
show("addbmm", torch.addbmm(a, b1, b1.transpose(1, 2), alpha=0.5), (a, b1))
show("inverse", a.inverse(), (a,))
show("det", torch.det(a), (a,))

print(torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0, 7.0]), bins=4, range=(0.0, 8.0)))
print(torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=3))
print(torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=torch.tensor([0.0, 1.5, 5.0]),
                      weight=torch.tensor([1.0, 2.0, 3.0, 4.0])))
print(torch.tensor([1.0, 2.0, 1.0, 4.0]).histogram(2, density=True))
c = torch.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]], requires_grad=True)
show("cumulative_trapezoid", torch.cumulative_trapezoid(c), (c,))
show("cumulative_trapezoid dx dim 0", torch.cumulative_trapezoid(c, dx=0.5, dim=0), (c,))
show("cumulative_trapezoid x", torch.cumulative_trapezoid(c, torch.tensor([0.0, 1.0, 3.0])), (c,))
flags = torch.tensor([True, False, True])
flags.logical_and_(torch.tensor([True, True, False]))
flags.logical_or_(torch.tensor([False, True, False]))
print(flags, flags.logical_not_())
