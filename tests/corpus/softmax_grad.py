import torch

logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
p = logits.softmax(dim=1)
lp = torch.log_softmax(logits, dim=1)
print(p)
print(lp)
target = torch.tensor([2, 0])
loss = -(lp[0, 2] + lp[1, 0]) / 2
loss.backward()
print(loss, logits.grad)
