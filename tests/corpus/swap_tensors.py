# torch.utils.swap_tensors: two tensor objects exchange what they are, so
# every reference to one sees the other's values, shape, grad and class.
import torch
import torch.nn as nn

torch.manual_seed(0)
t1 = torch.arange(2)
t2 = torch.arange(3)
alias = t1
torch.utils.swap_tensors(t1, t2)
print(t1, t2, alias, alias is t1)

a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(4)
(a * 2).sum().backward()
a.tag = "was a"
torch.utils.swap_tensors(a, b)
print(a.shape, a.requires_grad, a.grad, getattr(a, "tag", None))
print(b.shape, b.requires_grad, b.grad, b.tag, b.is_leaf)

p = nn.Parameter(torch.ones(2))
q = torch.zeros(2)
torch.utils.swap_tensors(p, q)
print(type(p).__name__, type(q).__name__, p, q)

m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
new_w = nn.Parameter(torch.full((2, 2), 3.0))
torch.utils.swap_tensors(m.weight, new_w)
print(opt.param_groups[0]["params"][0] is m.weight, m.weight)
y = m(torch.ones(1, 2)).sum()
y.backward()
print(m.weight.grad)
opt.step()
print(m.weight)
