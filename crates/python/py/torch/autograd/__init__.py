"""`torch.autograd`."""

import _gradscope as _C

from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from . import graph
from .function import Function, FunctionCtx, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from . import function, functional, profiler


def _tensor_list(value):
    if _C._is_tensor(value):
        return [value]
    return list(value)


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    only_inputs=True,
    allow_unused=None,
    is_grads_batched=False,
    materialize_grads=False,
):
    """Gradients of `outputs` with respect to `inputs`, returned as a tuple
    instead of accumulated into `.grad`."""
    if is_grads_batched:
        raise NotImplementedError("gradscope does not support is_grads_batched yet")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _tensor_list(outputs)
    inputs = _tensor_list(inputs)
    if grad_outputs is not None:
        grad_outputs = _tensor_list(grad_outputs)
    result = _C._autograd_grad(
        outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused
    )
    if materialize_grads:
        import torch

        result = tuple(
            torch.zeros_like(i) if g is None else g for i, g in zip(inputs, result)
        )
    return result


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates gradients of `tensors` into the leaves' `.grad`."""
    tensors = _tensor_list(tensors)
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    else:
        grad_tensors = _tensor_list(grad_tensors)
    for t, g in zip(tensors, grad_tensors):
        t.backward(g, retain_graph=True if retain_graph is None and len(tensors) > 1 else retain_graph,
                   create_graph=create_graph, inputs=inputs)


def set_detect_anomaly(mode, check_nan=True):
    _C.set_detect_anomaly(mode)


class detect_anomaly:
    """Anomaly detection within a `with` block."""

    def __init__(self, check_nan=True):
        self.prev = _C.is_anomaly_enabled()

    def __enter__(self):
        _C.set_detect_anomaly(True)

    def __exit__(self, *args):
        _C.set_detect_anomaly(self.prev)


def __getattr__(name):
    # `torch.autograd.forward_ad` without importing it, as PyTorch's eager
    # import gives it; here imported on first use, off `import torch`'s path.
    if name == "forward_ad":
        import importlib

        return importlib.import_module("torch.autograd.forward_ad")
    raise AttributeError(f"module 'torch.autograd' has no attribute '{name}'")


def Variable(data, requires_grad=False, volatile=False):
    """The pre-0.4 wrapper: today a tensor is its own `Variable`."""
    return data.detach().requires_grad_(requires_grad)
