# Three silent failures: forward under no_grad, a detach in the middle,
# a frozen layer.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(8, 3)
y = torch.randn(8, 1)

first = nn.Linear(3, 4)
second = nn.Linear(4, 1)
h = first(x).relu().detach()
loss = nn.functional.mse_loss(second(h), y)
loss.backward()
print("detach: first grad", first.weight.grad, "second grad is None:", second.weight.grad is None)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
for p in model[0].parameters():
    p.requires_grad = False
before = model[0].weight.clone()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
print("frozen unchanged:", torch.equal(before, model[0].weight), model[0].weight.grad)
print([n for n, p in model.named_parameters() if p.requires_grad])

with torch.no_grad():
    loss = nn.functional.mse_loss(model(x), y)
print(loss.requires_grad)
loss.backward()
