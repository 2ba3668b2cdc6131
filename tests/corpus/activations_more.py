# Activations beyond ReLU that learners paste (Mish, Hardswish, GLU, PReLU,
# ReLU6, SELU, ...) as functions and modules: PyTorch's values, node names,
# module reprs and gradients, first and second order.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[-4.0, -3.0, -1.5, -0.5, 0.0], [0.25, 1.0, 2.5, 3.0, 7.0]], requires_grad=True)


def show(label, out, inputs=(x,), second_order=True):
    print(label, out.grad_fn.name())
    print(out.detach().round(decimals=4))
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    grads = torch.autograd.grad((out * out * weights).sum(), inputs, create_graph=True)
    for g in grads:
        print(g.detach().round(decimals=4))
    if not second_order:
        return
    second = torch.autograd.grad(sum(g.sum() for g in grads), inputs, allow_unused=True)
    for g in second:
        print(None if g is None else g.round(decimals=4))


show("logsigmoid", F.logsigmoid(x))
show("hardtanh", F.hardtanh(x))
show("hardtanh bounds", F.hardtanh(x, -2.0, 2.5))
show("relu6", F.relu6(x))
# PyTorch has no second derivative for hardsigmoid.
show("hardsigmoid", F.hardsigmoid(x), second_order=False)
show("hardswish", F.hardswish(x))
show("softsign", F.softsign(x))
show("tanhshrink", F.tanhshrink(x))
show("mish", F.mish(x))
show("silu", F.silu(x))
show("elu", F.elu(x, alpha=0.5))
show("selu", F.selu(x))
show("celu", F.celu(x, alpha=2.0))
show("softshrink", F.softshrink(x, 1.0))
show("hardshrink", F.hardshrink(x))
show("threshold", F.threshold(x, 0.5, -9.0))
show("glu", F.glu(x[:, :4]))
show("glu dim 0", F.glu(x, 0))
show("softmin", F.softmin(x, dim=1))
w = torch.tensor([0.25], requires_grad=True)
# (Away from 0, where PyTorch's second derivative of prelu takes the other side.)
show("prelu", F.prelu(x + 0.1, w), (x, w))
img = x.reshape(1, 2, 5)
wc = torch.tensor([0.1, -0.2], requires_grad=True)
show("prelu channels", F.prelu(img + 0.1, wc), (x, wc))

a = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)
b = torch.tensor([[2.0, 0.0, 1.0], [1.0, 1.0, -1.0]], requires_grad=True)
show("cosine_similarity", F.cosine_similarity(a, b), (a, b))
show("cosine_similarity dim 0", F.cosine_similarity(a, b, dim=0), (a, b))
show("pairwise_distance", F.pairwise_distance(a, b), (a, b))
show("pairwise_distance p=1 keepdim", F.pairwise_distance(a, b, p=1.0, keepdim=True), (a, b), second_order=False)
show("pairwise_distance p=3", F.pairwise_distance(a, b, p=3), (a, b))

modules = [nn.Mish(), nn.Hardtanh(), nn.Hardtanh(-2.0, 2.0, inplace=True), nn.ReLU6(), nn.LogSigmoid(),
           nn.GLU(), nn.Hardswish(), nn.Hardsigmoid(), nn.Softsign(), nn.Tanhshrink(), nn.SELU(),
           nn.CELU(0.5), nn.Softshrink(), nn.Hardshrink(0.25), nn.Threshold(0.1, 20.0), nn.PReLU(),
           nn.PReLU(2, init=0.1), nn.Softmin(dim=1), nn.CosineSimilarity(), nn.PairwiseDistance()]
for m in modules:
    print(m)
net = nn.Sequential(nn.Linear(4, 6), nn.Hardswish(), nn.Linear(6, 4), nn.GLU(), nn.PReLU(), nn.Linear(2, 1), nn.Mish())
torch.manual_seed(0)
for p in net.parameters():
    nn.init.uniform_(p, -0.5, 0.5)
inp = torch.tensor([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]])
out = net(inp)
out.sum().backward()
print(out.detach().round(decimals=4))
print([round(p.grad.abs().sum().item(), 4) for p in net.parameters()])
print(net)
print(nn.CosineSimilarity(dim=0)(a, b).detach().round(decimals=4), nn.PairwiseDistance(p=3.0)(a, b).detach().round(decimals=4))

for bad in [lambda: F.glu(x), lambda: F.prelu(img, torch.ones(3)), lambda: F.softshrink(x, -1.0)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)

# inplace=True writes into the input and records PyTorch's in-place node.
for name, f in [("hardtanh", lambda t: F.hardtanh(t, -0.5, 0.5, inplace=True)),
                ("relu6", lambda t: F.relu6(t, inplace=True)), ("hardswish", lambda t: F.hardswish(t, True)),
                ("hardsigmoid", lambda t: F.hardsigmoid(t, inplace=True)), ("elu", lambda t: F.elu(t, inplace=True)),
                ("selu", lambda t: F.selu(t, True)), ("celu", lambda t: F.celu(t, 0.5, True)),
                ("silu", lambda t: F.silu(t, inplace=True)), ("mish", lambda t: F.mish(t, inplace=True)),
                ("threshold", lambda t: F.threshold(t, 0.5, -1.0, True)),
                ("ReLU6 module", nn.ReLU6(inplace=True)), ("Hardswish module", nn.Hardswish(inplace=True))]:
    t = x * 1
    out = f(t)
    print(name, out is t, out.grad_fn.name(), t.detach().round(decimals=4))
    (g,) = torch.autograd.grad(out.sum(), x)
    print(g.round(decimals=4))
try:
    F.hardtanh(x, inplace=True)
except RuntimeError as e:
    print(e)
for bad in [lambda: torch.atan2(x, 2.0), lambda: torch.hypot(x, 1), lambda: torch.fmax(x, 0.5)]:
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)
