# Functions that stack, move, rotate and combine tensors (vstack, movedim,
# rot90, kron, tensordot, cross, unfold, repeat_interleave, ...): PyTorch's
# values, node names and gradients.
import torch

torch.manual_seed(0)
a = torch.arange(6.0).reshape(2, 3).requires_grad_()
b = torch.tensor([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


def show(label, out, inputs):
    print(label, tuple(out.shape), None if out.grad_fn is None else out.grad_fn.name())
    print(out.detach().round(decimals=4))
    weights = torch.arange(1.0, out.numel() + 1).reshape(out.shape)
    grads = torch.autograd.grad((out * weights).sum(), inputs, allow_unused=True)
    for g in grads:
        print(g)


show("vstack", torch.vstack([a, v]), [a, v])
show("hstack", torch.hstack([a, b]), [a, b])
show("hstack 1d", torch.hstack((v, v)), [v])
show("dstack", torch.dstack([a, b]), [a, b])
show("column_stack", torch.column_stack([v, v * 2]), [v])
show("movedim", torch.movedim(a.reshape(1, 2, 3), 0, 2), [a])
show("movedim seq", a.reshape(1, 2, 3).movedim((0, 1), (2, 0)), [a])
show("swapaxes", torch.swapaxes(a, 0, 1), [a])
show("swapdims", a.swapdims(1, 0), [a])
idx = torch.tensor([[2], [0]])
show("take_along_dim", torch.take_along_dim(a, idx, dim=1), [a])
show("take_along_dim flat", torch.take_along_dim(a, torch.tensor([5, 0, 3])), [a])
show("take_along_dim argsort", torch.take_along_dim(b, b.argsort(dim=1), dim=1), [b])
show("diff", torch.diff(b), [b])
show("diff n=2 dim 0", torch.diff(b, n=2, dim=1), [b])
show("diff prepend", torch.diff(v, prepend=torch.tensor([0.0])), [v])
show("cross", torch.cross(b, a, dim=1), [a, b])
show("linalg-style cross", torch.cross(v, torch.tensor([0.0, 1.0, 0.0]), dim=0), [v])
show("kron", torch.kron(a, b), [a, b])
show("kron 1d", torch.kron(v, torch.tensor([1.0, 10.0])), [v])
for k in [1, 2, 3, -1, 0]:
    show(f"rot90 k={k}", torch.rot90(a, k), [a])
show("rot90 dims", a.reshape(1, 2, 3).rot90(1, [1, 2]), [a])
show("tensordot", torch.tensordot(a, b, dims=([1], [1])), [a, b])
show("tensordot 2", torch.tensordot(a, b, dims=2), [a, b])
show("tensordot 0", torch.tensordot(v, v, dims=0), [v])
show("inner", torch.inner(a, b), [a, b])
show("inner 1d", torch.inner(v, v), [v])
show("dist", torch.dist(a, b), [a, b])
show("dist p=1", torch.dist(a, b, p=1), [a, b])
show("dist p=3", torch.dist(a, b, 3), [a, b])
show("dist inf", torch.dist(a, b, float("inf")), [a, b])
gx, gy = torch.meshgrid(v, v[:2], indexing="ij")
show("meshgrid ij", gx * 2 + gy, [v])
gx, gy = torch.meshgrid(v, v[:2], indexing="xy")
show("meshgrid xy", gx * 2 + gy, [v])
print(torch.tril_indices(3, 3))
print(torch.triu_indices(3, 4, offset=1))
print(torch.tril_indices(4, 3, -1))
print(torch.logspace(0, 2, 5))
print(torch.logspace(-1, 1, 3, base=2.0))
t = torch.as_tensor([1, 2, 3])
print(t, t.dtype, torch.as_tensor(a) is a, torch.as_tensor([1.5], dtype=torch.float32))
show("repeat_interleave", torch.repeat_interleave(v, 2), [v])
show("repeat_interleave dim", a.repeat_interleave(2, dim=0), [a])
show("repeat_interleave tensor", a.repeat_interleave(torch.tensor([1, 0, 3]), dim=1), [a])
show("repeat_interleave flat", a.repeat_interleave(2), [a])
print(torch.repeat_interleave(torch.tensor([2, 0, 1])))
x = torch.arange(7.0, requires_grad=True)
show("unfold", x.unfold(0, 3, 2), [x])
show("unfold overlap", a.unfold(1, 2, 1), [a])
show("unfold 2d rows", a.unfold(0, 1, 1), [a])

for bad in [
    lambda: torch.rot90(v),
    lambda: torch.rot90(a, 1, [0]),
    lambda: torch.cross(a, b, dim=0),
    lambda: torch.tensordot(a, b, dims=([0], [1])),
    lambda: x.unfold(0, 9, 1),
    lambda: torch.diff(torch.tensor(1.0)),
    lambda: torch.movedim(a, 2, 0),
]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
print(torch.logspace(2, 3, 1), torch.logspace(0, 1, 0))
print(torch.nn.functional.hardtanh(torch.tensor([-3, 0, 4])), torch.nn.functional.relu6(torch.tensor([-3, 0, 7])))
