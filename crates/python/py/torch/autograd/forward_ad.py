"""`torch.autograd.forward_ad`: dual tensors (a primal and its tangent)
and the Jacobian-vector products forward-mode AD gives.

gradscope has no per-op JVP formulas. A dual tensor here is a tensor the
reverse-mode engine tracks, recorded with its tangent at the current level;
`unpack_dual(out)` computes `out`'s tangent when asked, by the double-vjp
identity on the engine's own graph: with `u` a zero cotangent of `out`'s
shape, `g_i = J_i^T u` (one backward pass, `create_graph=True`) is linear in
`u`, so the gradient of `sum_i <g_i, v_i>` with respect to `u` (a second
pass) is `sum_i J_i v_i`, the tangent forward mode would have carried, over
every dual `v_i` of the level `out` depends on. It needs every op on the way
to have a double backward, which the engine's derivative table gives (each
backward is made of differentiable ops). The values are forward mode's up
to float rounding; the work is two reverse passes per `unpack_dual`.

A custom `Function` with a `jvp` staticmethod and no `backward` gives its
outputs the tangents its `jvp` returns (`Function.apply` asks
`_function_tangents`); with a `backward` its outputs join the graph as any
op's do.

Differences from PyTorch: a dual made from a primal that does not require
grad is a tensor the engine tracks, so it reports `requires_grad=True`; a
tangent's dtype is kept as given.
"""

from collections import namedtuple

import torch

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
           "dual_level"]

_current_level = -1


class _Level:
    """The duals made at one level: (tensor, tangent) pairs whose tangents
    were given (`make_dual`, a `Function`'s `jvp`), by `id` with the tensor
    kept alive so the id stays its own; a tangent of `None` marks a primal
    `unpack_dual` gave back, which has none."""

    def __init__(self):
        self.given = {}

    def record(self, tensor, tangent):
        self.given[id(tensor)] = (tensor, tangent)

    def lookup(self, tensor):
        entry = self.given.get(id(tensor))
        return entry if entry is not None and entry[0] is tensor else None


_levels = []


def enter_dual_level():
    """Enters a new forward grad level (only one at a time, as PyTorch)."""
    global _current_level
    if _levels:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _levels.append(_Level())
    _current_level = len(_levels) - 1
    return _current_level


def exit_dual_level(*, level=None):
    """Exits the level, dropping every tangent made in it."""
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. This is not supported."
        )
    _levels.pop()
    _current_level = level - 1


def _level(level):
    if level is None:
        level = _current_level
    if level < 0 or level >= len(_levels):
        return None
    return _levels[level]


def make_dual(tensor, tangent, *, level=None):
    """A tensor aliasing `tensor` with `tangent` as its forward gradient:
    `tangent` itself when it has `tensor`'s strides, else a copy of it laid
    out as `tensor` is."""
    from torch.func import _forward_mode_used

    _forward_mode_used()
    state = _level(level)
    if state is None:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first."
        )
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            f"not supported. Tensor is of size {list(tensor.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}."
        )
    if tangent.stride() != tensor.stride():
        tangent = torch.empty_like(tensor, dtype=tangent.dtype).copy_(tangent)
    with torch.enable_grad():
        dual = tensor.view_as(tensor) if tensor.requires_grad else tensor.detach().requires_grad_()
    state.record(dual, tangent)
    return dual


UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"
UnpackedDualTensor.__doc__ = "What `unpack_dual` returns: the primal and its tangent (or `None`)."


def _tangent(state, tensor):
    """`tensor`'s tangent at the level: the one given for it, or
    `sum_i J_i v_i` over the level's duals by the double-vjp identity
    (`None` when it depends on none)."""
    entry = state.lookup(tensor)
    if entry is not None:
        return entry[1]
    if not isinstance(tensor, torch.Tensor) or not tensor.requires_grad or not tensor.is_floating_point():
        return None
    duals = [(t, v) for t, v in state.given.values() if v is not None]
    if not duals:
        return None
    with torch.enable_grad():
        u = torch.zeros_like(tensor).requires_grad_()
        grads = torch.autograd.grad(tensor, [t for t, _ in duals], u, create_graph=True, allow_unused=True)
        used = [(g, v) for g, (_, v) in zip(grads, duals) if g is not None]
        if not used:
            return None
        linear = [(g, v) for g, v in used if g.requires_grad]
        if not linear:
            return torch.zeros_like(tensor)
        total = sum((g * v).sum() for g, v in linear)
        (out,) = torch.autograd.grad(total, u, allow_unused=True)
    return torch.zeros_like(tensor) if out is None else out.detach()


def unpack_dual(tensor, *, level=None):
    """`(primal, tangent)` of a tensor at the level: `tangent` is `None`
    outside a level and for a tensor that depends on no dual."""
    state = _level(level)
    if state is None:
        return UnpackedDualTensor(tensor, None)
    tangent = _tangent(state, tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    primal = tensor.view_as(tensor)
    state.record(primal, None)
    return UnpackedDualTensor(primal, tangent)


def _function_tangents(inputs):
    """The tangents of a custom `Function`'s tensor inputs at the current
    level (zeros for an input that has none), or `None` when no level is
    active or no input has a tangent."""
    state = _level(None)
    if state is None:
        return None
    tangents = [_tangent(state, t) for t in inputs]
    if all(t is None for t in tangents):
        return None
    return [torch.zeros_like(i) if t is None else t for i, t in zip(inputs, tangents)]


def _record_function_outputs(outputs, tangents):
    """Gives a custom `Function`'s outputs the tangents its `jvp` returned."""
    state = _level(None)
    for o, t in zip(outputs, tangents):
        if isinstance(o, torch.Tensor) and t is not None:
            state.record(o, t)


class dual_level:
    """`with dual_level():` enters a forward grad level and exits it after,
    dropping its tangents; also a decorator."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback):
        exit_dual_level()

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with self.__class__():
                return func(*args, **kwargs)

        return wrapped
