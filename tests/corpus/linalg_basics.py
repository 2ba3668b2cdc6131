# torch.linalg as learners paste it: norms, cross, multi_dot, and det, inv
# and solve (normal equations of a least-squares fit): PyTorch's values,
# node names, gradients and errors.
import torch

A = torch.tensor([[4.0, -2.0, 1.0], [3.0, 6.0, -4.0], [2.0, 1.0, 8.0]], requires_grad=True)
B = torch.tensor([[1.0, 0.5], [-2.0, 1.0], [0.0, 3.0]], requires_grad=True)
v = torch.tensor([3.0, -4.0, 12.0], requires_grad=True)


def show(label, out, inputs, second_order=True, square=True):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    loss = (out * out).sum() if square else out.sum()
    grads = torch.autograd.grad(loss, inputs, create_graph=second_order)
    for g in grads:
        # (+ 0.0: the sign of a zero gradient is not the point here.)
        print(g.detach().round(decimals=4) + 0.0)
    if second_order:
        second = torch.autograd.grad(sum(g.sum() for g in grads), inputs)
        for g in second:
            print(g.round(decimals=4) + 0.0)


show("norm", torch.linalg.norm(v), [v])
show("norm matrix", torch.linalg.norm(A), [A])
show("norm dim", torch.linalg.norm(A, dim=1), [A])
show("norm ord 1 vector", torch.linalg.norm(v, ord=1), [v], second_order=False)
show("vector_norm", torch.linalg.vector_norm(A, ord=3, dim=0, keepdim=True), [A])
show("vector_norm inf", torch.linalg.vector_norm(v, ord=float("inf")), [v], second_order=False)
show("matrix_norm", torch.linalg.matrix_norm(A), [A])
show("matrix_norm 1", torch.linalg.matrix_norm(A, ord=1), [A], second_order=False)
show("matrix_norm inf", torch.linalg.norm(A, ord=float("inf")), [A], second_order=False)
show("cross", torch.linalg.cross(A, B.sum(1).expand(3, 3)), [A, B])
show("multi_dot", torch.linalg.multi_dot([v, A, B]), [v, A, B])
show("det", torch.linalg.det(A), [A], square=False)
show("det batch", torch.linalg.det(torch.stack([A, A.t() + 1])), [A], square=False)
show("inv", torch.linalg.inv(A), [A])
show("solve", torch.linalg.solve(A, B), [A, B])
show("solve vector", torch.linalg.solve(A, v), [A, v])

# Least squares by the normal equations: (X^T X) w = X^T y.
X = torch.tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
y = torch.tensor([1.0, 2.9, 5.1, 7.0])
w = torch.linalg.solve(X.T @ X, X.T @ y)
print(w.round(decimals=4))

for bad in [
    lambda: torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]])),
    lambda: torch.linalg.inv(torch.ones(2, 3)),
    lambda: torch.linalg.solve(torch.tensor([[1.0, 2.0], [2.0, 4.0]]), torch.ones(2)),
    lambda: torch.linalg.det(torch.ones(2, 3)),
]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, isinstance(e, torch.linalg.LinAlgError), e)
print(torch.linalg.det(torch.tensor([[1.0, 2.0], [2.0, 4.0]])))
