"""PyTorch's side of `gradscope bench --suite cpu`: the same workloads, timed
the same way (best of runs after a warm-up), printed as JSON.

    gradscope bench --baseline .venv/bin/python
"""

import json
import time

import torch

torch.set_num_threads(2)
RUNS = 20
CHAIN_OPS = 2000


def chain():
    x = torch.ones(4, requires_grad=True)
    y = x
    for _ in range(CHAIN_OPS // 2):
        y = y * 1.0001 + 0.0001
    y.sum().backward()


def mlp_setup():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(784, 256), torch.nn.ReLU(),
        torch.nn.Linear(256, 256), torch.nn.ReLU(),
        torch.nn.Linear(256, 10),
    )
    x = torch.randn(64, 784)
    y = torch.randint(0, 10, (64,))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()

    def saved_bytes():
        seen = {}

        def pack(t):
            seen[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            loss_fn(model(x), y)
        return sum(seen.values())

    return step, saved_bytes


def best_of(f):
    f()
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


mlp_step, mlp_saved = mlp_setup()
print(json.dumps([
    {"name": "chain", "unit": "us/op", "value": best_of(chain) * 1e6 / CHAIN_OPS, "torch": torch.__version__},
    {"name": "mlp", "unit": "ms/step", "value": best_of(mlp_step) * 1e3},
    {"name": "saved", "unit": "bytes", "value": mlp_saved()},
]))
