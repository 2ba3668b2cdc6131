# More elementwise functions learners paste (logit, xlogy, sinc, erfinv,
# sgn, deg2rad): PyTorch's values, node names and gradients, first and
# second order, and their edge cases.
import math

import torch

x = torch.tensor([[0.05, 0.2, 0.5], [0.7, 0.9, 0.99]], requires_grad=True)
y = torch.tensor([[0.4, 1.5, 2.0], [0.7, 1.1, 3.0]], requires_grad=True)
s = torch.tensor([[-1.5, -0.5, 0.0], [0.25, 1.0, 2.5]], requires_grad=True)


def show(label, out, inputs):
    print(label, out.grad_fn.name(), out.dtype)
    print(out.detach().round(decimals=4))
    grads = torch.autograd.grad((out * out).sum(), inputs, create_graph=True)
    for g in grads:
        print(g.detach().round(decimals=4))
    second = torch.autograd.grad(sum(g.sum() for g in grads), inputs, allow_unused=True)
    for g in second:
        print(None if g is None else g.round(decimals=3))


show("logit", torch.logit(x), [x])
show("logit eps", x.logit(eps=0.1), [x])
show("xlogy", torch.xlogy(x, y), [x, y])
show("xlogy scalar", torch.xlogy(x, 2.0), [x])
show("sinc", torch.sinc(s), [s])
show("erfinv", torch.erfinv(x * 2 - 1), [x])
show("deg2rad", torch.deg2rad(s * 90), [s])
show("rad2deg", s.rad2deg(), [s])
sg = torch.sgn(s)
print(sg, sg.grad_fn.name())

print(torch.logit(torch.tensor([0.0, 1.0, 1.5, -0.5])))
print(torch.xlogy(torch.tensor([0.0, 0.0, 2.0, 0.0]), torch.tensor([0.0, 5.0, 0.0, float("nan")])))
print(torch.erfinv(torch.tensor([-1.0, 1.0, 0.0, 1e-6, 0.999999])))
print(torch.erf(torch.erfinv(torch.tensor([-0.9, -0.1, 0.3, 0.95]))))
print(torch.sinc(torch.tensor([0, 1, 2])), torch.deg2rad(torch.tensor([180, 90])))
print(torch.rad2deg(torch.tensor([math.pi, -math.pi / 4])))
z = torch.tensor([-0.5, 1.5], requires_grad=True)
torch.logit(z).sum().backward()
print(z.grad)
