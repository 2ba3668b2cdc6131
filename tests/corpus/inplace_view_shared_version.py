# Views share their base's version counter: a view saved for backward is
# caught when another view of the same base is written, even where the two
# do not overlap; only the written tensor's old value is kept (`v *= v`
# keeps `self`, not `other`).
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
v = x[1:]
v += 1
v *= v
print(x)
try:
    x.sum().backward()
except RuntimeError as err:
    print(err)

a = torch.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True)
x = a * 2
x[::2].mul_(x[1::2])
print(x)
x.sum().backward()
