# Issue 6's speed workload: issue 4's chain written in Python. The same file
# runs under CPython with PyTorch and under `gradscope run`; it prints the
# time per forward op (its backward included), best of several repeats.
import time

import torch

REPEATS = 20


def chain():
    x = torch.ones(4, requires_grad=True)
    y = x
    for _ in range(1000):
        y = y * 1.0001 + 0.0001
    y.sum().backward()
    return x.grad


chain()  # warm-up
best = float("inf")
for _ in range(REPEATS):
    start = time.perf_counter()
    chain()
    best = min(best, time.perf_counter() - start)
print(f"chain: {best / 2000 * 1e6:.2f} us per forward op (backward included)")
