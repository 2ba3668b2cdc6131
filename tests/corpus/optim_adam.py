# Adam and AdamW step by step, and changing the learning rate by hand.
import torch

torch.manual_seed(0)
for cls, kwargs in [(torch.optim.Adam, {}), (torch.optim.Adam, {"weight_decay": 0.1}),
                    (torch.optim.AdamW, {}), (torch.optim.AdamW, {"weight_decay": 0.5})]:
    w = torch.randn(4, requires_grad=True)
    opt = cls([w], lr=0.05, **kwargs)
    for step in range(4):
        opt.zero_grad()
        loss = ((w - 1) ** 2).sum()
        loss.backward()
        opt.step()
    print(cls.__name__, kwargs, w.detach())
    state = opt.state[w]
    print(sorted(state.keys()), state["step"], state["exp_avg"])

w = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([{"params": [w], "lr": 0.1}])
w.sum().backward()
opt.step()
print(w)
for group in opt.param_groups:
    group["lr"] = 0.01
opt.zero_grad()
w.sum().backward()
opt.step()
print(w)
print(opt.param_groups[0]["betas"], opt.param_groups[0]["eps"])
