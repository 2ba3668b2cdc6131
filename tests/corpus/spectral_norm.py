# torch.nn.utils.spectral_norm (SN-GAN discriminators): the weight over
# its power-iteration estimate of the largest singular value, PyTorch's
# draws for u and v, updated only in training mode, and removed again.
import torch
import torch.nn as nn
from torch.nn.utils import remove_spectral_norm, spectral_norm

torch.manual_seed(0)
layer = spectral_norm(nn.Linear(3, 2))
print(sorted(n for n, _ in layer.named_parameters()), sorted(n for n, _ in layer.named_buffers()))
print(layer.weight_u, layer.weight_v)
x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]])
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    out = layer(x)
    loss = out.pow(2).sum()
    loss.backward()
    opt.step()
    print(round(loss.item(), 5), layer.weight.grad_fn.name(), layer.weight_u.round(decimals=4))
layer.eval()
u_before = layer.weight_u.clone()
print(layer(x).detach().round(decimals=4), torch.equal(u_before, layer.weight_u))
conv = spectral_norm(nn.Conv2d(2, 3, 2), n_power_iterations=3)
print(conv.weight_u.shape, conv.weight_v.shape, conv(torch.ones(1, 2, 3, 3)).detach().round(decimals=4)[0, :, 0])
up = spectral_norm(nn.ConvTranspose2d(2, 3, 2))
print(up.weight_u.shape, up.weight_v.shape)
remove_spectral_norm(layer)
print(sorted(n for n, _ in layer.named_parameters()), layer.weight.detach().round(decimals=4))
