# The last lesson's loop on the digits file: read it with gzip and csv,
# train an MLP, validate under eval() and no_grad.
import csv
import gzip
import math
import torch

EPOCHS = 2
LR = 1.0
BATCH = 100

with gzip.open("digits.csv.gz", "rt") as f:
    rows = [[float(v) for v in row] for row in csv.reader(f)]
print(len(rows), len(rows[0]))
data = torch.tensor(rows)
images, labels = data[:, :64] / 16, data[:, 64].long()
print(images.shape, labels[:10])
train_x, train_y = images[:1500], labels[:1500]
val_x, val_y = images[1500:], labels[1500:]

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
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
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            total += loss.item()
    batches = math.ceil(len(train_x) / BATCH)
    print(f"epoch {epoch + 1}: loss {total / batches:.3f}, accuracy {accuracy():.3f}, last norm {norm.item():.3f}")
