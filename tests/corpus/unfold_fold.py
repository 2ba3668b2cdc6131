# F.unfold (im2col) and F.fold (col2im), as in convolution-from-scratch
# and vision-transformer patch code: PyTorch's values, node names,
# gradients (first and second order) and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 2 * 4 * 5, dtype=torch.float32).reshape(2, 2, 4, 5).div(10).requires_grad_()


def show(label, out, inp=x):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape) / out.numel()
    (grad,) = torch.autograd.grad((out * out * weights).sum(), inp, create_graph=True)
    print(grad.detach().round(decimals=3) + 0.0)
    (second,) = torch.autograd.grad(grad.sum(), inp)
    print(second.round(decimals=3) + 0.0)


show("unfold 2x2", F.unfold(x, 2))
show("unfold stride padding", F.unfold(x, (3, 2), padding=1, stride=2))
show("unfold dilation", F.unfold(x, 2, dilation=(2, 1)))
show("unfold 3d", F.unfold(x[0], kernel_size=2, stride=(1, 2)))
cols = F.unfold(x, 2, stride=2)
show("fold", F.fold(cols, (4, 5), 2, stride=2))
show("fold overlapping", F.fold(F.unfold(x, 3, padding=1), (4, 5), 3, padding=1))
c = torch.arange(1.0, 17.0).reshape(1, 4, 4).requires_grad_()
show("fold cols", F.fold(c, (3, 4), 2, stride=(1, 2)), c)

# Convolution as unfold + matmul matches conv2d.
w = torch.arange(2 * 2 * 2 * 2, dtype=torch.float32).reshape(2, 2, 2, 2).div(7)
conv = F.conv2d(x, w, stride=1, padding=1)
via = (w.reshape(2, -1) @ F.unfold(x, 2, padding=1)).reshape(2, 2, 5, 6)
print(torch.allclose(conv, via, atol=1e-5))

# Vision-transformer patches: 2x2 patches as tokens.
img = torch.arange(48.0).reshape(1, 3, 4, 4)
tokens = F.unfold(img, kernel_size=2, stride=2).transpose(1, 2)
print(tokens.shape, tokens[0, 1])

print(nn.Unfold(kernel_size=(2, 3)), nn.Fold(output_size=(4, 5), kernel_size=2, stride=2))
print(nn.Unfold(2, stride=2)(img).shape, nn.Fold((4, 4), 2, stride=2)(nn.Unfold(2, stride=2)(img)).equal(img))

for bad in [
    lambda: F.unfold(x[0, 0], 2),
    lambda: F.unfold(torch.ones(1, 1, 1, 3, 3), 2),
    lambda: F.fold(cols, (4, 5), 3),
    lambda: F.fold(cols, (4, 4), 2, stride=2),
    lambda: F.fold(c, (3, 4), 2, stride=(1, 2)),
    lambda: F.fold(torch.ones(1, 1, 1, 3), (2, 2), 1),
]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
