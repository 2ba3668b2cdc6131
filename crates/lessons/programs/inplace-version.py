import torch

USE_CLONE = False

with torch.profiler.record_function("out-of-place"):
    a = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    (torch.sigmoid(a) * 2).sum().backward()
print(a.grad)

with torch.profiler.record_function("in-place"):
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    y = torch.sigmoid(x)
    if USE_CLONE:
        y = y.clone()
    print("version before:", y._version)
    y.mul_(2)
    print("version after:", y._version)
    y.sum().backward()
print(x.grad)
