"""`torch.autograd.functional`: `jacobian`, `hessian`, `vjp`, `jvp`, built
row by row from `autograd.grad`, as PyTorch does without `vectorize`."""

import torch

__all__ = ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"]


def _as_tuple(x):
    return (x, False) if isinstance(x, tuple) else ((x,), True)


def _grad_inputs(inputs, create_graph):
    return tuple(i.detach().requires_grad_(True) if not (create_graph and i.requires_grad) else i
                 for i in inputs)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    inputs, single_in = _as_tuple(inputs)
    with torch.enable_grad():
        inputs = _grad_inputs(inputs, create_graph)
        outputs = func(*inputs)
        outputs, single_out = _as_tuple(outputs)
        result = []
        for out in outputs:
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(flat.numel()):
                grads = torch.autograd.grad(flat[j], inputs, retain_graph=True,
                                            create_graph=create_graph, allow_unused=True)
                for k, (g, inp) in enumerate(zip(grads, inputs)):
                    rows[k].append(torch.zeros_like(inp) if g is None else g)
            per_input = []
            for k, inp in enumerate(inputs):
                if rows[k]:
                    jac = torch.stack(rows[k]).reshape(tuple(out.shape) + tuple(inp.shape))
                else:
                    jac = torch.zeros(tuple(out.shape) + tuple(inp.shape), dtype=inp.dtype)
                per_input.append(jac if create_graph else jac.detach())
            result.append(per_input[0] if single_in else tuple(per_input))
    return result[0] if single_out else tuple(result)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    inputs_t, single_in = _as_tuple(inputs)

    def gradient(*xs):
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError(
                "The function given to hessian should return a single element Tensor"
            )
        grads = torch.autograd.grad(out.reshape(()), xs, create_graph=True, allow_unused=True)
        grads = tuple(torch.zeros_like(x) if g is None else g for x, g in zip(xs, grads))
        return grads[0] if single_in else grads

    return jacobian(gradient, inputs_t[0] if single_in else inputs_t, create_graph=create_graph)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    inputs, single_in = _as_tuple(inputs)
    with torch.enable_grad():
        inputs = _grad_inputs(inputs, create_graph)
        out = func(*inputs)
        grads = torch.autograd.grad(out, inputs, v, create_graph=create_graph, allow_unused=True)
    grads = tuple(torch.zeros_like(i) if g is None else (g if create_graph else g.detach())
                  for i, g in zip(inputs, grads))
    out = out if create_graph else out.detach()
    return out, grads[0] if single_in else grads


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    inputs_t, single_in = _as_tuple(inputs)
    vs = _as_tuple(v)[0] if v is not None else tuple(torch.ones_like(i) for i in inputs_t)
    jac = jacobian(func, inputs, create_graph=create_graph)
    jacs = (jac,) if single_in else jac
    out = func(*inputs_t)
    total = None
    for j, vec, inp in zip(jacs, vs, inputs_t):
        term = (j.reshape(out.numel(), inp.numel()) @ vec.reshape(-1)).reshape(out.shape)
        total = term if total is None else total + term
    return out.detach(), total


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    inputs_t, single_in = _as_tuple(inputs)
    h = hessian(func, inputs)
    out = func(*inputs_t).detach()
    vec = v.reshape(-1) if single_in else v[0].reshape(-1)
    x = inputs_t[0]
    hm = (h if single_in else h[0][0]).reshape(x.numel(), x.numel())
    return out, (vec @ hm).reshape(x.shape)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    inputs_t, single_in = _as_tuple(inputs)
    h = hessian(func, inputs)
    out = func(*inputs_t).detach()
    vec = v.reshape(-1) if single_in else v[0].reshape(-1)
    x = inputs_t[0]
    hm = (h if single_in else h[0][0]).reshape(x.numel(), x.numel())
    return out, (hm @ vec).reshape(x.shape)
