# Shapes that do not broadcast: PyTorch's exact message.
import torch

a = torch.ones(2, 3)
b = torch.ones(4)
print(a.shape, b.shape)
c = a + b
