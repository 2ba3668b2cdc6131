import math
import random
import itertools
import functools
import collections
from typing import List, Optional

import torch


def total(xs: List[float], scale: Optional[float] = None) -> float:
    return functools.reduce(lambda a, b: a + b, xs) * (scale or 1.0)


print(total([1.0, 2.0, 3.0]), total([1.0], 2.0))
print(math.exp(1.0), math.pi, math.isclose(0.1 + 0.2, 0.3))
print(list(itertools.product([1, 2], "ab")))
counts = collections.Counter("hello world")
print(counts.most_common(2))
Point = collections.namedtuple("Point", "x y")
print(Point(1, 2))
random.seed(0)
print(random.random(), random.randint(1, 10), random.choice("xyz"))
losses = collections.deque(maxlen=2)
w = torch.tensor(1.0, requires_grad=True)
for step in range(4):
    loss = (w * 3 - 2) * (w * 3 - 2)
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
    w.grad.zero_()
    losses.append(round(loss.item(), 4))
print(list(losses), round(w.item(), 4))
