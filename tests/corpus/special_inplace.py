# torch.special, erfc, heaviside, in-place forms of the elementwise
# functions (x.atan_(), x.clamp_ style), interpolate's area mode and
# nn.Softmax2d: PyTorch's values, node names and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[0.05, 0.2, 0.5], [0.7, 0.9, 0.99]], requires_grad=True)


def show(label, out, inputs=(x,)):
    print(label, out.grad_fn.name())
    print(out.detach().round(decimals=4))
    grads = torch.autograd.grad((out * out).sum(), inputs)
    for g in grads:
        print(g.round(decimals=3))


show("expit", torch.special.expit(x))
show("special.logit", torch.special.logit(x))
show("erfc", torch.erfc(x * 3 - 1))
show("special.erfc", torch.special.erfc(x))
show("special.entr", torch.special.entr(x))
show("special.ndtr", torch.special.ndtr(x * 2 - 1))
show("special.xlog1py", torch.special.xlog1py(x, x + 1))
show("special.softmax", torch.special.softmax(x, 1))
show("special.log_softmax", torch.special.log_softmax(x, dim=0))
show("special.round", torch.special.round(x * 10) / 10)
print(torch.special.entr(torch.tensor([0.0, -1.0, 2.0])))
print(torch.heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor(0.5)))
print(torch.heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([7.0, 8.0, 9.0])))

for name in ["asinh_", "atanh_"]:
    # PyTorch has no derivative for these in place.
    t = x * 1
    out = getattr(t, name)()
    print(name, out.grad_fn.name(), t.detach().round(decimals=4))
    try:
        out.sum().backward()
    except NotImplementedError as e:
        print(e)
for name in ["acos_", "asin_", "atan_", "tan_", "sinh_", "cosh_", "exp2_", "erfinv_",
             "erfc_", "deg2rad_", "rad2deg_", "logit_", "sinc_", "nan_to_num_", "arctan_"]:
    t = x * 1
    out = getattr(t, name)()
    print(name, out is t, out.grad_fn.name(), t.detach().round(decimals=4))
    (g,) = torch.autograd.grad(out.sum(), x)
    print(g.round(decimals=4))
t = x * 1
t.atan2_(x + 1)
print(t.grad_fn.name(), t.detach().round(decimals=4))
t = x * 1
t.hypot_(torch.ones(3))
print(t.grad_fn.name(), t.detach().round(decimals=4))
t = torch.tensor([0.5, 1.0])
t.acosh_()
print(t)
try:
    x.atan_()
except RuntimeError as e:
    print(e)

img = torch.arange(32.0).reshape(1, 2, 4, 4).requires_grad_()
show("interpolate area", F.interpolate(img, size=(2, 2), mode="area"), (img,))
show("interpolate area scale", F.interpolate(img, scale_factor=0.5, mode="area"), (img,))
show("Softmax2d", nn.Softmax2d()(img / 10), (img,))
show("adaptive_avg_pool2d uneven", F.adaptive_avg_pool2d(img, (3, 2)), (img,))
show("AdaptiveAvgPool2d", nn.AdaptiveAvgPool2d((1, 3))(img), (img,))
print(nn.Softmax2d())
