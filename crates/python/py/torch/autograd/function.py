"""`torch.autograd.Function`: custom forward and backward, run by the
engine as nodes named `<Class>Backward`, as in PyTorch.

gradscope's engine gives each node one output. A forward that returns
several tensors gets one `<Class>Backward` node per differentiable output,
sharing one `ctx`; each node calls `backward` with its own output's
gradient and zeros (or `None`, after `ctx.set_materialize_grads(False)`)
for the others, and the engine sums what they return. The gradients are
PyTorch's (backward is linear in its gradients); what differs is that a
backward may run once per output that received a gradient instead of once.
"""

import _gradscope as _C

import sys

import torch


class FunctionCtx:
    """What `forward` tells `backward`: saved tensors and any attributes."""

    def __init__(self):
        self._to_save = ()
        self._saved = None
        self.needs_input_grad = ()
        self._non_differentiable = ()
        self._dirty = ()
        self.materialize_grads = True
        self._for_forward = None

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{tensors.index(t)} is of type {type(t).__name__}"
                )
        self._to_save = tensors

    def save_for_forward(self, *tensors):
        self._for_forward = tensors

    @property
    def saved_tensors(self):
        if self._saved is None:
            return tuple(self._to_save)
        return self._saved

    @property
    def saved_variables(self):
        return self.saved_tensors

    def mark_non_differentiable(self, *args):
        self._non_differentiable = self._non_differentiable + args

    def mark_dirty(self, *args):
        self._dirty = self._dirty + args

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


BackwardCFunction = FunctionCtx


class _FunctionMeta(type):
    pass


def _is_in(t, items):
    return any(t is o for o in items)


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

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        name = cls.__name__
        ctx = FunctionCtx()
        positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        tensors = [args[i] for i in positions]
        uses_setup = "setup_context" in _own_attrs(cls)
        run = {}

        def saved_parts():
            """The saved tensors without their `None`s (which the engine
            cannot hold), and where the `None`s go back."""
            items = list(ctx._to_save)
            return [t for t in items if t is not None], [t is None for t in items]

        def first_forward(needs):
            needs = iter(needs)
            ctx.needs_input_grad = tuple(
                next(needs) if isinstance(a, torch.Tensor) else False for a in args
            )
            if uses_setup:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
            is_tuple = isinstance(output, tuple)
            outputs = output if is_tuple else (output,)
            if not any(isinstance(o, torch.Tensor) for o in outputs):
                raise TypeError(
                    f"{name}.forward must return a Tensor or a tuple containing at least one Tensor"
                )
            differentiable = [
                i for i, o in enumerate(outputs)
                if isinstance(o, torch.Tensor) and not _is_in(o, ctx._non_differentiable)
                and (o.is_floating_point())
            ]
            saved, holes = saved_parts()
            run.update(outputs=outputs, is_tuple=is_tuple, differentiable=differentiable, holes=holes)
            if not differentiable:
                first = next(i for i, o in enumerate(outputs) if isinstance(o, torch.Tensor))
                run["first"] = first
                return outputs[first], saved, True
            run["first"] = differentiable[0]
            return outputs[differentiable[0]], saved, False

        def backward_for(index):
            def backward(saved, grad):
                saved = iter(saved)
                ctx._saved = tuple(None if hole else next(saved) for hole in run["holes"])
                grads = []
                for i, o in enumerate(run["outputs"]):
                    if i == index:
                        grads.append(grad)
                    elif isinstance(o, torch.Tensor) and ctx.materialize_grads:
                        grads.append(torch.zeros_like(o))
                    else:
                        grads.append(None)
                result = cls.backward(ctx, *grads)
                if not isinstance(result, tuple):
                    result = (result,)
                if len(result) > len(args) and all(g is None for g in result[len(args):]):
                    result = result[: len(args)]
                if len(result) != len(args):
                    raise RuntimeError(
                        f"function {name}Backward returned an incorrect number of gradients "
                        f"(expected {len(args)}, got {len(result)})"
                    )
                for i, (a, g) in enumerate(zip(args, result)):
                    if g is not None and not isinstance(a, torch.Tensor):
                        raise RuntimeError(
                            f"function {name}Backward returned a gradient different than None at "
                            f"position {i + 1}, but the corresponding forward input was not a Variable"
                        )
                return [result[i] for i in positions]

            return backward

        # The first output's node runs forward; the others' reuse its outputs.
        first = _C._apply_function(name, tensors, first_forward, _Deferred(run, backward_for))
        outputs = list(run["outputs"])
        outputs[run["first"]] = first
        for i in run["differentiable"][1:]:
            def forward(needs, i=i):
                return run["outputs"][i], saved_parts()[0], False

            outputs[i] = _C._apply_function(name, tensors, forward, backward_for(i))
        forward_ad = sys.modules.get("torch.autograd.forward_ad")
        if forward_ad is not None and forward_ad._current_level >= 0 and "jvp" in _own_attrs(cls):
            outputs = _forward_tangents(forward_ad, cls, ctx, args, tensors, outputs)
        return tuple(outputs) if run["is_tuple"] else outputs[0]


def _forward_tangents(forward_ad, cls, ctx, args, tensors, outputs):
    """At a forward AD level, a `Function` with its own `jvp` gives its
    outputs the tangents `jvp` returns from its inputs' tangents. Without
    a `backward` of its own, its outputs leave the graph (nothing could run
    backward through them), so the tangents of what is computed from them
    start there instead of passing through a node that has no derivative."""
    in_tangents = forward_ad._function_tangents(tensors)
    if in_tangents is None:
        return outputs
    given = iter(in_tangents)
    grad_inputs = [next(given) if isinstance(a, torch.Tensor) else None for a in args]
    if ctx._for_forward is not None:
        ctx._saved = tuple(ctx._for_forward)
    out_tangents = cls.jvp(ctx, *grad_inputs)
    if not isinstance(out_tangents, tuple):
        out_tangents = (out_tangents,)
    if len(out_tangents) != len(outputs):
        raise RuntimeError(
            f"function {cls.__name__}Backward returned an incorrect number of forward gradients "
            f"(expected {len(outputs)}, got {len(out_tangents)})"
        )
    if "backward" not in _own_attrs(cls) and "vjp" not in _own_attrs(cls):
        outputs = [
            o.detach().requires_grad_(o.requires_grad) if isinstance(o, torch.Tensor) else o for o in outputs
        ]
    forward_ad._record_function_outputs(outputs, out_tangents)
    return outputs


class _Deferred:
    """The first node's backward, whose output index is known only after
    forward ran."""

    def __init__(self, run, backward_for):
        self.run = run
        self.backward_for = backward_for

    def __call__(self, saved, grad):
        return self.backward_for(self.run["first"])(saved, grad)


def _own_attrs(cls):
    names = set()
    for klass in cls.__mro__:
        if klass is Function:
            break
        names.update(vars(klass))
    return names


class InplaceFunction(Function):
    pass


class NestedIOFunction(Function):
    pass


def once_differentiable(fn):
    """Runs `backward` without recording a graph of its own: its result
    cannot be differentiated again, as PyTorch's decorator makes it."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            return fn(ctx, *args)

    return wrapper
