# grad_fn._saved_* attributes as PyTorch names them per node, None where
# the node did not need the tensor, and the error once backward freed them.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
z = x * y
print(z.grad_fn._saved_self, z.grad_fn._saved_other)
print(z.grad_fn._saved_self is x, torch.equal(z.grad_fn._saved_other, y))
e = x.exp()
print(e.grad_fn._saved_result, torch.equal(e.grad_fn._saved_result, e))
t = (x * 3).tanh()
print(t.grad_fn._saved_result)
m = torch.arange(6.0).reshape(2, 3).requires_grad_()
w = torch.ones(3, 2, requires_grad=True)
mm = m.mm(w)
print(mm.grad_fn._saved_self.shape, mm.grad_fn._saved_mat2.shape)
p = x ** 3
print(type(p.grad_fn).__name__, p.grad_fn._saved_self)
d = x / y
print(d.grad_fn._saved_self, d.grad_fn._saved_other)
s = x.sin()
print(s.grad_fn._saved_self)
c = torch.tensor([1.0, 2.0]) * y
print(c.grad_fn._saved_self, c.grad_fn._saved_other)
try:
    z.grad_fn._saved_mat2
except AttributeError as err:
    print("AttributeError", err)
z.sum().backward()
try:
    z.grad_fn._saved_self
except RuntimeError as err:
    print("RuntimeError", err)
