# RMSprop and Adagrad, and a CNN head with adaptive average pooling.
import torch
import torch.nn as nn

torch.manual_seed(0)
for cls, kwargs in [(torch.optim.RMSprop, {}), (torch.optim.RMSprop, {"momentum": 0.9}),
                    (torch.optim.RMSprop, {"centered": True, "weight_decay": 0.1}),
                    (torch.optim.Adagrad, {}), (torch.optim.Adagrad, {"lr_decay": 0.1, "weight_decay": 0.01})]:
    w = torch.randn(3, requires_grad=True)
    opt = cls([w], lr=0.05, **kwargs)
    for _ in range(4):
        opt.zero_grad()
        ((w - 2) ** 2).sum().backward()
        opt.step()
    print(cls.__name__, kwargs, w.detach())

model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                      nn.Linear(4, 2))
print(model)
out = model(torch.randn(2, 1, 6, 6))
print(out)
print(nn.functional.adaptive_avg_pool2d(torch.arange(16.0).reshape(1, 4, 4), (2, 2)))
