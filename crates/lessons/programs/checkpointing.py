import math
import torch
from torch.utils.checkpoint import checkpoint_sequential

SEGMENTS = 4
DEPTH = 16

WIDTH = 64


class Block(torch.nn.Module):
    calls = 0

    def __init__(self, i):
        super().__init__()
        self.linear = torch.nn.Linear(WIDTH, WIDTH)
        with torch.no_grad():
            self.linear.weight.copy_(torch.sin(torch.arange(WIDTH * WIDTH) * 0.3 + i).reshape(WIDTH, WIDTH) / math.sqrt(WIDTH))
            self.linear.bias.copy_(torch.cos(torch.arange(WIDTH) * 0.5 + i) * 0.1)

    def forward(self, x):
        Block.calls += 1
        return torch.tanh(self.linear(x))


model = torch.nn.Sequential(*[Block(i) for i in range(DEPTH)])
x = torch.sin(torch.arange(128 * WIDTH) * 0.05).reshape(128, WIDTH).requires_grad_()

with torch.profiler.record_function("train step"):
    out = checkpoint_sequential(model, SEGMENTS, x, use_reentrant=False)
    forward_calls = Block.calls
    out.pow(2).mean().backward()

print("block forwards during forward:", forward_calls)
print("block forwards in all:", Block.calls)
print(f"input gradient norm: {x.grad.norm().item():.5f}")
