# The learning-rate schedulers learners reach for next: ReduceLROnPlateau,
# OneCycleLR, LinearLR warm-up, ConstantLR, MultiplicativeLR, PolynomialLR,
# CosineAnnealingWarmRestarts and SequentialLR: PyTorch's rates step by
# step (and OneCycle's momentum).
import warnings

import torch
from torch import nn, optim
from torch.optim import lr_scheduler as sched

warnings.simplefilter("ignore")


def rates(make, steps=12, metric=None, opt_kind="sgd"):
    model = nn.Linear(2, 1)
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9) if opt_kind == "sgd" else optim.Adam(
        model.parameters(), lr=0.1)
    s = make(opt)
    seen = []
    for i in range(steps):
        opt.step()
        if metric is None:
            s.step()
        else:
            s.step(metric[i])
        group = opt.param_groups[0]
        extra = group["momentum"] if opt_kind == "sgd" else group["betas"][0]
        seen.append((round(group["lr"], 6), round(extra, 4)))
    print(type(s).__name__, seen)
    print([round(v, 6) for v in s.get_last_lr()])


rates(lambda o: sched.ReduceLROnPlateau(o, patience=2), metric=[1.0, 0.9, 0.95, 0.96, 0.97, 0.98, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
rates(lambda o: sched.ReduceLROnPlateau(o, mode="max", factor=0.5, patience=1, cooldown=2, min_lr=0.02),
      metric=[1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2])
rates(lambda o: sched.OneCycleLR(o, max_lr=1.0, total_steps=12))
rates(lambda o: sched.OneCycleLR(o, max_lr=0.5, epochs=3, steps_per_epoch=4, anneal_strategy="linear",
                                 three_phase=True), steps=11, opt_kind="adam")
rates(lambda o: sched.LinearLR(o, start_factor=0.25, total_iters=4))
rates(lambda o: sched.ConstantLR(o, factor=0.5, total_iters=3))
rates(lambda o: sched.MultiplicativeLR(o, lambda epoch: 0.9))
rates(lambda o: sched.PolynomialLR(o, total_iters=8, power=2.0))
rates(lambda o: sched.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01))
rates(lambda o: sched.SequentialLR(o, [sched.LinearLR(o, start_factor=0.1, total_iters=3),
                                       sched.ExponentialLR(o, gamma=0.9)], milestones=[3]))
rates(lambda o: sched.SequentialLR(o, [sched.ConstantLR(o, factor=0.5, total_iters=2),
                                       sched.CosineAnnealingLR(o, T_max=6)], milestones=[4]))
rates(lambda o: sched.SequentialLR(o, [sched.LinearLR(o, 0.5, total_iters=2), sched.StepLR(o, 3, 0.5)], [5]))
try:
    sched.ReduceLROnPlateau(optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1), factor=2.0)
except ValueError as e:
    print(e)
