import torch

ANOMALY = False
FIX = False
CLIP = False

logits = torch.tensor([[30.0, -80.0, 0.0], [2.0, 1.0, -1.0]], requires_grad=True)
target = torch.tensor([0, 2])

torch.autograd.set_detect_anomaly(ANOMALY)

with torch.profiler.record_function("forward"):
    if FIX:
        logp = torch.log_softmax(logits, dim=1)
    else:
        p = torch.softmax(logits, dim=1)
        logp = torch.log(p)
    loss = -logp[torch.arange(2), target].mean()
print(f"loss {loss.item():.4f}")

with torch.profiler.record_function("backward"):
    (loss * 100).backward()

print("gradient has NaN:", torch.isnan(logits.grad).sum().item() > 0)
if CLIP:
    with torch.profiler.record_function("clip"):
        total = torch.nn.utils.clip_grad_norm_([logits], max_norm=1.0)
    print(f"norm before clipping: {total.item():.4f}")
