# A view made under no_grad of a tensor that requires grad requires grad
# too, as its base does, but has no history: ops on it record nodes whose
# edges lead nowhere, and in-place writes on it (or on views of it) with
# grad mode on are refused.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    v = x[0:2]
    e = x.expand(2, 3)
    parts = x.split(1)
    print("inside", v.requires_grad)
print(v, v.requires_grad, v.grad_fn, v.is_leaf)
print(e.requires_grad, [p.requires_grad for p in parts], [p.grad_fn for p in parts])

m = v * 2
print(m, [n for n, _ in m.grad_fn.next_functions])
m.sum().backward()
print(x.grad, v.grad)

y = x * 1
with torch.no_grad():
    vy = y.view(3)
print(vy, vy.grad_fn, vy.is_leaf)

z = torch.ones(3)
with torch.no_grad():
    vz = z[1:]
print(vz.requires_grad)

v3 = v[0:1]
print(v3.requires_grad, v3.grad_fn, [n for n, _ in v3.grad_fn.next_functions])
try:
    v3.mul_(2)
except RuntimeError as err:
    print(err)

with torch.no_grad():
    w = x[1:]
    w.mul_(2)
print(x)

v.mul_(2)
