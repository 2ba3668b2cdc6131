# F.interpolate (nearest, nearest-exact, linear, bilinear with and without
# align_corners), nn.Upsample and pixel (un)shuffle: PyTorch's values, node
# names and gradients, first and second order.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[[1.0, 2.0, 4.0], [0.5, -1.0, 3.0]], [[0.0, 1.5, -2.0], [2.0, 2.5, 1.0]]]],
                 requires_grad=True)


def show(label, out, inp=x):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    (grad,) = torch.autograd.grad((out * out * weights).sum() / out.numel(), inp, create_graph=True)
    print(grad.detach().round(decimals=3))
    (second,) = torch.autograd.grad(grad.sum(), inp)
    print(second.round(decimals=3))


show("nearest x2", F.interpolate(x, scale_factor=2))
show("nearest size", F.interpolate(x, size=(3, 5)))
show("nearest down", F.interpolate(x, size=(1, 2)))
show("nearest 1.5", F.interpolate(x, scale_factor=1.5, mode="nearest"))
show("nearest-exact", F.interpolate(x, size=(3, 5), mode="nearest-exact"))
show("bilinear x2", F.interpolate(x, scale_factor=2, mode="bilinear"))
show("bilinear size", F.interpolate(x, size=(3, 4), mode="bilinear", align_corners=False))
show("bilinear corners", F.interpolate(x, size=(3, 5), mode="bilinear", align_corners=True))
show("bilinear down", F.interpolate(x, size=(1, 2), mode="bilinear"))
show("bilinear (2, 3)", F.interpolate(x, scale_factor=(2, 3), mode="bilinear"))
show("bicubic x2", F.interpolate(x, scale_factor=2, mode="bicubic"))
show("bicubic corners", F.interpolate(x, size=(3, 5), mode="bicubic", align_corners=True))
show("bicubic down", F.interpolate(x, size=(1, 2), mode="bicubic"))
seq = x.detach().reshape(1, 2, 6).requires_grad_()
show("linear", F.interpolate(seq, size=9, mode="linear"), seq)
show("linear corners", F.interpolate(seq, scale_factor=0.5, mode="linear", align_corners=True), seq)
show("nearest 1d", F.interpolate(seq, scale_factor=2), seq)

up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
print(up, nn.Upsample(size=(4, 6)), nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(size=3))
show("Upsample", up(x))
show("UpsamplingNearest2d", nn.UpsamplingNearest2d(size=(4, 4))(x))

y = torch.arange(16.0).reshape(1, 4, 2, 2).requires_grad_()
show("pixel_shuffle", F.pixel_shuffle(y, 2), y)
show("pixel_unshuffle", F.pixel_unshuffle(y.reshape(1, 1, 4, 4), 2), y)
print(nn.PixelShuffle(2), nn.PixelUnshuffle(3))
print(torch.equal(nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(y)), y))
print(F.pixel_shuffle(torch.arange(8.0).reshape(2, 1, 4, 1, 1), 2).shape)

for bad in [
    lambda: F.interpolate(x, scale_factor=2, align_corners=True),
    lambda: F.interpolate(seq, scale_factor=2, mode="bilinear"),
    lambda: F.interpolate(x, mode="bilinear"),
    lambda: F.interpolate(x, size=3, scale_factor=2),
    lambda: F.interpolate(x, size=(3, 3, 3)),
    lambda: F.pixel_shuffle(x, 2),
    lambda: F.pixel_unshuffle(x, 2),
    lambda: F.pixel_shuffle(torch.ones(4, 4), 2),
]:
    try:
        bad()
    except (RuntimeError, ValueError, NotImplementedError) as e:
        print(type(e).__name__, e)
