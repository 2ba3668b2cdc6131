# More losses (composites of the engine's ops) and schedulers.
import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([0.2, 1.7, -3.0, 0.9])
true = torch.tensor([0.0, 1.0, 0.5, 0.8])
print(nn.SmoothL1Loss()(pred, true).item(), nn.SmoothL1Loss(beta=0.5, reduction="sum")(pred, true).item())
print(nn.HuberLoss(delta=2.0)(pred, true).item())
logp = F.log_softmax(torch.tensor([[1.0, 2.0, 0.5]]), dim=1)
q = torch.tensor([[0.2, 0.5, 0.3]])
print(round(nn.KLDivLoss(reduction="batchmean")(logp, q).item(), 6))
print(F.cosine_similarity(torch.tensor([[1.0, 0.0], [1.0, 1.0]]), torch.tensor([[1.0, 1.0], [2.0, 2.0]])))

w = torch.zeros(1, requires_grad=True)
for make in [lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 4], gamma=0.5),
             lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
             lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda epoch: 1 / (epoch + 1))]:
    opt = torch.optim.SGD([w], lr=0.1)
    sched = make(opt)
    lrs = []
    for _ in range(5):
        opt.step()
        sched.step()
        lrs.append(round(sched.get_last_lr()[0], 6))
    print(type(sched).__name__, lrs)
