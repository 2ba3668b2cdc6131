# lgamma, digamma and polygamma (each the next one's derivative),
# nanquantile, pdist and random_: PyTorch's values, node names, gradients
# to third order, and draws.
import torch

x = torch.tensor([0.1, 0.5, 1.0, 2.5, 7.0, 30.0, -0.5, 0.0])
print(torch.lgamma(x))
print(torch.digamma(x))
print(torch.polygamma(1, x[:6]))
print(torch.polygamma(2, x))
print(torch.special.gammaln(torch.tensor([4.0])), torch.special.psi(torch.tensor([1.0])))
y = torch.tensor([0.3, 1.5, 4.0], requires_grad=True)
value = torch.lgamma(y)
(g1,) = torch.autograd.grad(value.sum(), y, create_graph=True)
(g2,) = torch.autograd.grad(g1.sum(), y, create_graph=True)
(g3,) = torch.autograd.grad(g2.sum(), y)
print(value.grad_fn.name(), g1.grad_fn.name(), g1.detach(), g2.detach(), g3)
print(y.digamma().grad_fn.name(), y.polygamma(2).grad_fn.name(), torch.polygamma(0, y).grad_fn.name())

nan = float("nan")
d = torch.tensor([[1.0, nan, 3.0, 2.0], [nan, 4.0, nan, -1.0], [nan, nan, nan, nan]], requires_grad=True)
q = torch.nanquantile(d, 0.5, dim=1)
print(q, q.grad_fn.name())
q.nan_to_num().sum().backward()
print(d.grad)
print(torch.nanquantile(d, torch.tensor([0.25, 0.75]), dim=1, keepdim=True).detach())
print(d[:2].nanquantile(0.4, interpolation="nearest"), torch.nanquantile(torch.tensor([1.0, 2.0, 4.0]), 0.5))

points = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, -1.0], [0.5, 2.0]], requires_grad=True)
dist = torch.pdist(points)
print(dist, dist.grad_fn.name())
(dist * torch.arange(1.0, 7.0)).sum().backward()
print(points.grad)
print(torch.nn.functional.pdist(points.detach(), p=1), torch.pdist(points.detach(), 3))

torch.manual_seed(0)
print(torch.empty(8, dtype=torch.long).random_(0, 10), torch.empty(3).random_(5), torch.empty(2, 2).random_(-3, 3))
print(torch.randint(0, 10, (4,)))
