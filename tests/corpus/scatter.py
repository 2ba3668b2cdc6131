# scatter: the one-hot of a label batch, writes of a source, their nodes and
# gradients, the in-place form, and PyTorch's errors.
import torch

labels = torch.tensor([2, 0, 3])
one_hot = torch.zeros(3, 4).scatter(1, labels.unsqueeze(1), 1.0)
print(one_hot)
print(torch.zeros(3, 4).scatter_(1, labels.unsqueeze(1), value=2.5))

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
src = torch.tensor([[10.0, 20.0], [30.0, 40.0]], requires_grad=True)
index = torch.tensor([[0, 2], [1, 0]])
y = x.scatter(1, index, src)
print(y, y.grad_fn.name())
weights = torch.arange(1.0, 7.0).reshape(2, 3)
(y * weights).sum().backward()
print(x.grad)
print(src.grad)

z = x.scatter(0, torch.tensor([[1, 0, 1]]), -1.0)
print(z, z.grad_fn.name())
x.grad = None
z.sum().backward()
print(x.grad)

w = torch.ones(2, 3)
w.scatter_(1, torch.tensor([[2], [0]]), torch.tensor([[7.0], [8.0]]))
print(w)
print(torch.scatter(torch.zeros(2, 2), 0, torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]])))

for bad in [
    lambda: torch.zeros(2, 3).scatter(1, torch.tensor([[3]]), 1.0),
    lambda: torch.zeros(2, 3).scatter(1, torch.tensor([[0]]), torch.ones(1, 1, dtype=torch.int64)),
    lambda: torch.zeros(2, 3).scatter(1, torch.tensor([[0.0]]), 1.0),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
