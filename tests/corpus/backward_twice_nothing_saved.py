# A second backward through nodes that saved nothing works in PyTorch:
# only a saved tensor that was freed makes it an error.
import torch

x = torch.ones(2, 3, requires_grad=True)
v = x[:, 0]  # SelectBackward0 saves no tensor
(g1,) = torch.autograd.grad(v.sin().sum(), x)
(g2,) = torch.autograd.grad(v.cos().sum(), x)
print(g1)
print(g2)

y = (x.t() + 1).sum()  # TBackward0, AddBackward0, SumBackward0: no tensors saved
y.backward()
y.backward()
print(x.grad)

z = (x * 2).sum()  # MulBackward0 saves the 2 as a tensor (a wrapped number)
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).split(" (or")[0])
