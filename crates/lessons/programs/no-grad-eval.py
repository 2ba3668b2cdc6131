import torch

MODE = "no_grad"
BATCH = 64
READ_VERSION = False
REUSE_INFERENCE_TENSOR = False

model = torch.nn.Sequential(
    torch.nn.Linear(32, 128), torch.nn.ReLU(),
    torch.nn.Linear(128, 128), torch.nn.ReLU(),
    torch.nn.Linear(128, 10),
)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.61 + i).reshape(p.shape) * 0.1)
x = torch.cos(torch.arange(BATCH * 32) * 0.05).reshape(BATCH, 32)

modes = {
    "grad": torch.enable_grad,
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
}
with torch.profiler.record_function("eval"):
    with modes[MODE]():
        out = model(x)
        score = out.sum()
print(MODE, out.requires_grad, out.is_inference(), f"{score.item():.4f}")

if READ_VERSION:
    with torch.profiler.record_function("in-place"):
        with modes[MODE]():
            out.mul_(2)
        print("out._version:", out._version)

if REUSE_INFERENCE_TENSOR:
    with torch.inference_mode():
        features = model(x)
    head = torch.nn.Linear(10, 1)
    head(features).sum().backward()
