import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(2, 8)
print(drop(x))
drop.eval()
print(torch.equal(drop(x), x))
print(F.dropout(x, 0.25, training=True))
print(F.dropout(x, 0.25, training=False) is x)
print(drop)
nn.Dropout(1.5)
