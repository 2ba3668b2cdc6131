# retain_graph=True keeps the saved tensors for a second backward.
import torch

x = torch.tensor([2.0], requires_grad=True)
z = (x * x * 3).sum()
z.backward(retain_graph=True)
print(x.grad)
z.backward()
print(x.grad)
