# Without zero_grad, gradients add up across backward calls.
import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for step in range(3):
    loss = (w * w).sum()
    loss.backward()
    print(step, w.grad)

w.grad.zero_()
print("after zero_:", w.grad)
loss = (3 * w).sum()
loss.backward()
print(w.grad)
w.grad = None
print(w.grad)
