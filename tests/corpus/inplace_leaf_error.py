# In-place ops on a leaf that requires grad are refused while grad is on.
import torch

w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    w.mul_(2)
print(w)
w += 1
