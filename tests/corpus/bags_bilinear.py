# EmbeddingBag (the text-classification tutorial's layer), Bilinear,
# AlphaDropout and LocalResponseNorm: PyTorch's initialisation, values,
# node names, gradients, draws and reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
bag = nn.EmbeddingBag(10, 3)
print(bag, bag.weight[1].detach().round(decimals=4))
text = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
out = bag(text, offsets)
print(out.grad_fn.name(), out.detach().round(decimals=4))
out.pow(2).sum().backward()
print(bag.weight.grad.round(decimals=4))
summed = nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2)
print(summed, summed(torch.tensor([[1, 2, 3], [2, 2, 4]])).detach().round(decimals=4))
maxed = nn.EmbeddingBag(10, 3, mode="max")
m = maxed(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 1, 1]))
print(m.detach().round(decimals=4))
m.sum().backward()
print(maxed.weight.grad[:6])
w = torch.tensor([0.5, 2.0, -1.0, 1.0], requires_grad=True)
weighted = F.embedding_bag(torch.tensor([1, 2, 4, 5]), bag.weight, torch.tensor([0, 2]), mode="sum",
                           per_sample_weights=w)
weighted.sum().backward()
print(weighted.detach().round(decimals=4), w.grad.round(decimals=4))
print(F.embedding_bag(torch.tensor([1, 2, 4]), bag.weight, torch.tensor([0, 3]), include_last_offset=True))

torch.manual_seed(1)
bil = nn.Bilinear(2, 3, 4)
print(bil, bil.weight[0].detach().round(decimals=4), bil.bias.detach().round(decimals=4))
x1 = torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)
x2 = torch.tensor([[0.5, 0.0, 1.0], [-1.0, 1.0, 2.0]], requires_grad=True)
y = bil(x1, x2)
print(y.grad_fn.name(), y.detach().round(decimals=4))
y.pow(2).sum().backward()
print(x1.grad.round(decimals=4), x2.grad.round(decimals=4), bil.weight.grad[1].round(decimals=4))
print(F.bilinear(x1, x2, bil.weight).grad_fn.name(), nn.Bilinear(2, 3, 1, bias=False))

torch.manual_seed(2)
drop = nn.AlphaDropout(0.2)
z = torch.arange(10.0).requires_grad_()
d = drop(z)
print(drop, d.grad_fn.name(), d.detach().round(decimals=4))
d.sum().backward()
print(z.grad.round(decimals=4))
drop.eval()
print(drop(torch.ones(2)))

lrn = nn.LocalResponseNorm(3, alpha=0.1, beta=0.75, k=1.0)
img = torch.arange(1.0, 25.0).reshape(1, 4, 3, 2).div(10).requires_grad_()
r = lrn(img)
print(lrn, r.grad_fn.name(), r[0, :, 0].detach().round(decimals=4))
r.pow(2).sum().backward()
print(img.grad[0, :, 1].round(decimals=4))
print(F.local_response_norm(img[0].detach(), 2).round(decimals=4)[:, 0])
