# Evaluation with grad, under no_grad, and under inference_mode.
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
x = torch.randn(5, 4)
out = model(x)
print(out.requires_grad, out.grad_fn)
with torch.no_grad():
    out = model(x)
print(out.requires_grad, out.grad_fn)
with torch.inference_mode():
    out = model(x)
    print(torch.is_inference_mode_enabled(), out.is_inference())
print(out.requires_grad, out.is_inference())
print(torch.is_inference_mode_enabled())


@torch.no_grad()
def evaluate(m, data):
    return m(data).mean()


print(evaluate(model, x))
w = torch.ones(1, 4, requires_grad=True)
(out * w).sum().backward()
