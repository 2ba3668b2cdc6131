# tanh's backward rounds 1 - y*y once, as PyTorch's fused kernel does: a
# gradient written by hand as (1 - h**2) * dh (two roundings) is then not
# exactly autograd's, as the makemore backprop notebook prints.
import torch

torch.manual_seed(0)
x = (torch.randn(4096) * 2).requires_grad_()
y = torch.tanh(x)
g = torch.randn(4096)
y.backward(g)
manual = (1.0 - y.detach() ** 2) * g
once = (1.0 - y.detach().double() ** 2).float() * g
print(torch.equal(x.grad, manual), (x.grad != manual).sum().item() > 0)
print(torch.equal(x.grad, once))
print((x.grad - manual).abs().max().item() < 1e-6)
print(x.grad[:6])

z = torch.linspace(-3, 3, 7, dtype=torch.float64, requires_grad=True)
torch.tanh(z).sum().backward()
print(z.grad)
