import torch

t = torch.tensor([[1.5, 2.0], [3.0, 4.25]])
print(t.tolist(), t.sum().item(), t.numel(), t.dim(), t.ndim)
print(torch.tensor([1, 2]).tolist(), torch.tensor(5).item(), torch.tensor(True).item())
print(float(torch.tensor(2.5)), int(torch.tensor(3.9)), bool(torch.tensor(0.0)))
print(len(t), t.size(0), t.size(-1), t.shape[1], list(t.shape))
print(f"{t.mean():.3f}", f"{t.mean().item():.2f}")
x = torch.ones(3, requires_grad=True)
print((x * 2).sum().item(), x.detach().requires_grad, x.data.requires_grad)
t.sum().item()
t.item()
