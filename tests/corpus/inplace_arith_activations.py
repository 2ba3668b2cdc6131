# In-place forms PyTorch programs use in optimizers and models:
# leaky_relu(inplace=True) / leaky_relu_ / LeakyReLU(inplace=True)
# (LeakyReluBackward1, the input returned), copy_ into a fresh tensor
# (CopyBackwards, whose name() carries the C++ namespace), addcmul_,
# addcdiv_, lerp_ and clamp_ with tensor bounds, checked against torch.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([1.0, -2.0, 3.0, -0.5], requires_grad=True)

y = x * 1
z = F.leaky_relu(y, 0.1, inplace=True)
print(z is y, z)
print(type(z.grad_fn).__name__, z.grad_fn.name())
z.sum().backward()
print(x.grad)
x.grad = None

w = F.leaky_relu_(x * 2, 0.2)
print(w, w.grad_fn.name())

m = nn.LeakyReLU(0.05, inplace=True)
print(m)
y = x * 3
print(m(y) is y, y)
y.sum().backward()
print(x.grad)
x.grad = None
print(F.leaky_relu(x, 0.1))

# copy_ into a tensor of its own: CopyBackwards; into a view: CopySlices.
a = torch.zeros(4)
a.copy_(x)
print(a.grad_fn, a.grad_fn.name(), type(a.grad_fn).__name__)
print(a.grad_fn.next_functions[1][0].name())
b = torch.zeros(2, 4)
b[1].copy_(x)
print(b.grad_fn.name(), type(b.grad_fn).__name__)
(a.sum() + b.sum()).backward()
print(x.grad)
x.grad = None

# addcmul_ / addcdiv_ / lerp_: values and the same tensor back.
p = torch.tensor([1.0, -2.0, 3.0, 0.25])
t1 = torch.tensor([0.5, 1.5, -1.0, 2.0])
t2 = torch.tensor([2.0, 4.0, 8.0, -0.5])
r = p.addcmul_(t1, t2, value=0.5)
print(r is p, p)
r = p.addcdiv_(t1, t2, value=2)
print(r is p, p)
r = p.lerp_(t2, 0.25)
print(r is p, p)
r = p.lerp_(t1, 0.75)
print(r is p, p)
r = p.lerp_(t2, torch.tensor([0.1, 0.6, 0.9, 0.4]))
print(r is p, p)
print(p.addcmul(t1, t2), p.addcdiv(t1, t2, value=-1), p.lerp(t1, 0.5))
print(torch.addcmul(p, t1, t2, value=2), torch.addcdiv(p, t1, t2), torch.lerp(p, t2, 0.6))

# Adam's second moment, as the optimizer writes it.
exp_avg_sq = torch.zeros(4)
exp_avg_sq.mul_(0.999).addcmul_(t1, t1, value=1 - 0.999)
print(exp_avg_sq)

# Gradients through the in-place forms.
q = x * 1
q.addcmul_(t1, t2, value=3).addcdiv_(t1, t2).lerp_(t2, 0.3)
q.sum().backward()
print(q.detach(), x.grad)
x.grad = None

# clamp with tensor bounds: ClampBackward0; clamp_min/max: ...Backward1.
lo = torch.tensor([0.0, -1.0, 4.0, -1.0])
hi = torch.tensor([2.0, 0.0, 5.0, 1.0])
print(x.clamp(min=lo))
print(x.clamp(max=hi))
print(x.clamp(lo, hi))
print(torch.clamp(x, min=lo))
print(x.clamp(torch.tensor(0.5)))
print(x.clamp_min(lo), x.clamp_max(hi))
print(x.clamp(torch.tensor([[0.0], [1.0]])))
print(torch.tensor([1, -2, 3, 0]).clamp(lo))
c = x * 1
r = c.clamp_(min=lo)
print(r is c, c)
c.clamp_(max=hi).sum().backward()
print(c, x.grad)
x.grad = None
c = torch.tensor([1.0, -2.0, 3.0, -0.5])
c.clamp_(lo, torch.tensor(2.0))
print(c)
for f in (
    lambda: x.clamp(lo, 2),
    lambda: x.clamp(min=lo, max=2.0),
    lambda: (x * 1).clamp_(0.5, hi),
    lambda: torch.tensor([1.0, 2.0, 3.0, 4.0]).clamp_(torch.tensor([[1.0], [2.0]])),
    lambda: torch.tensor([1, -2, 3, 0]).clamp_(lo),
):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)

# clamp_min_ / clamp_max_ / clip, and the dtype checks of the in-place
# forms: a number bound names the tensor's C++ type, lerp checks end's
# dtype and a weight's unless it is 0-dim.
f = torch.tensor([1.0, -2.0, 3.0])
print(f.clone().clamp_min_(0.5), f.clone().clamp_max_(torch.tensor(0.5)))
print(f.clip(0.5), f.clone().clip_(max=0.5), torch.clip(f, -1.0, 1.0))
e = torch.tensor([1.0, 2.0, 3.0])
print(f.lerp(e, torch.tensor(0.5, dtype=torch.float64)), f.lerp(e, torch.tensor(1)))
for g in (
    lambda: torch.tensor([1, -2, 3]).clamp_(0.5),
    lambda: torch.tensor([1, -2, 3]).clamp_(max=0.5),
    lambda: torch.tensor([1, -2, 3]).clamp_min_(0.5),
    lambda: torch.tensor([1, -2, 3]).add_(0.5),
    lambda: torch.tensor([True]).clamp_(0.5),
    lambda: torch.tensor([True]).clamp_(2),
    lambda: torch.tensor([1, -2, 3]).lerp_(e, 0.5),
    lambda: torch.tensor([1, -2, 3]).addcmul_(e, e),
    lambda: f.lerp(torch.tensor([1, 2, 3]), 0.5),
    lambda: f.lerp(e, torch.tensor([0.5, 0.5, 0.5], dtype=torch.float64)),
    lambda: f.lerp(e.double(), 0.5),
):
    try:
        print(g())
    except Exception as ex:
        print(type(ex).__name__, ex)
