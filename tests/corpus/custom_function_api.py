# Custom autograd Functions as tutorials and PyTorch's docs write them: a
# `dim` argument whose gradient is None, an optional bias (PyTorch's
# LinearFunction), gradcheck and gradgradcheck, and ctx's API.
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable


class StableLogSumExp(Function):
    @staticmethod
    def forward(ctx, x, dim):
        m, _ = x.max(dim=dim, keepdim=True)
        out = m + (x - m).exp().sum(dim=dim, keepdim=True).log()
        ctx.save_for_backward(x, out)
        ctx.dim = dim
        return out.squeeze(dim)

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return grad.unsqueeze(ctx.dim) * (x - out).exp(), None


torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
y = StableLogSumExp.apply(x, 1)
print(y)
print(torch.allclose(y, torch.logsumexp(x, dim=1)))
y.sum().backward()
print(x.grad)
print(gradcheck(StableLogSumExp.apply, (x, 1)))
print(gradcheck(lambda t: StableLogSumExp.apply(t, 0), (x,)))


VERBOSE = True


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if VERBOSE:
            print("needs_input_grad", ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


inp = torch.randn(5, 3, dtype=torch.double, requires_grad=True)
weight = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
bias = torch.randn(2, dtype=torch.double, requires_grad=True)
out = LinearFunction.apply(inp, weight, bias)
print(out.grad_fn.__class__.__name__)
out.sum().backward()
print(weight.grad)
print(bias.grad)
VERBOSE = False
print(gradcheck(LinearFunction.apply, (inp, weight, bias), eps=1e-6, atol=1e-4))
print(gradcheck(LinearFunction.apply, (inp, weight), eps=1e-6, atol=1e-4))
print(gradcheck(LinearFunction.apply, (inp, weight, None), eps=1e-6, atol=1e-4))
print(gradgradcheck(LinearFunction.apply, (inp, weight, bias)))
VERBOSE = True
frozen = torch.randn(2, 3, dtype=torch.double)
LinearFunction.apply(inp, frozen).sum().backward()
print(inp.grad.shape)


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        # extra trailing Nones are accepted
        return grad_output * ctx.constant, None, None


a = torch.ones(3, requires_grad=True)
MulConstant.apply(a, 5.0).sum().backward()
print(a.grad)


class Sort(Function):
    @staticmethod
    def forward(ctx, x):
        idx = x.argsort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return x.sort().values, idx

    @staticmethod
    def backward(ctx, g1, g2):
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input


s = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, idx = Sort.apply(s)
print(values, idx, idx.requires_grad)
(values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(s.grad)


class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:
            grad_input += g1
        if g2 is not None:
            grad_input += g2 * 2
        return grad_input


b = torch.tensor([1.0, 2.0], requires_grad=True)
o1, o2 = SimpleFunc.apply(b)
o1.sum().backward()
print(b.grad)


class Square(Function):
    @staticmethod
    def forward(ctx, x, unused):
        ctx.save_for_backward(x, None)
        return x ** 2

    @staticmethod
    def backward(ctx, grad):
        x, nothing = ctx.saved_tensors
        print("saved None:", nothing)
        return 2 * x * grad, None


c = torch.tensor([3.0], requires_grad=True)
Square.apply(c, torch.ones(1)).backward()
print(c.grad)


class Wrong(Function):
    @staticmethod
    def forward(ctx, x, dim):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad, grad, grad


Wrong.apply(torch.ones(1, requires_grad=True), 0).backward()
