# Forward-mode AD (torch.autograd.forward_ad): tangents through common ops,
# a custom Function's jvp, gradcheck's forward-mode check, and the errors.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64)
v = torch.randn(3, 4, dtype=torch.float64)
w = torch.randn(4, 2, dtype=torch.float64)

cases = {
    "pow_add": lambda a: a ** 2 + 3 * a,
    "exp_tanh": lambda a: a.exp().tanh(),
    "sin_mul": lambda a: a.sin() * a,
    "matmul": lambda a: a @ w,
    "linear": lambda a: F.linear(a, w.T, torch.ones(2, dtype=torch.float64)),
    "softmax": lambda a: a.softmax(dim=1),
    "log_softmax_sum": lambda a: F.log_softmax(a, dim=0).sum(1),
    "mean": lambda a: a.mean(),
    "view_index": lambda a: a.view(12)[2:7] * 2,
    "relu_sigmoid": lambda a: F.relu(a).sigmoid(),
    "div_sqrt": lambda a: a / (a * a + 1).sqrt(),
    "transpose": lambda a: a.t().contiguous().cumsum(0),
}
with fwAD.dual_level():
    dual = fwAD.make_dual(x, v)
    print("same tangent:", fwAD.unpack_dual(dual).tangent is v)
    other = fwAD.make_dual(x, v.T.contiguous().T)
    print("copied tangent:", fwAD.unpack_dual(other).tangent is v)
    for name, f in cases.items():
        out = f(dual)
        primal, tangent = fwAD.unpack_dual(out)
        print(name, tuple(tangent.shape), [round(t, 4) for t in tangent.reshape(-1)[:6].tolist()])
    two = fwAD.make_dual(torch.ones(3, 4, dtype=torch.float64), torch.full((3, 4), 0.5, dtype=torch.float64))
    both = (dual * two).sum(0)
    print("two duals", [round(t, 4) for t in fwAD.unpack_dual(both).tangent.tolist()])
    plain = torch.randn(3, 4, dtype=torch.float64)
    print("no dual:", fwAD.unpack_dual(plain * 2).tangent)
kept = dual * 2
print("after exit:", fwAD.unpack_dual(kept).tangent)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_forward(a)
        return a ** 3

    @staticmethod
    def jvp(ctx, ga):
        (a,) = ctx.saved_tensors
        return 3 * a ** 2 * ga


with fwAD.dual_level():
    out = Cube.apply(fwAD.make_dual(x, v))
    print("Cube jvp", [round(t, 4) for t in fwAD.unpack_dual(out).tangent.reshape(-1)[:5].tolist()])
    then = (Cube.apply(fwAD.make_dual(x, v)) + 1).sin()
    print("Cube then sin", [round(t, 4) for t in fwAD.unpack_dual(then).tangent.reshape(-1)[:5].tolist()])

p = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
print("gradcheck forward", torch.autograd.gradcheck(Cube.apply, (p,), check_forward_ad=True,
                                                    check_backward_ad=False, check_undefined_grad=False,
                                                    check_batched_grad=False))


class WrongCube(Cube):
    @staticmethod
    def jvp(ctx, ga):
        (a,) = ctx.saved_tensors
        return 2 * a ** 2 * ga


print("gradcheck wrong", torch.autograd.gradcheck(WrongCube.apply, (p,), check_forward_ad=True,
                                                  check_backward_ad=False, raise_exception=False))

try:
    fwAD.make_dual(x, v)
except RuntimeError as e:
    print("RuntimeError:", e)
with fwAD.dual_level():
    try:
        fwAD.make_dual(torch.arange(3), torch.arange(3))
    except ValueError as e:
        print("ValueError:", e)
    try:
        fwAD.make_dual(x, torch.randn(4, 3, dtype=torch.float64))
    except RuntimeError as e:
        print("RuntimeError:", e)
