# Without zero_grad, gradients add up step after step.
import torch

ZERO_GRAD = True
for zero_grad in [True, False]:
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(16, 3)
    y = x.sum(dim=1, keepdim=True)
    norms = []
    for step in range(5):
        if zero_grad:
            opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        norms.append(round(model.weight.grad.norm().item(), 4))
        opt.step()
    print("zero_grad" if zero_grad else "no zero_grad", norms, round(loss.item(), 4))
