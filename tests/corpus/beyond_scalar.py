# Vector outputs: gradient=, autograd.grad, and a Hessian via create_graph.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2 * torch.tensor([1.0, -1.0, 0.5])
v = torch.tensor([1.0, 0.5, 2.0])
y.backward(gradient=v, retain_graph=True)
print(x.grad)
rows = []
for i in range(3):
    (g,) = torch.autograd.grad(y[i], x, retain_graph=True)
    rows.append(g)
J = torch.stack(rows)
print(J)
print(J.T @ v)
x.grad = None
z = (x ** 3).sum()
(g,) = torch.autograd.grad(z, x, create_graph=True)
print(g, x.grad)
h = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)])
print(h)
print(torch.equal(h.sum(dim=0), 6 * x.detach()))
y.sum().backward()
y.backward()
