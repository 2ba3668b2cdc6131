# torch.svd and torch.linalg.svd/svdvals: singular vectors with the signs
# PyTorch's CPU (LAPACK's gesdd) gives them, on square, tall and wide
# matrices, batches, and the errors for bad input.
import torch

torch.manual_seed(0)
for shape in [(2, 2), (3, 3), (4, 4), (3, 2), (4, 3), (6, 3), (2, 3), (3, 5), (1, 4), (4, 1), (5, 5)]:
    for dtype in (torch.float32, torch.float64):
        a = torch.randn(*shape, dtype=dtype)
        u, s, v = torch.svd(a)
        print(shape, dtype)
        print(u)
        print(s)
        print(v)
        print(torch.dist(u @ torch.diag(s) @ v.T, a).item() < 1e-4)

m = torch.rand(2, 2) * 3
print(torch.svd(m))
print(torch.linalg.svd(m))
print(torch.linalg.svd(torch.rand(3, 4), full_matrices=False).Vh.shape)
print(torch.linalg.svdvals(torch.rand(2, 3, 4)))
b = torch.rand(2, 3, 2)
U, S, V = torch.svd(b)
print(U.shape, S.shape, V.shape)
print(U)
print(m.svd().S)
print(torch.svd(m, compute_uv=False))
print(torch.svd(torch.zeros(2, 2)))
for bad in [torch.ones(3), torch.ones(2, 2, dtype=torch.int64)]:
    try:
        torch.svd(bad)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
