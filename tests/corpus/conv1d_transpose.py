# Conv1d, ConvTranspose1d/2d, 1-d and adaptive max pooling, and channel
# dropout, as in audio, text-CNN and autoencoder code: PyTorch's values,
# node names, gradients (first and second order) and module reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x1 = torch.randn(2, 3, 7, requires_grad=True)
x2 = torch.randn(1, 4, 3, 3, requires_grad=True)


def show(label, out, inputs):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    grads = torch.autograd.grad((out * out).sum(), inputs, create_graph=True)
    for g in grads:
        print(g.detach().round(decimals=3) + 0.0)
    second = torch.autograd.grad(sum(g.sum() for g in grads), inputs, allow_unused=True)
    for g in second:
        print(None if g is None else g.round(decimals=3) + 0.0)


conv = nn.Conv1d(3, 2, 3)
print(conv, conv.weight.shape)
show("Conv1d", conv(x1), [x1, conv.weight, conv.bias])
w = torch.randn(4, 3, 2, requires_grad=True)
show("conv1d stride padding", F.conv1d(x1, w, None, stride=2, padding=1), [x1, w])
show("conv1d groups dilation", F.conv1d(x1[:, :2], torch.randn(4, 1, 3), groups=2, dilation=2), [x1])
show("conv1d same", nn.Conv1d(3, 2, 5, padding="same", bias=False)(x1), [x1])
show("conv1d unbatched", conv(x1[0]), [x1])

up = nn.ConvTranspose2d(4, 2, 3, stride=2)
print(up, up.weight.shape)
show("ConvTranspose2d", up(x2), [x2, up.weight, up.bias])
up2 = nn.ConvTranspose2d(4, 2, (2, 3), stride=(2, 1), padding=1, output_padding=(1, 0), bias=False)
print(up2)
show("ConvTranspose2d padding", up2(x2), [x2, up2.weight])
show("ConvTranspose2d groups", nn.ConvTranspose2d(4, 6, 2, groups=2, dilation=2)(x2), [x2])
show("conv_transpose2d unbatched", F.conv_transpose2d(x2[0], up.weight, stride=3), [x2])
up1 = nn.ConvTranspose1d(3, 2, 3, stride=2, output_padding=1)
print(up1)
show("ConvTranspose1d", up1(x1), [x1, up1.weight])

show("max_pool1d", F.max_pool1d(x1, 2), [x1])
show("MaxPool1d stride padding", nn.MaxPool1d(3, 2, 1)(x1), [x1])
show("avg_pool1d", F.avg_pool1d(x1, 3, stride=2), [x1])
show("AvgPool1d padding", nn.AvgPool1d(2, padding=1)(x1), [x1])
show("adaptive_avg_pool1d", F.adaptive_avg_pool1d(x1, 3), [x1])
show("AdaptiveAvgPool1d 1", nn.AdaptiveAvgPool1d(1)(x1), [x1])
show("adaptive_max_pool1d", F.adaptive_max_pool1d(x1, 3), [x1])
values, indices = F.adaptive_max_pool2d(x2, 2, return_indices=True)
print(indices)
show("adaptive_max_pool2d", values, [x2])
show("AdaptiveMaxPool2d (2, None)", nn.AdaptiveMaxPool2d((2, None))(x2), [x2])
print(nn.MaxPool1d(2), nn.AvgPool1d(3, 2, 1), nn.AdaptiveAvgPool1d(4), nn.AdaptiveMaxPool1d(3),
      nn.AdaptiveMaxPool2d((2, None)), nn.Dropout1d(0.3), nn.Dropout2d())

torch.manual_seed(1)
print(F.dropout2d(torch.ones(2, 3, 2, 2), 0.5))
print(nn.Dropout1d(0.5)(torch.ones(2, 4, 3)))
drop = nn.Dropout2d(0.4)
drop.eval()
print(drop(torch.ones(1, 2, 2, 2)).sum())
print(F.dropout1d(torch.ones(3, 4), 0.5))
z = torch.ones(1, 3, 2, 2, requires_grad=True)
out = F.dropout2d(z, 0.5)
out.sum().backward()
print(out.grad_fn.name(), z.grad)
try:
    F.dropout1d(torch.ones(3), 0.5)
except RuntimeError as e:
    print(e)

# output_size picks the output padding, as U-Net decoders use it.
torch.manual_seed(3)
up = nn.ConvTranspose2d(2, 1, 3, stride=2, padding=1)
small = torch.randn(1, 2, 4, 4)
print(up(small).shape, up(small, output_size=(8, 8)).shape, up(small, output_size=torch.Size([1, 1, 8, 7])).shape)
print(up(small, output_size=[8, 8])[0, 0, -1].detach().round(decimals=4))
print(nn.ConvTranspose1d(2, 1, 4, stride=3)(torch.randn(1, 2, 5), output_size=[16]).shape)
try:
    up(small, output_size=(10, 10))
except ValueError as e:
    print(e)
