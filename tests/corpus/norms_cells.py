# GroupNorm, InstanceNorm, RMSNorm and the recurrent cells (RNNCell,
# LSTMCell, GRUCell): PyTorch's values, node names, gradients,
# initialisation (the same draws) and reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 4, 3, 3, requires_grad=True)
s = torch.randn(2, 3, 5, requires_grad=True)


def show(label, out, inputs):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape) / out.numel()
    grads = torch.autograd.grad((out * out * weights).sum(), inputs, create_graph=True)
    for g in grads:
        print(g.detach().round(decimals=3) + 0.0)
    second = torch.autograd.grad(sum(g.sum() for g in grads), inputs, allow_unused=True)
    for g in second:
        print(None if g is None else g.round(decimals=3) + 0.0)


gn = nn.GroupNorm(2, 4)
with torch.no_grad():
    gn.weight.copy_(torch.tensor([1.0, 0.5, -1.0, 2.0]))
    gn.bias.copy_(torch.tensor([0.0, 0.1, 0.2, -0.3]))
print(gn, nn.GroupNorm(1, 3, affine=False))
show("GroupNorm", gn(x), [x, gn.weight, gn.bias])
show("group_norm 3d", F.group_norm(s, 3), [s])
inorm = nn.InstanceNorm2d(4, affine=True)
print(inorm, nn.InstanceNorm1d(3))
show("InstanceNorm2d", inorm(x), [x, inorm.weight])
show("InstanceNorm1d", nn.InstanceNorm1d(3)(s), [s])
show("InstanceNorm1d unbatched", nn.InstanceNorm1d(3)(s[0]), [s])
rms = nn.RMSNorm(5)
print(rms, nn.RMSNorm([3, 5], eps=1e-6, elementwise_affine=False))
show("RMSNorm", rms(s), [s, rms.weight])
show("rms_norm 2 dims", F.rms_norm(s, (3, 5), eps=1e-6), [s])

torch.manual_seed(1)
cells = [nn.RNNCell(5, 3), nn.RNNCell(5, 3, nonlinearity="relu", bias=False), nn.LSTMCell(5, 3), nn.GRUCell(5, 3)]
for cell in cells:
    print(cell, [(name, tuple(p.shape)) for name, p in cell.named_parameters()])
    print(cell.weight_ih[0].detach().round(decimals=4))
h = torch.randn(2, 3, requires_grad=True)
c = torch.randn(2, 3, requires_grad=True)
show("RNNCell", cells[0](s[:, 0], h), [s, h, cells[0].weight_hh])
show("RNNCell relu no state", cells[1](s[:, 0]), [s])
show("LSTMCell h", cells[2](s[:, 0], (h, c))[0], [s, h, c, cells[2].bias_ih])
show("LSTMCell c", cells[2](s[:, 0], (h, c))[1], [s, h, c])
show("GRUCell", cells[3](s[:, 0], h), [s, h, cells[3].weight_ih])
show("GRUCell unbatched", cells[3](s[0, 0], h[0]), [s, h])

# A few steps of a loop, as learners write them.
state = None
total = 0
for t in range(s.shape[1]):
    state = cells[2](s[:, t], state)
    total = total + state[0].sum()
total.backward()
print(round(total.item(), 4), s.grad.abs().sum().round(decimals=4))

for bad in [lambda: nn.GroupNorm(3, 4), lambda: F.group_norm(s, 2), lambda: cells[0](torch.ones(2, 2, 5))]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
