import torch

SECOND_BACKWARD = False

with torch.profiler.record_function("forward"):
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()

print(out)
print(out.grad_fn.name())
print([f.name() for f, _ in out.grad_fn.next_functions])

with torch.profiler.record_function("backward"):
    out.backward()

print(x.grad)

if SECOND_BACKWARD:
    with torch.profiler.record_function("second backward"):
        out.backward()
