import torch

x = torch.arange(6).reshape(2, 3).float().requires_grad_()
print(x[0], x[:, 1], x[..., -1], x[x > 2], x[1, 2], x[None].shape)
x[0, 1:].sum().backward()
print(x.grad)
z = torch.zeros(3)
z[1] = 5
z[torch.tensor([0, 2])] = 7
print(z, [t.item() for t in z], list(z.shape))
w = torch.tensor([[1, 2], [3, 4]])
print(w[1], w[:, 0], w[w > 1])
for row in w:
    print(row)
