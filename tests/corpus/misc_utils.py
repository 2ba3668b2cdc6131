# Small gaps from pasted code: torch.where(condition), pad_sequence,
# nn.init's trunc_normal_, orthogonal_, eye_, dirac_ and sparse_, and
# dtype helpers (result_type, promote_types, can_cast, is_nonzero).
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

x = torch.tensor([[0.5, -1.0, 2.0], [0.0, 3.0, -0.5]])
print(torch.where(x > 0))
print(torch.where(torch.tensor([True, False, True])))
print(torch.where(x > 0, x, torch.zeros(1)))

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0], requires_grad=True)
c = torch.tensor([6.0], requires_grad=True)
padded = pad_sequence([a, b, c])
print(padded, padded.grad_fn.name())
print(pad_sequence([a, b, c], batch_first=True, padding_value=-1.0))
print(pad_sequence([a, b], batch_first=True, padding_side="left"))
(padded * torch.arange(1.0, 10.0).reshape(3, 3)).sum().backward()
print(a.grad, b.grad, c.grad)
print(pad_sequence([torch.ones(2, 2), torch.zeros(1, 2)], batch_first=True).shape)

torch.manual_seed(0)
w = torch.empty(3, 5)
nn.init.trunc_normal_(w, std=0.5, a=-0.6, b=0.6)
print(w)
q = torch.empty(3, 5)
nn.init.orthogonal_(q)
print(q.round(decimals=4), (q @ q.T).round(decimals=4))
tall = torch.empty(4, 2)
nn.init.orthogonal_(tall, gain=2.0)
print(tall.round(decimals=4))
print(nn.init.eye_(torch.empty(2, 3)), nn.init.dirac_(torch.empty(2, 2, 3)))
print(nn.init.dirac_(torch.empty(4, 2, 3, 3), groups=2)[2:, :, 1])
s = torch.empty(4, 3)
nn.init.sparse_(s, sparsity=0.5)
print(s)
print(torch.rand(2))

print(torch.result_type(torch.tensor([1, 2]), 1.0), torch.result_type(torch.tensor([1]), torch.tensor(2.0)),
      torch.result_type(torch.tensor([True]), 5), torch.promote_types(torch.int64, torch.float32),
      torch.can_cast(torch.float32, torch.int64), torch.can_cast(torch.int64, torch.float32))
print(torch.is_nonzero(torch.tensor([0.0])), torch.is_nonzero(torch.tensor(3)), torch.is_floating_point(x))
torch.manual_seed(1)
print(torch.randint_like(x, 10), torch.randint_like(x, 3, 6))
try:
    torch.is_nonzero(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
print(torch.finfo(torch.float32), torch.finfo().eps, torch.finfo(torch.float64).max, torch.iinfo(torch.int64))
f = torch.finfo(torch.float32)
print(f.bits, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype, torch.iinfo(torch.int64).min)
for bad in [lambda: torch.finfo(torch.int64), lambda: torch.iinfo(torch.float32)]:
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)
model = torch.nn.Linear(2, 1)
print(torch.compile(model)(torch.ones(1, 2)).shape, torch.detach(torch.ones(1, requires_grad=True)).requires_grad)
