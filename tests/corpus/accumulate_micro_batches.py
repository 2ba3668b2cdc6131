# Gradient accumulation: N micro-batches with loss / N equal one big batch.
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
x = torch.randn(12, 4)
y = torch.randn(12, 1)
loss_fn = torch.nn.MSELoss()

model.zero_grad()
loss_fn(model(x), y).backward()
full = [p.grad.clone() for p in model.parameters()]

for n in [2, 3, 4]:
    model.zero_grad()
    for xb, yb in zip(x.chunk(n), y.chunk(n)):
        (loss_fn(model(xb), yb) / n).backward()
    diff = max((p.grad - g).abs().max().item() for p, g in zip(model.parameters(), full))
    print(n, diff < 1e-6)
print(full[0][0])
