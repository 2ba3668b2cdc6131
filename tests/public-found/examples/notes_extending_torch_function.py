# source: pytorch/pytorch docs/source/notes/extending.rst @0337521 (BSD-3-Clause)
# edits: the code blocks of "Extending torch with a Tensor-like type" from the ScalarTensor that defines __torch_function__ through "Extending torch with a Tensor wrapper type" (MetadataTensor) turned into a script in order (prose dropped); bare expressions whose value the note shows are wrapped in print(); the two calls the note shows raising (torch.add(s, s, alpha=2), torch.mul(s, 3)) are wrapped in try/except printing the exception's type and message; the note's second __torch_function__ (the one falling back to tensors) is assigned to ScalarTensor after the first one's examples
import functools

import torch

HANDLED_FUNCTIONS = {}
class ScalarTensor(object):
    def __init__(self, N, value):
        self._N = N
        self._value = value

    def __repr__(self):
        return "DiagonalTensor(N={}, value={})".format(self._N, self._value)

    def tensor(self):
        return self._value * torch.eye(self._N)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(
            issubclass(t, (torch.Tensor, ScalarTensor))
            for t in types
        ):
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)

def implements(torch_function):
    """Register a torch function override for ScalarTensor"""
    @functools.wraps(torch_function)
    def decorator(func):
        HANDLED_FUNCTIONS[torch_function] = func
        return func
    return decorator

@implements(torch.mean)
def mean(input):
    return float(input._value) / input._N

d = ScalarTensor(5, 2)
print(torch.mean(d))

def ensure_tensor(data):
    if isinstance(data, ScalarTensor):
        return data.tensor()
    return torch.as_tensor(data)

@implements(torch.add)
def add(input, other):
   try:
       if input._N == other._N:
           return ScalarTensor(input._N, input._value + other._value)
       else:
           raise ValueError("Shape mismatch!")
   except AttributeError:
       return torch.add(ensure_tensor(input), ensure_tensor(other))

s = ScalarTensor(2, 2)
print(torch.add(s, s))
t = torch.tensor([[1, 1,], [1, 1]])
print(torch.add(s, t))

try:
    torch.add(s, s, alpha=2)
except Exception as e:
    print(type(e).__name__ + ":", e)

try:
    torch.mul(s, 3)
except Exception as e:
    print(type(e).__name__ + ":", e)

def __torch_function__(self, func, types, args=(), kwargs=None):
    if kwargs is None:
        kwargs = {}
    if func not in HANDLED_FUNCTIONS or not all(
            issubclass(t, (torch.Tensor, ScalarTensor))
            for t in types
        ):
        args = [a.tensor() if hasattr(a, 'tensor') else a for a in args]
        return func(*args, **kwargs)
    return HANDLED_FUNCTIONS[func](*args, **kwargs)

ScalarTensor.__torch_function__ = __torch_function__

s = ScalarTensor(2, 2)
print(torch.mul(s, s))

class MetadataTensor(object):
    def __init__(self, data, metadata=None, **kwargs):
        self._t = torch.as_tensor(data, **kwargs)
        self._metadata = metadata

    def __repr__(self):
        return "Metadata:\n{}\n\ndata:\n{}".format(self._metadata, self._t)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        args = [a._t if hasattr(a, '_t') else a for a in args]
        ret = func(*args, **kwargs)
        return MetadataTensor(ret, metadata=self._metadata)

metadata = {'owner': 'Ministry of Silly Walks'}
m = MetadataTensor([[1, 2], [3, 4]], metadata=metadata)
t = torch.tensor([[1, 2], [1, 2]])
print(torch.add(t, m))
print(torch.mul(t, m))
