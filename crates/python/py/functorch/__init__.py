"""`functorch`: the pre-2.0 name of `torch.func`. Each function warns that
it is deprecated, in PyTorch's words, and calls its `torch.func`
counterpart; `make_functional` and `make_functional_with_buffers` give a
module's function of its parameters (and buffers) by `functional_call`."""

import warnings

import torch
from torch import func as _func

__version__ = torch.__version__


def _warn_deprecated(api, new_api=None):
    if new_api is None:
        new_api = f"torch.func.{api}"
    warnings.warn(
        "We've integrated functorch into PyTorch. As the final step of the "
        f"integration, `functorch.{api}` is deprecated as of PyTorch "
        "2.0 and will be deleted in a future version of PyTorch >= 2.3. "
        f"Please use `{new_api}` instead; see the PyTorch 2.0 release notes "
        "and/or the `torch.func` migration guide for more details "
        "https://pytorch.org/docs/main/func.migrating.html",
        FutureWarning,
        stacklevel=3,
    )


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    _warn_deprecated("vmap", "torch.vmap")
    return _func.vmap(func, in_dims, out_dims, randomness, chunk_size=chunk_size)


def grad(func, argnums=0, has_aux=False):
    _warn_deprecated("grad")
    return _func.grad(func, argnums, has_aux)


def grad_and_value(func, argnums=0, has_aux=False):
    _warn_deprecated("grad_and_value")
    return _func.grad_and_value(func, argnums, has_aux)


def vjp(func, *primals, has_aux=False):
    _warn_deprecated("vjp")
    return _func.vjp(func, *primals, has_aux=has_aux)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    _warn_deprecated("jvp")
    return _func.jvp(func, primals, tangents, strict=strict, has_aux=has_aux)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    _warn_deprecated("jacrev")
    return _func.jacrev(func, argnums, has_aux=has_aux, chunk_size=chunk_size)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    _warn_deprecated("jacfwd")
    return _func.jacfwd(func, argnums, has_aux, randomness=randomness)


def hessian(func, argnums=0):
    _warn_deprecated("hessian")
    return _func.hessian(func, argnums=argnums)


class FunctionalModuleWithBuffers:
    """A copy of a module called as `fmodel(params, buffers, *args)`, the
    parameters and buffers given in the order `named_parameters()` and
    `named_buffers()` list them."""

    def __init__(self, stateless, param_names, buffer_names):
        self.stateless_model = stateless
        self.param_names = param_names
        self.buffer_names = buffer_names

    def __call__(self, params, buffers, *args, **kwargs):
        named = dict(zip(self.param_names, params))
        named.update(zip(self.buffer_names, buffers))
        return _func.functional_call(self.stateless_model, named, args, kwargs)


class FunctionalModule:
    """A copy of a module called as `fmodel(params, *args)`."""

    def __init__(self, stateless, param_names):
        self.stateless_model = stateless
        self.param_names = param_names

    def __call__(self, params, *args, **kwargs):
        return _func.functional_call(self.stateless_model, dict(zip(self.param_names, params)), args, kwargs)


def _copy_parts(model, disable_autograd_tracking):
    import copy

    stateless = copy.deepcopy(model)
    names = [n for n, _ in stateless.named_parameters()]
    params = tuple(p for _, p in stateless.named_parameters())
    if disable_autograd_tracking:
        params = tuple(p.detach() for p in params)
    return stateless, names, params


def make_functional(model, disable_autograd_tracking=False):
    _warn_deprecated("make_functional", "torch.func.functional_call")
    if len(list(model.buffers())) > 0:
        raise RuntimeError("make_functional(model): `model` has buffers. Please use "
                           "make_functional_with_buffers(model) instead.")
    stateless, names, params = _copy_parts(model, disable_autograd_tracking)
    return FunctionalModule(stateless, names), params


def make_functional_with_buffers(model, disable_autograd_tracking=False):
    _warn_deprecated("make_functional_with_buffers", "torch.func.functional_call")
    stateless, names, params = _copy_parts(model, disable_autograd_tracking)
    buffer_names = [n for n, _ in stateless.named_buffers()]
    buffers = tuple(b for _, b in stateless.named_buffers())
    return FunctionalModuleWithBuffers(stateless, names, buffer_names), params, buffers
