# Adamax, NAdam, RAdam and Adadelta on a small regression, with weight
# decay variants: PyTorch's parameters step by step (its single-tensor
# kernels' order of operations).
import torch
from torch import nn, optim

X = torch.tensor([[0.5, -1.0], [1.5, 2.0], [-0.5, 0.25], [2.0, -1.5]])
y = torch.tensor([[1.0], [-2.0], [0.5], [3.0]])


def train(make, steps=8):
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    opt = make(model.parameters())
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(X) - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 5))
    print(type(opt).__name__, losses)
    print(model.weight.detach().round(decimals=5), model.bias.detach().round(decimals=5))
    state = opt.state[model.weight]
    print(sorted(state), round(state["step"].item(), 1))


train(lambda p: optim.Adamax(p, lr=0.05))
train(lambda p: optim.Adamax(p, lr=0.05, weight_decay=0.1, maximize=False))
train(lambda p: optim.NAdam(p, lr=0.05))
train(lambda p: optim.NAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True))
train(lambda p: optim.RAdam(p, lr=0.05), steps=10)
train(lambda p: optim.RAdam(p, lr=0.05, weight_decay=0.1), steps=10)
train(lambda p: optim.Adadelta(p))
train(lambda p: optim.Adadelta(p, lr=0.5, rho=0.8, weight_decay=0.01))
print(optim.NAdam([torch.zeros(1, requires_grad=True)]).defaults["momentum_decay"])
try:
    optim.Adamax([torch.zeros(1, requires_grad=True)], lr=-1)
except ValueError as e:
    print(e)
