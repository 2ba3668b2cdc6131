# Module.register_backward_hook (deprecated, with its FutureWarning on
# stderr) on a module whose forward is one autograd node, where it sees
# what a full hook sees; register_full_backward_pre_hook; mixing refused.
import torch
import torch.nn as nn


class Scale(nn.Module):
    def forward(self, x, y):
        return x * y


def hook(module, grad_input, grad_output):
    print(type(module).__name__, [None if g is None else g.tolist() for g in grad_input],
          [g.tolist() for g in grad_output])


m = Scale()
handle = m.register_backward_hook(hook)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
m(x, y).sum().backward()
print(x.grad, y.grad)
handle.remove()
m(x, y).sum().backward()
print(x.grad)
try:
    m.register_full_backward_hook(hook)
except RuntimeError as e:
    print("RuntimeError:", e)


def pre(module, grad_output):
    print("pre", [g.tolist() for g in grad_output])
    return (grad_output[0] * 10,)


lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(1.0)
    lin.bias.zero_()
lin.register_full_backward_pre_hook(pre)
lin(x).sum().backward()
print(lin.weight.grad, lin.bias.grad)
