"""`torch.autograd.Function`: custom forward and backward, run by the
engine as one node named `<Class>Backward`, as in PyTorch."""

import _gradscope as _C

import torch


class FunctionCtx:
    """What `forward` tells `backward`: saved tensors and any attributes."""

    def __init__(self):
        self._to_save = ()
        self._saved = None
        self.needs_input_grad = ()
        self._non_differentiable = False
        self.materialize_grads = True

    def save_for_backward(self, *tensors):
        self._to_save = tensors

    @property
    def saved_tensors(self):
        if self._saved is None:
            return tuple(self._to_save)
        return self._saved

    def mark_non_differentiable(self, *args):
        self._non_differentiable = True

    def mark_dirty(self, *args):
        pass

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class _FunctionMeta(type):
    pass


class Function(metaclass=_FunctionMeta):
    """Subclass with static `forward(ctx, *args)` and `backward(ctx, *grads)`,
    then call `apply(*args)`."""

    def __init__(self, *args, **kwargs):
        pass

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        name = cls.__name__
        ctx = FunctionCtx()
        positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        tensors = [args[i] for i in positions]
        uses_setup = "setup_context" in _own_attrs(cls)

        def forward(needs):
            needs = iter(needs)
            ctx.needs_input_grad = tuple(
                next(needs) if isinstance(a, torch.Tensor) else False for a in args
            )
            if uses_setup:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
            if not isinstance(output, torch.Tensor):
                raise NotImplementedError(
                    "gradscope's custom Functions return one tensor; "
                    f"{name}.forward returned {type(output).__name__}"
                )
            return output, list(ctx._to_save), ctx._non_differentiable

        def backward(saved, grad):
            ctx._saved = tuple(saved)
            grads = cls.backward(ctx, grad)
            if not isinstance(grads, tuple):
                grads = (grads,)
            if len(grads) != len(args):
                raise RuntimeError(
                    f"function {name}Backward returned an incorrect number of gradients "
                    f"(expected {len(args)}, got {len(grads)})"
                )
            return [grads[i] for i in positions]

        return _C._apply_function(name, tensors, forward, backward)


def _own_attrs(cls):
    names = set()
    for klass in cls.__mro__:
        if klass is Function:
            break
        names.update(vars(klass))
    return names


class InplaceFunction(Function):
    pass


def once_differentiable(fn):
    return fn
