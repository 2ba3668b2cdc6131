import torch

W = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
x = torch.tensor([1.0, -1.0], requires_grad=True)
b = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
y = W @ x + b
print(y, y.grad_fn, y.grad_fn.next_functions)
h = torch.tanh(y)
out = h.sum()
out.backward()
print(W.grad, x.grad, b.grad, sep="\n")
A = torch.ones(2, 3)
B = torch.ones(3, 4)
print(torch.matmul(A, B), A.mm(B).shape, torch.ones(5, 2, 3).bmm(torch.ones(5, 3, 1)).shape)
print(torch.tensor([1.0, 2.0]).dot(torch.tensor([3.0, 4.0])))
