"""`torch.utils.checkpoint`: activation checkpointing with PyTorch's
`use_reentrant=False` semantics, by the engine's checkpointing (the
checkpointed function runs again in backward, shown in the trace).
`use_reentrant=True` is run the same way."""


import _gradscope as _C

import torch

__all__ = ["checkpoint", "checkpoint_sequential"]

_REENTRANT_WARNING = (
    "torch.utils.checkpoint.%s: the use_reentrant parameter should be passed explicitly. "
    "In a future release, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants."
)


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default",
               debug=False, preserve_rng_state=True, **kwargs):
    if use_reentrant is None:
        import warnings  # on use: it costs every start

        warnings.warn(_REENTRANT_WARNING % "checkpoint", stacklevel=2)
    if use_reentrant and kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
    shape = {}

    def run(tensors):
        full = list(args)
        for i, t in zip(positions, tensors):
            full[i] = t
        out = function(*full, **kwargs)
        shape["tuple"] = isinstance(out, (tuple, list))
        outs = list(out) if shape["tuple"] else [out]
        for o in outs:
            if not isinstance(o, torch.Tensor):
                raise NotImplementedError(
                    "gradscope's checkpoint supports functions returning tensors only"
                )
        return outs

    outputs = _C._checkpoint(run, [args[i] for i in positions])
    if shape.get("tuple"):
        return tuple(outputs)
    return outputs[0]


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    if use_reentrant is None:
        import warnings  # on use: it costs every start

        warnings.warn(_REENTRANT_WARNING % "checkpoint_sequential", stacklevel=2)

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input

        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input,
                           use_reentrant=use_reentrant, **kwargs)
    return run_function(end + 1, len(functions) - 1, functions)(input)
