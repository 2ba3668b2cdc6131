import csv
import gzip
import math
import torch

EPOCHS = 5
LR = 1.0
BATCH = 50

with gzip.open("digits.csv.gz", "rt") as f:
    rows = [[float(v) for v in row] for row in csv.reader(f)]
data = torch.tensor(rows)
images, labels = data[:, :64] / 16, data[:, 64].long()
train_x, train_y = images[:1500], labels[:1500]
val_x, val_y = images[1500:], labels[1500:]

model = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        fan_in = p.shape[-1] if p.dim() > 1 else 32
        p.copy_(torch.sin(torch.arange(p.numel()) * 1.37 + i).reshape(p.shape) / math.sqrt(fan_in))
optimizer = torch.optim.SGD(model.parameters(), lr=LR)
loss_fn = torch.nn.CrossEntropyLoss()


def accuracy():
    model.eval()
    with torch.profiler.record_function("validate"):
        with torch.no_grad():
            return (model(val_x).argmax(dim=1) == val_y).float().mean().item()


print(f"before training: accuracy {accuracy():.3f}")
for epoch in range(EPOCHS):
    model.train()
    total = 0.0
    with torch.profiler.record_function("train"):
        for start in range(0, len(train_x), BATCH):
            optimizer.zero_grad()
            loss = loss_fn(model(train_x[start:start + BATCH]), train_y[start:start + BATCH])
            loss.backward()
            optimizer.step()
            total += loss.item()
    batches = math.ceil(len(train_x) / BATCH)
    print(f"epoch {epoch + 1}: loss {total / batches:.3f}, accuracy {accuracy():.3f}")
