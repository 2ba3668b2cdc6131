"""`torch.autograd.gradcheck`: analytical gradients against finite
differences, by the engine's `gradcheck`."""

import _gradscope as _C

import torch


class GradcheckError(RuntimeError):
    """Raised when gradcheck or gradgradcheck finds a mismatch."""


GradcheckError.__module__ = "torch.autograd.gradcheck"


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    inputs = tuple(inputs)
    positions = [i for i, a in enumerate(inputs) if isinstance(a, torch.Tensor)]

    def run(tensors):
        args = list(inputs)
        for i, t in zip(positions, tensors):
            args[i] = t
        out = func(*args)
        if isinstance(out, (tuple, list)):
            outs = _differentiable_outputs(out)
            return torch.cat([o.reshape(-1) for o in outs])
        return out

    try:
        return _C._gradcheck(run, [inputs[i] for i in positions], float(eps), float(atol),
                             float(rtol))
    except RuntimeError as e:
        if type(e) is not RuntimeError:
            raise
        if not raise_exception:
            return False
        raise GradcheckError(str(e)) from None


def _differentiable_outputs(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return tuple(o for o in outs if isinstance(o, torch.Tensor) and o.requires_grad)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Checks the gradients of the gradients, as PyTorch does: `gradcheck`
    of the function from (inputs, grad_outputs) to the inputs' gradients,
    made with `create_graph=True`. Without `grad_outputs`, they are drawn
    uniform in [-1, 1) as PyTorch's `make_tensor` draws them."""
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    inputs = tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*inputs))
        grad_outputs = tuple(
            torch.empty(o.shape, dtype=o.dtype if o.is_floating_point() else torch.double,
                        device=o.device).uniform_(-1, 1).requires_grad_()
            for o in outputs
        )
    elif isinstance(grad_outputs, torch.Tensor):
        grad_outputs = (grad_outputs,)
    grad_outputs = tuple(grad_outputs)
    count = len(grad_outputs)

    def new_func(*args):
        input_args = args[:-count] if count else args
        outputs = _differentiable_outputs(func(*input_args))
        input_args = tuple(x for x in input_args if isinstance(x, torch.Tensor) and x.requires_grad)
        grads = torch.autograd.grad(outputs, input_args, args[-count:] if count else None,
                                    create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
