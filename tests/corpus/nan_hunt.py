# log(0) makes NaN; anomaly mode names the backward node; clipping caps norms.
import torch

p = torch.tensor([0.5, 0.0, 0.25], requires_grad=True)
loss = -(torch.log(p) * torch.tensor([1.0, 0.0, 1.0])).sum()
loss.backward()
print(loss, p.grad)

logits = torch.tensor([[20.0, -20.0, 0.0]], requires_grad=True)
stable = -torch.log_softmax(logits, dim=1)[0, 1]
print(stable)

w = torch.tensor([3.0, 4.0], requires_grad=True)
(w * torch.tensor([10.0, 10.0])).sum().backward()
total = torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)
print(total, w.grad, w.grad.norm())
torch.nn.utils.clip_grad_value_([w], 0.5)
print(w.grad)

model = torch.nn.Linear(2, 2)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))

with torch.autograd.detect_anomaly():
    q = torch.tensor([0.0, 1.0], requires_grad=True)
    out = (torch.sqrt(q) * 0).sum()
    out.backward()
