# Trigonometric, hyperbolic and other elementwise functions learners paste
# (acos, atan2, sinh, hypot, logaddexp, fmax, nan_to_num, ...): PyTorch's
# values, node names and gradients, first and second order.
import torch

x = torch.tensor([[-0.9, -0.3, 0.0], [0.2, 0.5, 0.8]], requires_grad=True)
y = torch.tensor([[0.4, -1.5, 2.0], [-0.7, 1.1, 0.3]], requires_grad=True)


def show(label, out, inputs):
    print(label, out.grad_fn.name(), out.dtype)
    print(out.detach().round(decimals=4))
    grads = torch.autograd.grad((out * out).sum(), inputs, create_graph=True)
    for g in grads:
        print(g.detach().round(decimals=4))
    second = torch.autograd.grad(sum(g.sum() for g in grads), inputs)
    for g in second:
        print(g.round(decimals=4))


for name in ["acos", "asin", "atan", "tan", "sinh", "cosh", "asinh", "atanh", "exp2"]:
    show(name, getattr(torch, name)(x), [x])
show("acosh", torch.acosh(y.abs() + 1.5), [y])
show("arctan alias", x.arctan(), [x])
show("atan2", torch.atan2(x, y), [x, y])
show("hypot", torch.hypot(x, y), [x, y])
show("logaddexp", torch.logaddexp(x, y), [x, y])
show("fmax", torch.fmax(x, y), [x, y])
show("fmin", x.fmin(y), [x, y])
show("atan2 broadcast", torch.atan2(x, y[0]), [x, y])

# Out of the domain: NaN, as in PyTorch.
print(torch.asin(torch.tensor([2.0, -1.0, 1.0])))
print(torch.acosh(torch.tensor([0.5, 1.0])))
print(torch.atanh(torch.tensor([1.0, -1.0, 0.0])))
print(torch.exp2(torch.tensor([0, 3, 10])))
print(torch.sinh(torch.tensor([100.0, -100.0])))

# fmax and fmin ignore a NaN where max would propagate it.
n = torch.tensor([float("nan"), 1.0, float("nan")])
m = torch.tensor([2.0, float("nan"), float("nan")])
print(torch.fmax(n, m), torch.fmin(n, m), torch.maximum(n, m))

z = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5], requires_grad=True)
clean = torch.nan_to_num(z)
print(clean, clean.grad_fn.name())
print(torch.nan_to_num(z, nan=0.0, posinf=100.0, neginf=-100.0))
clean.sum().backward()
print(z.grad)
print(torch.nan_to_num(torch.tensor([1, 2])))
