import torch

KEEP_TENSOR = True
STEPS = 10

x = torch.sin(torch.arange(64 * 8) * 0.3).reshape(64, 8)
y = torch.cos(torch.arange(64) * 0.2).reshape(64, 1)
probe = torch.sin(torch.arange(256 * 8) * 0.11).reshape(256, 8)

model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.9 + i).reshape(p.shape) * 0.3)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

history = []
with torch.profiler.record_function("train"):
    for step in range(STEPS):
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        # The value we log: the mean output on a probe batch, computed with
        # grad enabled as a training loop does unless told otherwise.
        watched = model(probe).mean()
        history.append(watched if KEEP_TENSOR else watched.item())

print("values kept:", len(history))
