# torch.einsum: matrix products, transposes, sums, outer and batched
# products, an ellipsis, diagonals; values and gradients as PyTorch's.
import torch
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 2, requires_grad=True)
q = torch.randn(2, 5, 3, requires_grad=True)
k = torch.randn(2, 6, 3, requires_grad=True)
cases = [
    ("ij,jk->ik", (a, b)), ("ij,jk", (a, b)), ("ij->ji", (a,)), ("ij->", (a,)), ("ij->j", (a,)),
    ("i,i->", (a[0], a[1])), ("i,j->ij", (a[0], b[:, 0])), ("bqd,bkd->bqk", (q, k)),
    ("...qd,...kd->...qk", (q, k)), ("ii->i", (a[:3, :3],)), ("ii", (a[:3, :3],)),
    ("bij,bjk->bik", (q, k.transpose(1, 2))), ("ij,ij->i", (a, a)),
]
for eq, ops in cases:
    y = torch.einsum(eq, *ops)
    (y * torch.arange(1.0, y.numel() + 1).reshape(y.shape)).sum().backward()
    print(eq, tuple(y.shape), [round(v, 4) for v in y.flatten().tolist()[:4]])
print([round(v, 4) for v in a.grad.flatten().tolist()[:6]], [round(v, 4) for v in q.grad.flatten().tolist()[:4]])
print(torch.einsum("ij,jk->ik", [a, b]).shape)
