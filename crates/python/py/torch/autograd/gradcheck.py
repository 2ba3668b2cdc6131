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

    if check_forward_ad:
        mismatch = _forward_ad_mismatch(func, inputs, positions, eps, atol, rtol)
        if mismatch is not None:
            if not raise_exception:
                return False
            raise GradcheckError(mismatch)
    if not check_backward_ad:
        return True
    try:
        return _C._gradcheck(run, [inputs[i] for i in positions], float(eps), float(atol),
                             float(rtol))
    except RuntimeError as e:
        if type(e) is not RuntimeError:
            raise
        if not raise_exception:
            return False
        raise GradcheckError(str(e)) from None


def _forward_ad_mismatch(func, inputs, positions, eps, atol, rtol):
    """Forward mode's Jacobian against central differences, a column per
    input element (one `make_dual`/`unpack_dual` each): the first column
    that differs, in PyTorch's words, or `None`."""
    from . import forward_ad as fwAD

    def outputs(args):
        out = func(*args)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return [o for o in outs if isinstance(o, torch.Tensor) and o.is_floating_point()]

    for i in positions:
        x = inputs[i]
        if not (x.is_floating_point() and x.requires_grad):
            continue
        for k in range(x.numel()):
            def shifted(delta):
                with torch.no_grad():
                    moved = x.detach().clone()
                    moved.view(-1)[k] += delta
                    args = list(inputs)
                    args[i] = moved
                    return [o.detach() for o in outputs(args)]

            numerical = [(p - m) / (2 * eps) for p, m in zip(shifted(eps), shifted(-eps))]
            tangent = torch.zeros_like(x).detach()
            tangent.view(-1)[k] = 1
            with fwAD.dual_level():
                args = list(inputs)
                args[i] = fwAD.make_dual(x, tangent)
                analytical = [fwAD.unpack_dual(o).tangent for o in outputs(args)]
            for j, (a, n) in enumerate(zip(analytical, numerical)):
                a = torch.zeros_like(n) if a is None else a.detach().to(n.dtype)
                if not torch.allclose(a.reshape(n.shape), n, rtol=rtol, atol=atol):
                    return (f"Jacobian computed with forward mode mismatch for output {j} with respect to input "
                            f"{i},\nnumerical:{n.reshape(-1)}\nanalytical:{a.reshape(-1)}\n")
    return None


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
