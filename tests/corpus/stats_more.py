# cov, corrcoef, quantile, nanmedian, renorm, matrix_power, addr, slogdet,
# logdet and bernoulli_: PyTorch's values, node names and gradients (and
# bernoulli_'s draws).
import torch

x = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.0, -1.0, 3.0, 2.0], [5.0, 5.5, 1.0, 0.5]], requires_grad=True)
A = torch.tensor([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 1.0]], requires_grad=True)


def show(label, out, inputs=(x,)):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape) / out.numel()
    for g in torch.autograd.grad((out * weights).sum(), inputs):
        print(g.round(decimals=3) + 0.0)


show("cov", torch.cov(x), (x,))
show("cov correction 0", x.cov(correction=0), (x,))
show("cov 1d", torch.cov(x[0]), (x,))
show("corrcoef", torch.corrcoef(x), (x,))
show("quantile", torch.quantile(x, 0.3), (x,))
show("quantile dim", torch.quantile(x, torch.tensor([0.25, 0.5, 0.9]), dim=1, keepdim=True), (x,))
for mode in ["lower", "higher", "nearest", "midpoint"]:
    show(f"quantile {mode}", x.quantile(0.4, dim=0, interpolation=mode), (x,))
print(torch.quantile(torch.tensor([1.0, float("nan"), 2.0]), 0.5))
n = torch.tensor([[1.0, float("nan"), 3.0, 2.0], [float("nan"), 4.0, float("nan"), -1.0]], requires_grad=True)
r = torch.nanmedian(n, 1)
print(r)
show("nanmedian dim", r.values, (n,))
show("nanmedian", torch.nanmedian(n[0]), (n,))
show("renorm", x.renorm(2, 0, 5.0), (x,))
show("renorm p=1 dim 1", torch.renorm(x, 1, 1, 6.0), (x,))
show("matrix_power 2", A.matrix_power(2), (A,))
show("matrix_power 5", torch.matrix_power(A, 5) / 100, (A,))
show("matrix_power 0", A.matrix_power(0) + A, (A,))
show("matrix_power -2", torch.linalg.matrix_power(A, -2), (A,))
v1 = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
v2 = torch.tensor([3.0, 0.25, -1.0, 2.0], requires_grad=True)
show("addr", torch.addr(x, v1, v2, beta=0.5, alpha=2.0), (x, v1, v2))
sign, logabsdet = torch.slogdet(A)
print(sign, logabsdet)
show("slogdet", logabsdet, (A,))
show("linalg.slogdet", torch.linalg.slogdet(A * -1).logabsdet, (A,))
show("logdet", torch.logdet(A), (A,))
print(torch.logdet(-A), torch.slogdet(torch.zeros(2, 2)))

torch.manual_seed(0)
t = torch.empty(2, 6)
print(t.bernoulli_(0.3))
print(t.bernoulli_())
print(torch.zeros(5).bernoulli_(torch.tensor([0.0, 1.0, 0.5, 0.5, 0.9])))
print(torch.rand(3))
for bad in [lambda: torch.quantile(x, 1.5), lambda: torch.quantile(torch.tensor([1, 2]), 0.5),
            lambda: x.matrix_power(2)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
