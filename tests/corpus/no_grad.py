import torch

x = torch.ones(3, requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    y = x * 2
    print(torch.is_grad_enabled(), y.requires_grad, y.grad_fn)
    with torch.enable_grad():
        z = x * 2
        print(z.requires_grad, z.grad_fn)
print(torch.is_grad_enabled())


@torch.no_grad()
def double(t):
    return t * 2


print(double(x).requires_grad)

with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (x + 1).requires_grad)
print(torch.is_grad_enabled())

torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x + 1).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled(), (x + 1).requires_grad)

with torch.inference_mode():
    w = x * 3
print(w.requires_grad, w.is_inference(), x.is_inference())
