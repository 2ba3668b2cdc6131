# copy_ records one CopyBackwards node, as PyTorch does: its edges are the
# old value's history and the source's; a broadcast source shows no
# ExpandBackward0, and its gradient is summed back to its shape.
import torch


def edges(t):
    return [n for n, _ in t.grad_fn.next_functions]


a = torch.zeros(2, 3)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a.copy_(b)
print(a)
print(a.grad_fn, edges(a))
a.sum().backward()
print(b.grad)

p = torch.zeros(3, requires_grad=True)
q = p * 1
q.copy_(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True))
print(q, edges(q))
q.sum().backward()
print(p.grad)

q = p * 1
q.copy_(torch.ones(3))
print(q, q.requires_grad, edges(q))

s = torch.tensor(5.0, requires_grad=True)
a = torch.zeros(2, 2).copy_(s)
a.sum().backward()
print(a, s.grad)

base = torch.zeros(2, 3)
b = torch.tensor([1.0], requires_grad=True)
base[1].copy_(b)
print(base, edges(base))
base.sum().backward()
print(b.grad)

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.zeros(2, 3)
out[0] = w * 2
out[1].copy_(w)
(out * torch.tensor([[1.0], [10.0]])).sum().backward()
print(out, w.grad)
