# A learner's own Module: registration by assignment, iteration, modes.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)
        self.act = nn.Tanh()
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("steps", torch.zeros(1))

    def forward(self, x):
        self.steps += 1
        return self.act(self.fc(x)) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(4) for _ in range(2)])
        self.head = nn.Linear(4, 1, bias=False)
        self.drop = nn.Dropout(0.25)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(self.drop(x))


torch.manual_seed(1)
net = Net()
print(net)
print([name for name, _ in net.named_parameters()])
print([tuple(p.shape) for p in net.parameters()])
print(sum(p.numel() for p in net.parameters()))
print([name for name, _ in net.named_children()])
print([type(m).__name__ for m in net.modules()])
print([name for name, _ in net.named_buffers()])
print(net.training, net.blocks[0].training)
net.eval()
print(net.training, net.blocks[0].training, net.drop.training)
net.train()
print(net.training, net.drop.training)
out = net(torch.ones(3, 4))
print(out.shape, out.grad_fn)
out.sum().backward()
print(net.head.weight.grad is not None)
net.zero_grad()
print(net.head.weight.grad)
net.requires_grad_(False)
print(all(not p.requires_grad for p in net.parameters()))
print(list(net.state_dict().keys()))
print(net.blocks[1].steps)
print(isinstance(net.head.weight, nn.Parameter), isinstance(net.head.weight, torch.Tensor))
net.apply(lambda m: print("visit", type(m).__name__))
print(net.get_submodule("blocks.0.fc"))
try:
    net.missing
except AttributeError as e:
    print("AttributeError:", e)
