# In-place ops on views: the base's history becomes CopySlices, the views'
# AsStridedBackward0, and the gradients are PyTorch's; a view of a leaf that
# requires grad, a view made under no_grad and split's outputs refuse.
import torch


def attempt(label, f):
    try:
        print(label, f())
    except RuntimeError as e:
        print(label, "RuntimeError:", e)


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = a.clone()
v = base[0]
v.mul_(2)
print(base)
print(v)
print(type(base.grad_fn).__name__, v.grad_fn.name(), base._version, v._version)
print(v.grad_fn.next_functions[0][0] == base.grad_fn)
base.sum().backward()
print(a.grad)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([2.0, 3.0], requires_grad=True)
base = a * 1
v = base[1:]
v.mul_(w)
print(base, len(base.grad_fn.next_functions))
(base * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(a.grad, w.grad)

# A sibling view and the base itself modified in place.
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = a * 1
v1 = base[0]
v2 = base[1:]
print(v2.grad_fn.name())
v1.mul_(5)
print(v2.grad_fn.name())
(v2 * 2).sum().backward()
print(a.grad)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = a * 1
v = base[1:]
base.mul_(5)
print(v, v._version)
v.sum().backward()
print(a.grad)

# Writing into zeros through views: setitem is copy_ into a view.
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.zeros(2, 3)
out[0] = w * 2
out[1] = w
print(out)
(out * torch.tensor([[1.0], [10.0]])).sum().backward()
print(w.grad)

# Result-saving ops on views, and a chain of views.
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = a.clone()
base[0].sigmoid_()
base.sum().backward()
print(a.grad)
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
base = a.clone()
v = base.t()[0]
v.exp_()
print(v.grad_fn.name())
base.sum().backward()
print(a.grad)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
x[0].zero_()
print(x)
x.sum().backward()
print(a.grad)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
x[1:].exp_()
(g,) = torch.autograd.grad(x.sum(), a, create_graph=True)
g.sum().backward()
print(a.grad)


def sigmoid_view_then_written():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    base = a.clone()
    v = base[0]
    v.sigmoid_()
    v.mul_(2)
    base.sum().backward()


attempt("view sigmoid_ then mul_", sigmoid_view_then_written)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
attempt("leaf view", lambda: a[0].mul_(2))
attempt("leaf view()", lambda: a.view(3).add_(1))
attempt("leaf", lambda: a.add_(1))
with torch.no_grad():
    a[0].mul_(2)
print(a, a._version)

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True) * 1
with torch.no_grad():
    nv = x[0:2]
attempt("no_grad view", lambda: nv.mul_(2))
pieces = x.split(2)
attempt("split 0", lambda: pieces[0].mul_(2))
attempt("split 1", lambda: pieces[1].mul_(2))
attempt("chunk", lambda: x.chunk(2)[0].add_(1))
attempt("unbind 2", lambda: x.unbind(0)[2].mul_(2))
print(x._version)
