# torch.optim.LBFGS on a convex quadratic (fixed step, history kept short so
# pairs are dropped) and the Rosenbrock function (strong-Wolfe line search),
# and a small least-squares fit.
import torch


def rosenbrock(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 100 * (y - x * x) ** 2


A = torch.tensor([[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.0]], dtype=torch.float64)
c = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)


def quadratic(p):
    return 0.5 * p @ A @ p - c @ p


for line_search, f, start in ((None, quadratic, [2.0, 2.0, 2.0]), ("strong_wolfe", rosenbrock, [-1.5, 2.0])):
    p = torch.tensor(start, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([p], lr=1 if line_search else 0.5, max_iter=6, history_size=2,
                            line_search_fn=line_search)
    evals = []

    def closure():
        opt.zero_grad()
        loss = f(p)
        loss.backward()
        evals.append(loss.item())
        return loss

    for step in range(5):
        loss = opt.step(closure)
        print(line_search, step, f"{loss.item():.10f}", [f"{v:.8f}" for v in p.tolist()])
    state = opt.state[p]
    print(sorted(state.keys()))
    print(state["func_evals"], state["n_iter"], len(state["old_dirs"]), len(evals))

torch.manual_seed(0)
w_true = torch.randn(3, 1)
X = torch.randn(20, 3)
Y = X @ w_true + 0.01 * torch.randn(20, 1)
model = torch.nn.Linear(3, 1)
opt = torch.optim.LBFGS(model.parameters(), line_search_fn="strong_wolfe")
print(opt)


def fit():
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(X), Y)
    loss.backward()
    return loss


for i in range(3):
    print(i, f"{opt.step(fit).item():.6f}")
print(torch.allclose(model.weight.detach().t(), w_true, atol=0.05))

try:
    torch.optim.LBFGS([{"params": [p]}, {"params": [torch.zeros(1, requires_grad=True)]}])
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.LBFGS([p], lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.LBFGS([p], line_search_fn="armijo").step(lambda: rosenbrock(p))
except RuntimeError as e:
    print("RuntimeError:", e)
