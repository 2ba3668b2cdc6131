# A learner's own training loop on plain tensors: fit y = 3x - 1 with
# gradient descent, forgetting nothing. The playground's e2e test runs it.
import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 16).unsqueeze(1)
y = 3 * x - 1
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(20):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.3 * w.grad
        b -= 0.3 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 5 == 4:
        print(f"step {step + 1}: loss {loss.item():.6f}")
print(w, b)
