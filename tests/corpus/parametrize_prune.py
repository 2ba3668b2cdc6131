# torch.nn.utils.parametrize and torch.nn.utils.prune beyond the tutorials:
# state_dict keys, gradients through a parametrization, caching, removal,
# structured and global pruning, and the errors both raise.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, X):
        return X * self.s

    def right_inverse(self, Y):
        return Y / self.s


layer = nn.Linear(3, 3)
print(P.is_parametrized(layer), P.type_before_parametrizations(layer).__name__)
P.register_parametrization(layer, "weight", Symmetric())
P.register_parametrization(layer, "weight", Scale(2.0))
print(type(layer).__name__, P.is_parametrized(layer), P.is_parametrized(layer, "weight"),
      P.is_parametrized(layer, "bias"), P.type_before_parametrizations(layer).__name__)
print(list(layer.state_dict().keys()))
print(layer.parametrizations.weight)
print(torch.equal(layer.weight, layer.weight.T))
out = layer(torch.ones(2, 3)).sum()
out.backward()
print(layer.parametrizations.weight.original.grad)
print(layer.weight.grad_fn.name())

with P.cached():
    a = layer.weight
    b = layer.weight
print(a is b, layer.weight is layer.weight)

target = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0], [3.0, 5.0, 6.0]])
try:
    layer.weight = target
except RuntimeError as e:
    print("RuntimeError:", e)
Symmetric.right_inverse = lambda self, X: X.triu()
layer.weight = target
print(layer.weight)
print(layer.parametrizations.weight.original)

P.remove_parametrizations(layer, "weight")
print(type(layer).__name__, P.is_parametrized(layer), hasattr(layer, "parametrizations"))
print(type(layer.weight).__name__, layer.weight.requires_grad)
print(layer.weight)

buffered = nn.BatchNorm1d(3)
P.register_parametrization(buffered, "running_var", Scale(3.0))
print(sorted(buffered.state_dict().keys()))
print(buffered.running_var)

try:
    P.register_parametrization(nn.Linear(2, 2), "nothing", Scale(1.0))
except ValueError as e:
    print("ValueError:", str(e).split("'")[-2])


class Shrink(nn.Module):
    def forward(self, X):
        return X[:1]


try:
    P.register_parametrization(nn.Linear(2, 2), "weight", Shrink())
except ValueError as e:
    print("ValueError:", e)
try:
    P.remove_parametrizations(nn.Linear(2, 2), "weight")
except ValueError as e:
    print("ValueError:", str(e).splitlines()[-1])

# pruning
conv = nn.Conv2d(2, 4, 3)
print(prune.is_pruned(conv))
prune.random_structured(conv, "weight", amount=2, dim=0)
print(prune.is_pruned(conv), sorted(n for n, _ in conv.named_buffers()))
print(conv.weight_mask.sum(dim=(1, 2, 3)))
prune.l1_unstructured(conv, "weight", amount=0.25)
hook = next(iter(conv._forward_pre_hooks.values()))
print(type(hook).__name__, [type(m).__name__ for m in hook], hook._tensor_name)
print(int(conv.weight_mask.sum()), conv.weight_mask.numel())
x = torch.randn(1, 2, 5, 5)
with torch.no_grad():
    conv.weight_orig.add_(1.0)
y = conv(x)
print(torch.equal(conv.weight, conv.weight_orig * conv.weight_mask))
prune.remove(conv, "weight")
print(sorted(n for n, _ in conv.named_parameters()), list(conv.named_buffers()))
print(int((conv.weight == 0).sum()))

lin = nn.Linear(4, 3)
prune.identity(lin, "bias")
print(lin.bias_mask)
prune.custom_from_mask(lin, "weight", torch.tensor([[1, 0, 1, 0]] * 3))
print(lin.weight)
m1, m2 = nn.Linear(5, 5), nn.Linear(5, 2)
prune.global_unstructured([(m1, "weight"), (m2, "weight")], pruning_method=prune.L1Unstructured, amount=10)
print(int((m1.weight == 0).sum()) + int((m2.weight == 0).sum()))
small = min(m1.weight_orig.abs().min(), m2.weight_orig.abs().min())
print(bool((m1.weight == 0).any() or (m2.weight == 0).any()), bool(small >= 0))
t = torch.tensor([3.0, -1.0, 0.5, 2.0])
print(prune.L1Unstructured(amount=2).prune(t))

for bad in (-1, 1.5, "half"):
    try:
        prune.L1Unstructured(amount=bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5)
except ValueError as e:
    print("ValueError:", e)
try:
    prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0)
except ValueError as e:
    print("ValueError:", e)
try:
    prune.remove(nn.Linear(2, 2), "weight")
except ValueError as e:
    print("ValueError:", str(e).splitlines()[-1])
