# SGD's momentum, Nesterov and weight decay: the same updates as PyTorch.
import torch


def run(**kwargs):
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, **kwargs)
    for _ in range(3):
        opt.zero_grad()
        loss = (w ** 2).sum() + w.prod()
        loss.backward()
        opt.step()
    print(kwargs, w.detach())
    return opt


run()
run(momentum=0.9)
run(momentum=0.9, nesterov=True)
run(momentum=0.5, dampening=0.1)
opt = run(momentum=0.9, weight_decay=0.01)
print(list(opt.state[opt.param_groups[0]["params"][0]].keys()))
print(opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"])
try:
    torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
