# A loss given mismatched shapes: PyTorch warns, then broadcasting fails
# with the sizes and the dimension named.
import torch
import torch.nn.functional as F

print(torch.broadcast_tensors(torch.zeros(2, 1), torch.zeros(3))[0].shape)
try:
    torch.broadcast_tensors(torch.zeros(2, 3), torch.zeros(3, 2))
except RuntimeError as e:
    print(e)
print(F.mse_loss(torch.ones(4, 1), torch.zeros(4)).item())
F.mse_loss(torch.zeros(2, 3), torch.zeros(3, 2))
