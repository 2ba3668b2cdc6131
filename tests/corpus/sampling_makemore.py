# A makemore-style training step and sampler (Karpathy's "Zero to Hero"):
# a seeded generator's draws, keepdims and axis (NumPy's names, which
# PyTorch takes), log10 of the loss, and torch.multinomial sampling draw
# for draw as PyTorch does, with and without replacement, and its errors.
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
X = torch.randint(0, 27, (32, 3), generator=g)
Y = torch.randint(0, 27, (32,), generator=g)
C = torch.randn((27, 10), generator=g)
W1 = torch.randn((30, 64), generator=g) * (5 / 3) / (30**0.5)
b1 = torch.randn(64, generator=g) * 0.01
W2 = torch.randn((64, 27), generator=g) * 0.01
b2 = torch.randn(27, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
lossi = []
for i in range(3):
    ix = torch.randint(0, X.shape[0], (8,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    lossi.append(loss.log10().item())
print(["%.4f" % v for v in lossi])
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
print(probs.sum(axis=1, keepdims=True).shape, probs.mean(axis=0).shape)
print(torch.log2(torch.tensor([1.0, 8.0, 0.5])), torch.log10(torch.tensor([1000.0, 0.01])))

# Sampling names, one character at a time, as the notebooks do.
g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(3):
    out, context = [], [0] * 3
    for _ in range(8):
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        p = F.softmax(h @ W2 + b2, dim=1)
        ix = torch.multinomial(p, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
    print(out)
print(torch.multinomial(probs[0], 5, replacement=True, generator=g))
print(torch.multinomial(probs[:2], 4, generator=g))
print(probs[1].multinomial(3, generator=g))

for bad in [
    lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 1),
    lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1),
    lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 3),
    lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 0),
    lambda: torch.multinomial(torch.ones(2, 2, 2), 1),
    lambda: torch.multinomial(torch.tensor([1, 2]), 1),
    lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 2, replacement=True),
    lambda: torch.ones(2, 3).sum(1, foo=True),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
