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
            outs = [o for o in out if isinstance(o, torch.Tensor)]
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


def gradgradcheck(func, inputs, grad_outputs=None, **kwargs):
    raise NotImplementedError("gradscope does not support gradgradcheck from Python yet")
