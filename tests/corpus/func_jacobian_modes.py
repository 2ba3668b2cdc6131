# torch.func's Jacobians whichever way gradscope builds them: jacrev by
# columns when the output has more elements than the inputs (an outer
# product, a Jacobian of a Jacobian), by rows else; jacfwd a column per
# input from one traced function; hessian and jacfwd(jacfwd) of a layer.
import torch
import torch.nn.functional as F
from torch.func import hessian, jacfwd, jacrev, vmap

torch.manual_seed(0)
x = torch.randn(3)
y = torch.randn(2)

print(jacrev(lambda a: torch.outer(a, a).sin())(x))
print(jacrev(lambda a: a.sum() * a[0])(x))
print(jacrev(lambda a, b: (a[:2] * b, a.sum() + b), argnums=(0, 1))(x, y))
print(jacrev(lambda a, b: torch.outer(a, b), argnums=(0, 1))(x, y))
j, aux = jacrev(lambda a: (torch.outer(a, a), a.cos()), has_aux=True)(x)
print(j.shape, aux)
print(jacrev(lambda a: {"p": torch.outer(a, a), "q": a * 2})(x))
print(jacrev(jacrev(lambda a: a.pow(3).sum() * a[1]))(x))
print(jacrev(lambda a: torch.cat([a, torch.ones(5)]))(x))
print(jacrev(lambda a: torch.ones(2) * 2.0)(x))
print(vmap(jacrev(lambda a: torch.outer(a, a)))(torch.randn(2, 2)))
z = torch.randn(2, 2, requires_grad=True)
jj = jacrev(lambda a: (a @ a).exp())(z)
jj.sum().backward()
print(jj.shape, z.grad)


def predict(weight, bias, v):
    return F.linear(v, weight, bias).tanh()


w = torch.randn(4, 6)
b = torch.randn(4)
v = torch.randn(6)
h_api = hessian(predict, argnums=2)(w, b, v)
h_ff = jacfwd(jacfwd(predict, argnums=2), argnums=2)(w, b, v)
h_rr = jacrev(jacrev(predict, argnums=2), argnums=2)(w, b, v)
print(h_api.shape, torch.allclose(h_api, h_ff), torch.allclose(h_api, h_rr))
print(h_rr[1, :3, :3])
jw, jb = jacfwd(predict, argnums=(0, 1))(w, b, v)
print(jw.shape, jb.shape)
print(jb)
print(jacfwd(lambda a, c: a * c, argnums=(0, 1))(x, x.flip(0)))
print(jacfwd(lambda a: {"a": a * 2, "b": a.sum()})(y))
