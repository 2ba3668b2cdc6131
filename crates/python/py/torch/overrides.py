"""`torch.overrides`: the helpers of the `__torch_function__` protocol."""

import torch

from ._python_dispatch import call_overloads, is_torch_function_enabled, opted_out, overloaded_types


def is_tensor_like(inp):
    """A tensor, or an object whose type defines `__torch_function__`."""
    return type(inp) is torch.Tensor or hasattr(inp, "__torch_function__")


def _overriding(values):
    if not is_torch_function_enabled():
        return []
    return [v for v in values if type(v) is not torch.Tensor and hasattr(type(v), "__torch_function__")
            and not opted_out(type(v))]


def has_torch_function(relevant_args):
    return bool(_overriding(relevant_args))


def has_torch_function_unary(arg):
    return bool(_overriding((arg,)))


def has_torch_function_variadic(*args):
    return bool(_overriding(args))


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls the `__torch_function__` of the overriding types among
    `relevant_args` (subclasses before their bases, otherwise left to
    right) until one does not return `NotImplemented`."""
    found = _overriding(relevant_args)
    types = tuple(overloaded_types(found))
    result = call_overloads(public_api, types, found, args, kwargs)
    if result is not NotImplemented:
        return result
    func_name = f"{public_api.__module__}.{public_api.__name__}"
    raise TypeError(
        f"no implementation found for '{func_name}' on types that implement "
        f"__torch_function__: {[type(arg) for arg in relevant_args if is_tensor_like(arg)]}"
    )
