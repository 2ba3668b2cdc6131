# torch.tensor of nested lists past PyTorch's 128 dimensions (found by the
# fuzz test: a list nested 100000 deep overflowed the stack).
import torch

for depth, leaf in [(128, 1), (129, 1), (128, []), (100000, 1)]:
    x = leaf
    for _ in range(depth):
        x = [x]
    try:
        print(depth, torch.tensor(x).dim())
    except ValueError as e:
        print(depth, type(e).__name__, e)
x = 1
for _ in range(200):
    x = (x,)
try:
    torch.tensor(x)
except ValueError as e:
    print("tuple", e)
