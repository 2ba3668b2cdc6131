# Programs the fuzz test (crates/python/tests/fuzz.rs) found crashing the
# runtime; each now raises PyTorch's exception or prints PyTorch's result.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(what, f):
    try:
        print(what, f())
    except Exception as e:
        print(what, type(e).__name__, e)


# cross_entropy / nll_loss of one sample ([C] input) against a [C] target.
v = torch.tensor([0.5, -1.0, 2.0])
attempt("ce probs long", lambda: F.cross_entropy(v, torch.tensor([1, 0, 2])))
attempt("ce 1d size 2", lambda: F.cross_entropy(v, torch.tensor([1, 0])))
attempt("nll 1d size 3", lambda: F.nll_loss(v, torch.tensor([1, 0, 2])))
attempt("ce 1d size 1", lambda: F.cross_entropy(v, torch.tensor([1])))
attempt("ce 2d probs long", lambda: F.cross_entropy(torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.long)))

# An empty slice whose offset lies past the storage's end.
w = torch.ones(1, 3, 5, 5)
w[1:0, 1:0] = 0
e = w[1:0, 1:0]
print(e.shape, e + 1, e.sum(), e.clone().shape, e.permute(3, 2, 1, 0).contiguous().shape)
e.add_(1)
print(w.sum())

# LayerNorm over a size-0 dimension.
for shape, normalized in [((0,), 0), ((2, 0), 0), ((2, 3, 0), [3, 0])]:
    y = nn.LayerNorm(normalized)(torch.zeros(*shape))
    y.sum().backward()
    print(y.shape, y.grad_fn.name())

# Pooling sizes that do not fit a C int.
x = torch.ones(4, 1, 2, dtype=torch.float64)
for k in [-2**63, 2**63 - 1, 10**12, -1]:
    attempt("max_pool2d %d" % k, lambda: nn.MaxPool2d(k)(x))
    attempt("avg_pool2d %d" % k, lambda: nn.AvgPool2d(k)(x))

# A size that overflows the storage's byte count.
attempt("ones overflow", lambda: torch.ones(2**62, 4))

# Sizes whose element count or strides overflow.
attempt("expand overflow", lambda: torch.ones(1).expand(10**12, 10**12))
attempt("expand overflow 3d", lambda: torch.ones(3).expand(2**40, 2**30, 3))
attempt("repeat overflow", lambda: torch.ones(2, 3).repeat(10**12, 10**12))
attempt("stride overflow", lambda: torch.zeros(0, 10**12, 10**12))
attempt("conv2d stride overflow", lambda: nn.Conv2d(2, 0, 10**12))
attempt("zeros numel overflow", lambda: torch.zeros(10**12, 10**12, 0))
attempt("view of size 0", lambda: torch.zeros(0).view(0, 10**12, 10**12).shape)

# chunk with a huge count.
z = torch.randn(2, 3)
attempt("chunk 10**12", lambda: z.chunk(10**12)[0].shape)
attempt("chunk 2**63-1", lambda: z.chunk(2**63 - 1))
attempt("chunk empty 5", lambda: len(torch.zeros(0).chunk(5)))

# arange with more elements than an int64 counts.
attempt("arange tiny step", lambda: torch.arange(0, 1, 1e-300))
attempt("arange huge span", lambda: torch.arange(1e308, -1e308, -1e307))
