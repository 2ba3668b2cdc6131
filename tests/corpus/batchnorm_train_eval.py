# BatchNorm's running statistics move only in train mode; eval uses them.
import torch
import torch.nn as nn

torch.manual_seed(0)
bn = nn.BatchNorm1d(3)
print(bn)
x = torch.randn(8, 3) * 2 + 1
y = bn(x)
print(y.mean(dim=0), y.grad_fn)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn(x)
print(bn.running_mean, bn.num_batches_tracked)
bn.eval()
y_eval = bn(x)
print(y_eval[:2])
print(bn.running_mean, bn.num_batches_tracked)
with torch.no_grad():
    bn.train()
    bn(x)
print(bn.running_mean, bn.num_batches_tracked)
print(list(bn.state_dict().keys()))
try:
    bn(torch.randn(1, 3))
except ValueError as e:
    print("ValueError:", e)
bn(torch.randn(2, 3, 4, 5))
