# The worker's later warm-up rounds (crates/webworker/src/program.rs runs it a
# few times while the page idles, its output and trace dropped): what the
# digits lesson does that the first round does not. It reads a gzipped CSV
# into a tensor and trains a 64-32-10 network on batches of 50, the sizes
# that lesson uses, so their code is optimised before a learner's first run.
# Here it is held to PyTorch, so a change that breaks it fails a test instead
# of silently warming nothing.
import csv
import gzip
import itertools
import math
import torch

with gzip.open("digits.csv.gz", "rt") as f:
    rows = [[float(v) for v in row] for row in itertools.islice(csv.reader(f), 250)]
data = torch.tensor(rows)
images, labels = data[:, :64] / 16, data[:, 64].long()
train_x, train_y = images[:200], labels[:200]
val_x, val_y = images[200:], labels[200:]

model = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        fan_in = p.shape[-1] if p.dim() > 1 else 32
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.91 + i).reshape(p.shape) / math.sqrt(fan_in))
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = torch.nn.CrossEntropyLoss()

for epoch in range(2):
    model.train()
    total = 0.0
    with torch.profiler.record_function("train"):
        for start in range(0, len(train_x), 50):
            optimizer.zero_grad()
            loss = loss_fn(model(train_x[start:start + 50]), train_y[start:start + 50])
            loss.backward()
            optimizer.step()
            total += loss.item()
    model.eval()
    with torch.no_grad():
        accuracy = (model(val_x).argmax(dim=1) == val_y).float().mean().item()
    print(f"epoch {epoch + 1}: loss {total / math.ceil(len(train_x) / 50):.3f}, accuracy {accuracy:.3f}")
