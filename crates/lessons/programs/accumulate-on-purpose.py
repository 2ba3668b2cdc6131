import torch

MICRO_BATCHES = 4

BATCH = 32
x = torch.sin(torch.arange(BATCH * 16) * 0.37).reshape(BATCH, 16)
y = torch.cos(torch.arange(BATCH) * 0.5).reshape(BATCH, 1)

model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.Tanh(), torch.nn.Linear(64, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.7 + i).reshape(p.shape) * 0.3)
loss_fn = torch.nn.MSELoss()

with torch.profiler.record_function("full batch"):
    loss_fn(model(x), y).backward()
full = [p.grad.clone() for p in model.parameters()]
model.zero_grad()

with torch.profiler.record_function("micro-batches"):
    for xb, yb in zip(x.chunk(MICRO_BATCHES), y.chunk(MICRO_BATCHES)):
        (loss_fn(model(xb), yb) / MICRO_BATCHES).backward()

diff = max((p.grad - g).abs().max().item() for p, g in zip(model.parameters(), full))
print("largest difference from the full batch:", diff < 1e-5)
