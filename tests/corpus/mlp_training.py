# A small MLP learning a two-class problem: loss falls, accuracy rises.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N = 64
x = torch.randn(N, 2)
y = ((x[:, 0] * x[:, 1]) > 0).long()
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(30):
    model.train()
    opt.zero_grad()
    logits = model(x)
    loss = loss_fn(logits, y)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        with torch.no_grad():
            acc = (model(x).argmax(dim=1) == y).float().mean()
        print(f"epoch {epoch:2d} loss {loss.item():.4f} acc {acc.item():.3f}")
model.eval()
with torch.no_grad():
    probs = F.softmax(model(x[:4]), dim=1)
print(probs)
