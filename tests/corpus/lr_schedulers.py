import torch

w = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(6):
    opt.step()
    sched.step()
    print("step", epoch, sched.get_last_lr(), opt.param_groups[0]["lr"])

opt = torch.optim.SGD([w], lr=1.0)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.1)
for epoch in range(9):
    opt.step()
    sched.step()
    print("cos", epoch, [round(v, 6) for v in sched.get_last_lr()])
