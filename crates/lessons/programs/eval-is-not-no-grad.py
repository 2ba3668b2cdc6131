import torch

EVAL = True
NO_GRAD = False

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(8, 32), torch.nn.BatchNorm1d(32), torch.nn.ReLU(),
    torch.nn.Dropout(0.5), torch.nn.Linear(32, 1),
)
x = torch.sin(torch.arange(16 * 8) * 0.3).reshape(16, 8)

if EVAL:
    model.eval()
else:
    model.train()

stats_before = model[1].running_mean.clone()
with torch.profiler.record_function("forward"):
    if NO_GRAD:
        with torch.no_grad():
            first = model(x)
            second = model(x)
    else:
        first = model(x)
        second = model(x)

with torch.profiler.record_function("compare"):
    passes_differ = (first - second).abs().sum().item()
    stats_moved = (model[1].running_mean - stats_before).abs().sum().item()

print("training mode:", model.training)
print("graph built:", first.requires_grad)
print("two passes differ:", passes_differ > 0)
print("running stats changed:", stats_moved > 0)
