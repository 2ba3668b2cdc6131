# Bitwise operators on integers, gcd/lcm, signbit, copysign,
# logaddexp2, remainder's nodes, and the in-place forms learners write
# (x.floor_(), x.clamp_ style): PyTorch's values, node names and gradients.
import torch

a = torch.tensor([12, -5, 7, 0])
b = torch.tensor([10, 3, -2, 9])
print(a & b, a | b, a ^ b, ~a, a << 2, a >> 1)
print(torch.bitwise_and(a, b), torch.bitwise_or(a, 3), torch.bitwise_xor(a, b), torch.bitwise_not(a))
print(a & 6, 6 & a, torch.bitwise_left_shift(a, torch.tensor([1, 2, 3, 4])))
m = torch.tensor([True, False, True])
n = torch.tensor([True, True, False])
print(m & n, m | n, m ^ n, ~m, m & True)
print(torch.gcd(torch.tensor([12, -18, 0]), torch.tensor([18, 12, 5])), torch.lcm(torch.tensor([4, 6, 0]), torch.tensor([6, 4, 3])))
print(torch.signbit(torch.tensor([-1.0, 0.0, -0.0, 2.0])), torch.isposinf(torch.tensor([float("inf"), 1.0])),
      torch.isneginf(torch.tensor([-float("inf"), 1.0])), torch.isreal(torch.tensor([1.0])))
print(torch.positive(torch.tensor([1.0, -2.0])), torch.absolute(torch.tensor([-1.5, 2.0])))

x = torch.tensor([[-1.5, -0.25, 0.0], [0.5, 1.75, 3.0]], requires_grad=True)
y = torch.tensor([[2.0, -1.0, -0.5], [-3.0, 1.0, 0.75]], requires_grad=True)


def show(label, out, inputs):
    print(label, out.grad_fn.name(), out.dtype)
    print(out.detach().round(decimals=4))
    for g in torch.autograd.grad((out * out).sum(), inputs, allow_unused=True):
        print(None if g is None else g.round(decimals=4) + 0.0)


show("copysign", torch.copysign(x, y), [x, y])
show("copysign scalar", x.copysign(-1.0), [x])
show("logaddexp2", torch.logaddexp2(x, y), [x, y])
show("remainder tensor", torch.remainder(x, y), [x, y])
show("remainder scalar", x.remainder(0.7), [x])
show("remainder %", x % 0.7, [x])

for name, args in [("floor_", ()), ("ceil_", ()), ("round_", ()), ("trunc_", ()), ("frac_", ()), ("sign_", ()),
                   ("expm1_", ()), ("log1p_", ()), ("erf_", ()), ("square_", ()), ("negative_", ()),
                   ("absolute_", ()), ("fmod_", (0.4,)), ("remainder_", (0.4,))]:
    t = x * 1
    out = getattr(t, name)(*args)
    print(name, out is t, out.grad_fn.name(), t.detach().round(decimals=4))
    (g,) = torch.autograd.grad((out * out).sum(), x)
    print(g.round(decimals=4))
t = torch.tensor([0.5, 3.0])
t.log2_()
t.log10_()
print(t)
for bad in [lambda: torch.tensor([1.5]) & torch.tensor([1.0]), lambda: ~torch.tensor([1.5]),
            lambda: x.floor_()]:
    try:
        bad()
    except (RuntimeError, NotImplementedError, TypeError) as e:
        print(type(e).__name__, e)
