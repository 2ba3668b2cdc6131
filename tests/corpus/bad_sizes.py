# Negative or huge sizes, steps and options give PyTorch's errors (or its
# results), never a crash, a wrapped number or an absurd allocation.
import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, "ok", tuple(r.shape))
    except Exception as e:
        print(label, type(e).__name__, e)


attempt("ones(-1)", lambda: torch.ones(-1))
attempt("empty(2, -3)", lambda: torch.empty(2, -3))
attempt("ones(2**62, 2**62)", lambda: torch.ones(2**62, 2**62))
attempt("randn(-1)", lambda: torch.randn(-1))
attempt("full((2, -1))", lambda: torch.full((2, -1), 1.0))
attempt("view(2**40)", lambda: torch.zeros(3).view(2**40))
attempt("reshape(-2)", lambda: torch.zeros(3).reshape(-2))
attempt("expand(2**40)", lambda: torch.zeros(1).expand(2**40))
attempt("[::2**62]", lambda: torch.arange(12.0).view(3, 4)[::2**62])
attempt("split(2**40)", lambda: torch.zeros(3).split(2**40)[0])
attempt("linspace(0, 1, 2**62)", lambda: torch.linspace(0, 1, 2**62))
attempt("Tensor(2**62)", lambda: torch.Tensor(2**62))
attempt("eye(2**40, 2**40)", lambda: torch.eye(2**40, 2**40))
attempt("eye(-1)", lambda: torch.eye(-1))
attempt("arange(0, 2**62)", lambda: torch.arange(0, 2**62))
attempt("narrow(0, 2**62, 2**62)", lambda: torch.zeros(3).narrow(0, 2**62, 2**62))
attempt("select(0, 2**62)", lambda: torch.zeros(3).select(0, 2**62))
attempt("unsqueeze(2**62)", lambda: torch.zeros(3).unsqueeze(2**62))
x, w = torch.zeros(1, 1, 3, 3), torch.zeros(1, 1, 1, 1)
attempt("conv2d(padding=2**62)", lambda: F.conv2d(x, w, padding=2**62))
attempt("conv2d(stride=2**62)", lambda: F.conv2d(x, w, stride=2**62))
attempt("conv2d(groups=2**62)", lambda: F.conv2d(x, w, groups=2**62))
attempt("conv2d(groups=2)", lambda: F.conv2d(torch.zeros(1, 2, 3, 3), torch.zeros(3, 1, 1, 1), groups=2))
attempt("conv2d(dilation=2**62)", lambda: F.conv2d(x, torch.zeros(1, 1, 2, 2), dilation=2**62))
# repeat multiplies its sizes in int64, wrapping, then allocates and
# unfolds: a negative product, an overflowed storage or a block past the
# result are RuntimeErrors, a repeat past int64 PyTorch's TypeError.
v = torch.tensor([1.0, -2.0, 3.0])
attempt("repeat(2**62) of 3", lambda: v.repeat(2**62))
attempt("repeat(2**62) of 4", lambda: torch.zeros(4).repeat(2**62))
attempt("repeat(2**62, 2)", lambda: v.repeat(2**62, 2))
attempt("repeat(3, 2**62) of 4", lambda: torch.zeros(4).repeat(3, 2**62))
attempt("repeat(2**62 + 1) of 4", lambda: torch.zeros(4).repeat(2**62 + 1))
attempt("repeat(-1)", lambda: v.repeat(-1))
attempt("repeat(-1, 2)", lambda: v.repeat(-1, 2))
attempt("repeat(2, -1, -2)", lambda: v.repeat(2, -1, -2))
attempt("zeros(0).repeat(-1)", lambda: torch.zeros(0).repeat(-1))
attempt("zeros(0).repeat(2**63-1, 2**63-1)", lambda: torch.zeros(0).repeat(2**63 - 1, 2**63 - 1))
attempt("repeat(2, 0)", lambda: v.repeat(2, 0))
attempt("tile(2**62) of 4", lambda: torch.zeros(4).tile(2**62))
attempt("repeat(2.0)", lambda: v.repeat(2.0))
attempt("repeat()", lambda: v.repeat())
attempt("repeat(1, 2)", lambda: v.repeat(1, 2))
for k in (4, -1, 0, 3):
    attempt(f"topk({k})", lambda: v.topk(k).values)
attempt("topk(3, dim=0) of 2x2", lambda: torch.ones(2, 2).topk(3, dim=0).values)
attempt("topk(1) of scalar", lambda: torch.tensor(2.0).topk(1).values)
attempt("topk(2) of scalar", lambda: torch.tensor(2.0).topk(2).values)
attempt("one_hot([2**62])", lambda: F.one_hot(torch.tensor([2**62])))
attempt("one_hot([1, 2], 2**62)", lambda: F.one_hot(torch.tensor([1, 2]), 2**62))
attempt("one_hot([[1, 2]], 2**62)", lambda: F.one_hot(torch.tensor([[1, 2]]), 2**62))
attempt("one_hot(1, 2**62)", lambda: F.one_hot(torch.tensor(1), 2**62))
attempt("one_hot([1, 2], 2**63-1)", lambda: F.one_hot(torch.tensor([1, 2]), 2**63 - 1))
