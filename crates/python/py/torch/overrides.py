"""`torch.overrides`: the helpers of the `__torch_function__` protocol."""

import torch

from ._python_dispatch import is_torch_function_enabled, opted_out


def is_tensor_like(inp):
    """A tensor, or an object whose type defines `__torch_function__`."""
    return type(inp) is torch.Tensor or hasattr(inp, "__torch_function__")


def _overriding(values):
    return [v for v in values if isinstance(v, torch.Tensor) and not opted_out(type(v))] \
        if is_torch_function_enabled() else []


def has_torch_function(relevant_args):
    return bool(_overriding(relevant_args))


def has_torch_function_unary(arg):
    return bool(_overriding((arg,)))


def has_torch_function_variadic(*args):
    return bool(_overriding(args))


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls the first overriding type's `__torch_function__` that does not
    return `NotImplemented`, subclasses before their bases."""
    overloaded = []
    for v in _overriding(relevant_args):
        if type(v) not in overloaded:
            overloaded.append(type(v))
    types = tuple(overloaded)
    for cls in sorted(overloaded, key=lambda c: -len(c.__mro__)):
        result = cls.__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    func_name = f"{public_api.__module__}.{public_api.__name__}"
    raise TypeError(
        f"no implementation found for '{func_name}' on types that implement "
        f"__torch_function__: {[type(arg) for arg in relevant_args if is_tensor_like(arg)]}"
    )
