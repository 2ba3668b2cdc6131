# Idioms from classic tutorials: .data updates, torch.max over a dim,
# accuracy counting, a Dataset subclass, saving and loading a state_dict.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device)


class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.linspace(-1, 1, n).unsqueeze(1)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], int(i % 2)


loader = DataLoader(Squares(8), batch_size=4)
for xb, yb in loader:
    print(xb.shape, yb)

model = nn.Linear(1, 2).to(device)
for xb, yb in loader:
    out = model(xb)
    loss = F.cross_entropy(out, yb)
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.1 * p.grad.data
    _, predicted = torch.max(out.data, 1)
    correct = (predicted == yb).sum().item()
    print(predicted, correct, round(loss.item(), 4))

w = torch.randn(3, requires_grad=True)
w.data.mul_(0.5)
print(w, w.grad_fn, w.is_leaf)
buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
fresh = nn.Linear(1, 2)
print(fresh.load_state_dict(torch.load(buffer)))
print(torch.equal(fresh.weight, model.weight))
print(torch.max(torch.tensor([[1, 5], [7, 2]]), dim=1))
print(torch.tensor([3.0, 1.0]).argsort())
