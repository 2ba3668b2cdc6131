# A second backward through a freed graph fails.
import torch

x = torch.tensor([2.0], requires_grad=True)
y = x * x
z = y * 3
z.backward(torch.ones(1))
print(x.grad)
z.backward(torch.ones(1))
