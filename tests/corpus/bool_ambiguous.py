import torch

print(bool(torch.tensor([1.0])))
if torch.tensor([0.0, 1.0]):
    print("never")
