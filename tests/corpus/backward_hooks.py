# Module.register_full_backward_hook, as Grad-CAM and gradient-inspection
# code uses it: the hook sees the module's input and output gradients,
# can replace the input gradient, and the output records PyTorch's
# BackwardHookFunctionBackward.
import warnings

import torch
import torch.nn as nn

warnings.simplefilter("ignore")
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 3))
seen = []


def record(module, grad_input, grad_output):
    seen.append((type(module).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
                 [tuple(g.shape) for g in grad_output]))
    seen.append(grad_output[0].detach().abs().sum().round(decimals=4))


handle = model[0].register_full_backward_hook(record)
model[3].register_full_backward_hook(record)
image = torch.randn(1, 1, 4, 4, requires_grad=True)
out = model(image)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
out[0, 1].backward()
for item in seen:
    print(item)
print(image.grad.abs().sum().round(decimals=4))

seen.clear()
model(torch.randn(1, 1, 4, 4)).sum().backward()
print(seen[0], seen[2])

handle.remove()
layer = nn.Linear(3, 2)
layer.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0,))
x = torch.randn(4, 3, requires_grad=True)
layer(x).sum().backward()
print(x.grad, layer.weight.grad.abs().sum().round(decimals=4))
