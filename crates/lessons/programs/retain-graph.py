import torch

RETAIN = True
STEPS = 5

x = torch.tensor(1.0, requires_grad=True)
y = x ** 3

with torch.profiler.record_function("first backward"):
    y.backward(retain_graph=True)
print(x.grad)

with torch.profiler.record_function("second backward"):
    y.backward()
print(x.grad)

w = torch.linspace(-1.0, 1.0, 256, requires_grad=True)
kept = []
with torch.profiler.record_function("loop"):
    for step in range(STEPS):
        loss = (torch.tanh(w * (step + 1)) ** 2).sum()
        loss.backward(retain_graph=RETAIN)
        kept.append(loss)

print(len(kept), f"{w.grad.norm().item():.4f}")
