# F.pad in every mode (constant with cropping, reflect, replicate,
# circular) and the padding modules: PyTorch's values, node names,
# gradients and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 13.0).reshape(1, 2, 2, 3).requires_grad_()


def show(label, out, inp=x):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach())
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    (grad,) = torch.autograd.grad((out * out * weights).sum() / 100, inp, create_graph=True)
    print(grad.detach().round(decimals=3))
    (second,) = torch.autograd.grad(grad.sum(), inp)
    print(second.round(decimals=3))


show("constant", F.pad(x, (1, 2)))
show("constant value", F.pad(x, (1, 0, 0, 1), value=-1.0))
show("constant crop", F.pad(x, (-1, 1, 0, -1)))
show("constant 3 dims", F.pad(x, (0, 1, 1, 0, 1, 1)))
show("reflect", F.pad(x[0], (2, 1), mode="reflect"))
show("reflect 2d", F.pad(x, (1, 2, 1, 1), mode="reflect"))
show("replicate", F.pad(x, (2, 1, 0, 3), mode="replicate"))
seq = x.detach().reshape(2, 6).requires_grad_()
show("replicate 1d", F.pad(seq, (3, 1), mode="replicate"), seq)
show("circular", F.pad(x, (1, 2, 2, 1), mode="circular"))

modules = [nn.ZeroPad2d(1), nn.ZeroPad2d((1, 0, 2, 1)), nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((0, 1, 1, 0), -2.0),
           nn.ReflectionPad1d(1), nn.ReflectionPad2d((1, 0, 1, 1)), nn.ReplicationPad2d(2), nn.ReplicationPad1d((0, 3)),
           nn.CircularPad2d(1), nn.ZeroPad1d(1)]
for m in modules:
    print(m)
    out = m(x) if not isinstance(m, (nn.ConstantPad1d, nn.ReflectionPad1d, nn.ReplicationPad1d, nn.ZeroPad1d)) else m(seq)
    print(tuple(out.shape), out.grad_fn.name(), out.sum().item())

for bad in [
    lambda: F.pad(x, (3, 0), mode="reflect"),
    lambda: F.pad(x, (1,)),
    lambda: F.pad(x, (1, 1), mode="wrap"),
    lambda: F.pad(x, (1, 1) * 5),
    lambda: F.pad(x, (1, 1) * 3, mode="reflect"),
    lambda: F.pad(x, (2, 1), mode="reflect"),
]:
    try:
        bad()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
