import torch

CREATE_GRAPH = True
SCALAR_ONLY_ERROR = False

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.tensor([1.0, 0.5, 0.25])
y = x * x * torch.tensor([1.0, -1.0, 2.0])

if SCALAR_ONLY_ERROR:
    y.backward()

with torch.profiler.record_function("vjp"):
    y.backward(gradient=v, retain_graph=True)
print("J^T v:", x.grad)

x.grad = None
with torch.profiler.record_function("row by row"):
    for i in range(3):
        (y[i] * v[i]).backward(retain_graph=True)
print("rows: ", x.grad)

x.grad = None
with torch.profiler.record_function("autograd.grad"):
    (g,) = torch.autograd.grad(y.sum(), x)
print("autograd.grad:", g, "x.grad:", x.grad)

t = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
with torch.profiler.record_function("second derivative"):
    (t ** 3).sum().backward(create_graph=CREATE_GRAPH)
    first = t.grad.detach().clone()
    print("first:", first)
    if CREATE_GRAPH:
        t.grad.sum().backward()
        print("second:", (t.grad - first).detach())
