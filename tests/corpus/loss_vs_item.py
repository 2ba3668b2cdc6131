# Keeping `loss` keeps its graph; `loss.item()` keeps a float.
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 3)
y = torch.randn(8, 1)
kept, floats = [], []
for step in range(3):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    kept.append(loss)
    floats.append(loss.item())
print(kept)
print([type(v).__name__ for v in floats], [round(v, 5) for v in floats])
print(sum(floats) / len(floats))
total = sum(kept)
print(total, total.grad_fn.name())
print(torch.stack(kept).detach())
