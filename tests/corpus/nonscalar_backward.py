import torch

x = torch.ones(2, requires_grad=True)
y = x * 2
y.backward(torch.tensor([1.0, 0.5]))
print(x.grad)
y = x * 2
y.backward()
