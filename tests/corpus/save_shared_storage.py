# torch.save/torch.load keep storage sharing: views saved together share
# one storage once loaded, a view keeps the storage it was cut from, and
# storage()/untyped_storage() report that storage's size.
import io
import warnings

import torch

warnings.simplefilter("ignore")
numbers = torch.arange(1, 10)
evens = numbers[1::2]
torch.save([numbers, evens], "tensors.pt")
loaded_numbers, loaded_evens = torch.load("tensors.pt")
loaded_evens *= 2
print(loaded_numbers)
print(numbers)
print(loaded_evens.stride(), loaded_evens.storage_offset(), loaded_evens.storage().size())

m = torch.arange(12.0).reshape(3, 4)
d = {"m": m, "col": m[:, 1], "t": m.t(), "other": torch.ones(2)}
buffer = io.BytesIO()
torch.save(d, buffer)
buffer.seek(0)
back = torch.load(buffer)
back["col"].fill_(-1)
print(back["m"])
print(back["t"])
print(back["other"], back["t"].stride(), back["col"].stride(), back["col"].storage_offset())

large = torch.arange(1, 1000)
torch.save(large[0:5], "small.pt")
small = torch.load("small.pt")
print(small, small.storage().size(), small.untyped_storage().size(), small.untyped_storage().nbytes())
torch.save(large[0:5].clone(), "small.pt")
print(torch.load("small.pt").storage().size())

p = torch.nn.Parameter(torch.randn(2, 3))
torch.save({"w": p, "wt": p.t()}, "p.pt")
loaded = torch.load("p.pt")
print(type(loaded["w"]).__name__, loaded["w"].requires_grad, torch.equal(loaded["w"].t(), loaded["wt"]))
with torch.no_grad():
    loaded["w"][0, 0] = 100.0
print(loaded["wt"][0, 0].item())
