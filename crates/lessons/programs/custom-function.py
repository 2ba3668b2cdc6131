import torch

SCALE = 100


class StableLogSumExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        m = x.max()
        result = m + torch.log(torch.exp(x - m).sum())
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return grad * torch.exp(x - result)


class RoundThrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad):
        return grad


values = torch.tensor([0.25, 0.5, 1.0, 0.75])

with torch.profiler.record_function("naive"):
    a = (values * SCALE).requires_grad_()
    naive = torch.log(torch.exp(a).sum())
    naive.backward()
print("naive:", naive.item())

with torch.profiler.record_function("stable"):
    b = (values * SCALE).requires_grad_()
    stable = StableLogSumExp.apply(b)
    stable.backward()
print("stable:", f"{stable.item():.4f}")

with torch.profiler.record_function("reference"):
    c = (values * SCALE).requires_grad_()
    (c.max() + torch.log(torch.exp(c - c.max()).sum())).backward()
print("softmax gradient:", (b.grad - c.grad).abs().max().item() < 1e-6)

with torch.profiler.record_function("gradcheck"):
    # gradcheck wants float64, which GPUs such as WebGPU lack: keep it on the CPU.
    d = torch.tensor([0.1, -0.4, 0.3], dtype=torch.float64, device="cpu", requires_grad=True)
    print("gradcheck:", torch.autograd.gradcheck(StableLogSumExp.apply, (d,)))

with torch.profiler.record_function("straight-through"):
    e = torch.tensor([0.2, 1.7, -0.6], requires_grad=True)
    (RoundThrough.apply(e) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
with torch.profiler.record_function("identity"):
    f = torch.tensor([0.2, 1.7, -0.6], requires_grad=True)
    (f * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("straight-through gradient:", e.grad)
