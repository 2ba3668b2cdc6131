# In-place methods keep PyTorch's node names and checks.
import torch
import torch.nn as nn

x = torch.tensor([-1.0, 2.0, 0.5], requires_grad=True)
y = x * 2
y.relu_()
print(y, y._version)
y.sum().backward()
print(x.grad)
z = (x * 3).clamp_(max=2.0)
print(z)
w = x * 1
w.add_(torch.ones(3), alpha=2)
print(w, w._version)
w.sub_(1, alpha=0.5)
print(w)
m = nn.Sequential(nn.Linear(3, 2), nn.ReLU(inplace=True))
print(m)
print(m(torch.ones(1, 3)).grad_fn.name())
t = torch.ones(3)
t.masked_fill_(torch.tensor([True, False, True]), 5.0)
print(t, t._version)
t.sigmoid_().neg_()
print(t)
x.relu_()
