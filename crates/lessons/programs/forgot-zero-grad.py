import math
import torch

ZERO_GRAD = True
STEPS = 5
LR = 0.1

# A line fit: y = 2x - 1 on five batches of eight points.
def batch(step):
    x = torch.linspace(-1.0, 1.0, 8) + 0.1 * step
    return x.reshape(8, 1), (2 * x - 1).reshape(8, 1)

w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=LR)

for step in range(STEPS):
    with torch.profiler.record_function("step"):
        xb, yb = batch(step)
        if ZERO_GRAD:
            optimizer.zero_grad()
        loss = ((xb @ w + b - yb) ** 2).mean()
        # This batch's gradient alone, returned without touching .grad.
        batch_grads = torch.autograd.grad(loss, [w, b], retain_graph=True)
        loss.backward()
        norm = math.sqrt(w.grad.norm().item() ** 2 + b.grad.norm().item() ** 2)
        print(f"step {step}: loss {loss.item():.4f}  grad norm {norm:.4f}")
        optimizer.step()
