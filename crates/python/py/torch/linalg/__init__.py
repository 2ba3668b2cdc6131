"""`torch.linalg`: norms, `cross` and `multi_dot` over the engine's ops,
and `det`, `inv` and `solve` of small matrices, factorised on the host
(LU with partial pivoting in double precision, rounded to the input's
dtype) and recorded as PyTorch's nodes (`LinalgDetBackward0`), whose
backward formulas use these functions again so double backward works."""

import builtins as _builtins

import _gradscope as _C

import torch
from torch import _composite
from torch._shape import cross as _cross

__all__ = ["norm", "vector_norm", "matrix_norm", "cross", "multi_dot", "det", "slogdet", "inv", "solve",
           "matrix_power", "LinAlgError", "matmul", "vecdot", "matrix_exp", "eigvalsh", "svd", "svdvals"]


class _LinAlgError(RuntimeError):
    """PyTorch's error for a singular matrix (a RuntimeError)."""

    __module__ = "torch._C"


LinAlgError = _LinAlgError
matmul = torch.matmul


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        return x._norm(float(ord), None, keepdim) if keepdim else x.reshape(-1)._norm(float(ord), None, False)
    return x._norm(float(ord), dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    if A.dim() < 2:
        raise RuntimeError(f"linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if dtype is not None:
        A = A.to(dtype)
    rows, cols = dim
    if ord == "fro":
        return A._norm(2.0, (rows, cols), keepdim)
    if ord in (1, -1, float("inf"), float("-inf")):
        # Column sums for 1, row sums for inf: the largest (or smallest).
        rows, cols = rows % A.dim(), cols % A.dim()
        summed, over = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = A.abs().sum(summed, keepdim=keepdim)
        if not keepdim and over > summed:
            over -= 1
        return sums.amax(over, keepdim=keepdim) if ord > 0 else sums.amin(over, keepdim=keepdim)
    raise NotImplementedError(f"gradscope's linalg.matrix_norm does not do ord={ord!r} (it needs an SVD)")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        if dim is None:
            return vector_norm(A, 2, None, keepdim, dtype=dtype)
        return vector_norm(A, 2, dim, keepdim, dtype=dtype) if len(dim) == 1 else \
            matrix_norm(A, "fro", dim, keepdim, dtype=dtype)
    if dim is None:
        if A.dim() == 1:
            return vector_norm(A, ord, None, keepdim, dtype=dtype)
        if A.dim() != 2:
            raise RuntimeError(
                f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.dim()}D."
            )
        dim = (-2, -1)
    if len(dim) == 1:
        return vector_norm(A, ord, dim, keepdim, dtype=dtype)
    return matrix_norm(A, ord, dim, keepdim, dtype=dtype)


def cross(input, other, *, dim=-1):
    return _cross(input, other, dim)


def vecdot(x, y, *, dim=-1):
    return (x * y).sum(dim)


def multi_dot(tensors):
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first, last = tensors[0], tensors[-1]
    if first.dim() == 1:
        tensors[0] = first.unsqueeze(0)
    if last.dim() == 1:
        tensors[-1] = last.unsqueeze(1)
    out = tensors[0]
    for t in tensors[1:]:
        out = out.mm(t)
    shape = [n for n, keep in ((out.shape[0], first.dim() == 2), (out.shape[1], last.dim() == 2)) if keep]
    return out.reshape(shape)


def _check_square(name, A):
    if A.dim() < 2:
        raise RuntimeError(
            f"{name}: The input tensor A must have at least 2 dimensions."
        )
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are {A.shape[-2]} by {A.shape[-1]} matrices"
        )


def _lu(m):
    """`m` (a list of rows) as its row-pivoted LU in place: the pivot rows,
    the permutation's sign, and the 1-based index of the first zero pivot
    (0 if none), as LAPACK's getrf reports it."""
    n = len(m)
    perm, sign, singular = list(range(n)), 1.0, 0
    for k in range(n):
        p = _builtins.max(range(k, n), key=lambda i: abs(m[i][k]))
        if p != k:
            m[k], m[p] = m[p], m[k]
            perm[k], perm[p] = perm[p], perm[k]
            sign = -sign
        pivot = m[k][k]
        if pivot == 0:
            singular = singular or k + 1
            continue
        for i in range(k + 1, n):
            f = m[i][k] / pivot
            m[i][k] = f
            for j in range(k + 1, n):
                m[i][j] -= f * m[k][j]
    return perm, sign, singular


def _solve_lu(lu, perm, b):
    """Solves `A x = b` (b a list of columns' rows) from A's LU."""
    n = len(lu)
    x = [list(b[perm[i]]) for i in range(n)]
    for i in range(n):
        for k in range(i):
            x[i] = [xi - lu[i][k] * xk for xi, xk in zip(x[i], x[k])]
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            x[i] = [xi - lu[i][k] * xk for xi, xk in zip(x[i], x[k])]
        x[i] = [xi / lu[i][i] for xi in x[i]]
    return x


def _matrices(A):
    n = A.shape[-1]
    return A.detach().cpu().to(torch.float64).reshape(-1, n, n).tolist()


def _tensor(values, like, shape):
    return _C.tensor(values, dtype=like.dtype, device=like._device).reshape(shape)


def det(A):
    _check_square("linalg.det", A)

    def forward():
        dets = []
        for m in _matrices(A):
            _, sign, _ = _lu(m)
            d = sign
            for i in range(len(m)):
                d *= m[i][i]
            dets.append(d)
        return _tensor(dets, A, tuple(A.shape[:-2]))

    def backward(g, a):
        # linalg_det_backward for an invertible A: grad * det * inv(A)^T.
        return [(g * det(a)).unsqueeze(-1).unsqueeze(-1) * inv(a).transpose(-2, -1)]

    return _composite.op("LinalgDetBackward0", [A], forward, backward, ("self",))


def slogdet(A):
    """`(sign, log|det|)` of square matrices, each recorded as PyTorch's
    LinalgSlogdetBackward0 (the sign's gradient is zero)."""
    from torch import return_types

    _check_square("linalg.slogdet", A)
    d = det(A.detach())
    sign = _composite.op("LinalgSlogdetBackward0", [A], lambda: d.sign(), lambda g, a: [a * 0], ("self",))
    logabsdet = _composite.op(
        "LinalgSlogdetBackward0", [A], lambda: d.abs().log(),
        lambda g, a: [g.unsqueeze(-1).unsqueeze(-1) * inv(a).transpose(-2, -1)], ("self",),
    )
    return return_types.linalg_slogdet((sign, logabsdet))


def matrix_power(A, n):
    return A.matrix_power(n)


def inv(A):
    _check_square("linalg.inv", A)
    n = A.shape[-1]

    def forward():
        out = []
        for m in _matrices(A):
            perm, _, singular = _lu(m)
            if singular:
                raise _LinAlgError(
                    f"linalg.inv: The diagonal element {singular} is zero, the inversion could not be "
                    "completed because the input matrix is singular."
                )
            out.append(_solve_lu(m, perm, [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]))
        return _tensor(out, A, tuple(A.shape))

    def backward(g, a):
        # -inv(A)^T @ grad @ inv(A)^T.
        t = inv(a).transpose(-2, -1)
        return [-(t.matmul(g).matmul(t))]

    return _composite.op("LinalgInvExBackward0", [A], forward, backward, ("self",))


def solve(A, B, *, left=True):
    if not left:
        return solve(A.transpose(-2, -1), B.transpose(-2, -1)).transpose(-2, -1)
    _check_square("linalg.solve", A)
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    b = B.unsqueeze(-1) if vector else B
    if b.shape[-2] != A.shape[-1]:
        raise RuntimeError(
            f"linalg.solve: Incompatible shapes of A and B for the equation AX = B "
            f"({A.shape[-2]}x{A.shape[-1]} and {B.shape[-2]}x{B.shape[-1]})"
        )
    batch = list(torch.broadcast_shapes(tuple(A.shape[:-2]), tuple(b.shape[:-2])))
    a = A.expand(batch + list(A.shape[-2:]))
    b = b.expand(batch + list(b.shape[-2:]))

    def forward():
        out = []
        rhs = b.detach().cpu().to(torch.float64).reshape(-1, b.shape[-2], b.shape[-1]).tolist()
        for m, r in zip(_matrices(a), rhs):
            perm, _, singular = _lu(m)
            if singular:
                raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.")
            out.append(_solve_lu(m, perm, r))
        out = _tensor(out, b, tuple(b.shape))
        return out.squeeze(-1) if vector else out

    def backward(g, a_, b_):
        # linalg_solve_backward: gB = solve(A^T, grad), gA = -gB X^T
        # (for a vector B, as a column).
        grad_b = solve(a_.transpose(-2, -1), g)
        x = solve(a_, b_)
        if vector:
            return [-(grad_b.unsqueeze(-1) * x.unsqueeze(-2)), grad_b]
        return [-grad_b.matmul(x.transpose(-2, -1)), grad_b]

    return _composite.op("LinalgSolveExBackward0", [A, B], forward, backward, ("self", "other"))


def matrix_exp(A):
    """`exp(A)` of square matrices by scaling and squaring: the Taylor
    series of `A / 2**s` (its 1-norm at most 1/2) to 18 terms, squared `s`
    times. Written with matmuls, so its gradient is autograd's (the graph
    shows those ops, not PyTorch's one `LinalgMatrixExpBackward0`)."""
    import math

    _check_square("matrix_exp", A)
    n = A.shape[-1]
    norm = float(A.detach().abs().sum(-2).amax()) if A.numel() else 0.0
    s = _builtins.max(0, int(math.ceil(math.log2(norm))) + 1) if norm > 0 else 0
    B = A / (2.0 ** s) if s else A
    eye = torch.eye(n, dtype=A.dtype, device=A.device).expand(A.shape)
    term = eye
    out = eye
    for k in range(1, 19):
        term = term @ B / k
        out = out + term
    for _ in range(s):
        out = out @ out
    return out


def eigvalsh(A, UPLO="L"):
    """The eigenvalues of symmetric matrices in ascending order (cyclic
    Jacobi rotations on the host, in double precision). They carry no
    gradient in gradscope."""
    _check_square("linalg.eigvalsh", A)
    n = A.shape[-1]
    mats = _matrices(A.detach().to(torch.float64).cpu())
    results = []
    for m in mats:
        # The triangle UPLO names is the matrix, as LAPACK reads it.
        a = [[(m[i][j] if (i >= j) == (UPLO == "L") else m[j][i]) for j in range(n)] for i in range(n)]
        for _sweep in range(100):
            off = _builtins.sum(a[i][j] ** 2 for i in range(n) for j in range(n) if i != j)
            if off < 1e-30:
                break
            for p in range(n - 1):
                for q in range(p + 1, n):
                    if a[p][q] == 0.0:
                        continue
                    theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    t = (1.0 if theta >= 0 else -1.0) / (abs(theta) + (theta * theta + 1) ** 0.5)
                    c = 1 / (t * t + 1) ** 0.5
                    s_ = t * c
                    for k in range(n):
                        akp, akq = a[k][p], a[k][q]
                        a[k][p], a[k][q] = c * akp - s_ * akq, s_ * akp + c * akq
                    for k in range(n):
                        apk, aqk = a[p][k], a[q][k]
                        a[p][k], a[q][k] = c * apk - s_ * aqk, s_ * apk + c * aqk
        results.append(sorted(a[i][i] for i in range(n)))
    out = torch.tensor(results, dtype=A.dtype)
    return out.reshape(tuple(A.shape[:-1])).to(A.device)


def _svd_factors(name, A, reduced):
    """U (..., m, k), S (..., k) and V (..., n, k) of A, as LAPACK's gesdd
    gives them (see `torch.linalg._svd`); no gradient flows through them."""
    from torch.linalg import _svd

    if A.dim() < 2 and name == "svd":
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {A.dim()} dimensions instead")
    if A.dim() < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    if not A.is_floating_point():
        names = {torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char",
                 torch.uint8: "Byte", torch.bool: "Bool"}
        raise NotImplementedError(
            f"linalg.svd: Expected a floating point or complex tensor as input. Got {names.get(A.dtype, A.dtype)}"
        )
    if torch.is_grad_enabled() and A.requires_grad:
        raise NotImplementedError(
            f"gradscope: {name} has no gradient yet (PyTorch records LinalgSvdBackward0); "
            "call it on A.detach() or under torch.no_grad()"
        )
    m, n = A.shape[-2], A.shape[-1]
    if not reduced and m != n:
        raise NotImplementedError(
            f"gradscope: {name} of a non-square matrix gives only the reduced factors "
            "(full_matrices=False, or some=True for torch.svd)"
        )
    k = _builtins.min(m, n)
    batch = tuple(A.shape[:-2])
    like = dict(dtype=A.dtype, device=A._device)
    if k == 0:
        return (torch.zeros(batch + (m, k), **like), torch.zeros(batch + (k,), **like),
                torch.zeros(batch + (n, k), **like))
    double = A.dtype == torch.float64
    us, ss, vs = [], [], []
    for mat in A.detach().cpu().to(torch.float64).reshape(-1, m, n).tolist():
        u, s, v = _svd.svd_lists(mat, double)
        us.append(u)
        ss.append(s)
        vs.append(v)
    return (_C.tensor(us, **like).reshape(batch + (m, k)), _C.tensor(ss, **like).reshape(batch + (k,)),
            _C.tensor(vs, **like).reshape(batch + (n, k)))


def svd(A, full_matrices=True, *, driver=None, out=None):
    """`(U, S, Vh)` with `A = U diag(S) Vh`, the singular vectors' signs as
    PyTorch's CPU gives them. gradscope has no gradient for it yet, and the
    complete factors (`full_matrices=True`) only of square matrices."""
    from torch import return_types

    u, s, v = _svd_factors("linalg.svd", A, not full_matrices or A.shape[-1] == A.shape[-2])
    return return_types.linalg_svd((u, s, v.transpose(-2, -1)))


def svdvals(A, *, driver=None, out=None):
    """The singular values of A, largest first."""
    return _svd_factors("linalg.svdvals", A, True)[1]

