# In-place ops whose backward saves their own result (relu_, sigmoid_, exp_,
# tanh_, sqrt_) save the tensor they wrote: writing it again breaks backward
# with PyTorch's version error; ops that save their input keep a copy.
import torch


def attempt(label, f):
    try:
        print(label, f())
    except RuntimeError as e:
        print(label, "RuntimeError:", e)


a = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
x.relu_()
print(x.grad_fn.name(), x._version)
x.sum().backward()
print(a.grad)


def written_after(op):
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    z = x * 1
    getattr(z, op)()
    before = (z.grad_fn.name(), z._version)
    z.mul_(2)
    z.sum().backward()
    return before, x.grad


for op in ["relu_", "sigmoid_", "tanh_", "exp_", "sqrt_", "neg_", "abs_"]:
    attempt(op, lambda: written_after(op))


def out_of_place_then_written():
    a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    b = a.sigmoid()
    b.mul_(2)
    b.sum().backward()


attempt("sigmoid then mul_", out_of_place_then_written)


def exp_then_iadd():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x.exp()
    y += 1
    y.sum().backward()


attempt("exp then +=", exp_then_iadd)


def twice():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    z = (x * 1).tanh_()
    z.tanh_()
    z.sum().backward()


attempt("tanh_ twice", twice)

# Not modified again: the gradient uses the saved result.
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
z = (x * 1).exp_()
z.sum().backward()
print(x.grad)
z = (x * 1).sigmoid_()
w = z * 3
print(w)

# zero_ and fill_ on a non-leaf: the old value gets a zero gradient.
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = a * 1
x.zero_()
print(x, x._version, x.grad_fn.next_functions[0][0].name())
x.sum().backward()
print(a.grad)
x = a * 1
x.fill_(2.5)
print(x)
(x * x).sum().backward()
print(a.grad)
x = a * 1
with torch.no_grad():
    x.zero_()
print(x)
