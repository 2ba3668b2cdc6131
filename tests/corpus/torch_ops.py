# torch.ops.aten: operators and their overloads call the torch functions.
import torch
a = torch.ops.aten
print(a.add.Tensor, type(a.add).__name__, type(a.add.Tensor).__name__, a.add.default, a.detach.default)
print(a.add.Tensor(torch.ones(2), torch.ones(2)), a.mul(torch.ones(2), 3))
print(a.add.Tensor.__name__, str(a.add.Tensor), repr(a.add), a.add.Tensor is a.add.Tensor, a.detach.default == a.detach.default)
print(a.detach.default in (a.detach.default, a._to_copy.default), a.sum.default(torch.ones(3)), a.add.Tensor.overloadpacket)
print(a._to_copy.default(torch.ones(2), dtype=torch.float64))
try:
    a.nonexistent_op
except AttributeError as e:
    print(type(e).__name__, e)
