# A custom autograd Function: a stable log-sum-exp with its own backward,
# a straight-through estimator, and gradcheck in float64.
import torch

SCALE = 100.0


class LogSumExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        m = x.max()
        out = m + (x - m).exp().sum().log()
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return grad * (x - out).exp()


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.round()

    @staticmethod
    def backward(ctx, grad):
        return grad


x = torch.tensor([1.0, 2.0, 3.0]) * SCALE
x.requires_grad_()
naive = x.exp().sum().log()
stable = LogSumExp.apply(x)
print(naive, stable)
stable.backward()
print(x.grad)
print(torch.allclose(x.grad, torch.softmax(x.detach(), dim=0)))
print(type(stable.grad_fn).__name__)

y = torch.tensor([0.4, 1.6, -2.2], requires_grad=True)
r = RoundSTE.apply(y)
print(r)
(r * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(y.grad)

z = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(LogSumExp.apply, (z,)))


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, None


w = torch.ones(2, requires_grad=True)
Scale.apply(w, 3.0).sum().backward()
print(w.grad)


class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


Wrong.apply(torch.ones(1, requires_grad=True)).backward()
