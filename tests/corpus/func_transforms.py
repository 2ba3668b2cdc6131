# torch.func transforms: grad, vjp, jvp, jacrev, jacfwd, hessian, vmap,
# functional_call and stack_module_state, as the torch.func tutorials use them.
import torch
from torch.func import grad, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call, stack_module_state
torch.manual_seed(0)
x = torch.randn(3)
f = lambda x: (x.sin() * x).sum()
print(grad(f)(x))
out, fn = vjp(torch.sin, x)
print(out, fn(torch.ones(3)))
print(jvp(torch.sin, (x,), (torch.ones(3),)))
w = torch.randn(2, 3)
print(jacrev(lambda w, x: w @ x, argnums=(0, 1))(w, x)[1])
print(jacfwd(lambda x: x.sin())(x))
print(hessian(f)(x))
print(vmap(torch.dot)(torch.randn(4, 3), torch.randn(4, 3)))
print(vmap(lambda a, b: a * b, in_dims=(0, None))(torch.randn(2, 3), torch.ones(3)))
m = torch.nn.Linear(3, 2)
params = {k: v.detach() for k, v in m.named_parameters()}
print(functional_call(m, params, (x,)))
print(vmap(grad(lambda p, x: functional_call(m, p, (x,)).sum()), in_dims=(None, 0))(params, torch.randn(4, 3))["weight"].shape)
models = [torch.nn.Linear(3, 2) for _ in range(3)]
p, b = stack_module_state(models)
print({k: v.shape for k, v in p.items()}, p["weight"].requires_grad)
print(vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(p, b, x).detach())
print(torch.vmap(torch.sum)(torch.ones(2, 3)))
