"""PyTorch's "Warm-up: numpy" example (polynomial_numpy.py): a cubic fitted
to sin(x) over 2000 points for 2000 steps by hand-written gradients.

The same file runs under real NumPy (`python3 tests/bench/numpy_warmup.py`)
and under gradscope (`gradscope run tests/bench/numpy_warmup.py`); timing
the two whole processes side by side gives the ratio the README quotes. An
argument sets the number of steps: with 0 the run is start-up, imports and
data alone, so the loop's own cost is the difference between the two.
"""

import math
import sys

import numpy as np

np.random.seed(0)
x = np.linspace(-math.pi, math.pi, 2000)
y = np.sin(x)
a = np.random.randn()
b = np.random.randn()
c = np.random.randn()
d = np.random.randn()
learning_rate = 1e-6
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
for t in range(steps):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = np.square(y_pred - y).sum()
    if t % 100 == 99:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f"Result: y = {a} + {b} x + {c} x^2 + {d} x^3")
