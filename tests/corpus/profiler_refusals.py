# Profilers refuse arguments PyTorch 2.15 no longer has (use_cuda=True), and
# accept the ones it has; warnings PyTorch prints go to stderr (not compared
# here) without changing what the program prints.
import torch
import torch.nn.functional as F

for make in (lambda: torch.autograd.profiler.profile(use_cuda=True),
             lambda: torch.profiler.profile(use_cuda=True)):
    try:
        with make():
            pass
    except TypeError as e:
        print("TypeError", e)
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=True) as prof:
    y = torch.ones(3).exp().sum()
print(y)
with torch.autograd.profiler.profile(enabled=True, use_device=None) as prof:
    pass
x = torch.ones(2, requires_grad=True)
z = x * 2
print(z.grad, x.grad)
print(F.log_softmax(torch.zeros(2, 3)).shape)
print(float(z.sum()))

import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    w = x * 3
    w.grad
    F.softmax(torch.zeros(3))
    m = torch.nn.Linear(2, 1)
    m.register_backward_hook(lambda mod, gi, go: None)
    m(x)
for item in caught:
    print(item.category.__name__, str(item.message)[:120])
