# Tensor.storage() sizes (views share their base's storage), .name,
# values()/indices() of a strided tensor, Tensor.module_load.
import torch
large = torch.arange(1, 1000)
small = large[0:5]
print(small.storage().size(), small.clone().storage().size(), small.name)
try:
    small.values()
except RuntimeError as e:
    print(e)
w = torch.zeros(2)
print(w.module_load(torch.ones(2)), w)
