"""`torch.amp`: `autocast` and `GradScaler` as PyTorch behaves without
CUDA: CUDA autocast and the gradient scaler warn and disable themselves
(the program runs in float32 unchanged); gradscope has no float16 or
bfloat16, so CPU autocast is refused rather than silently ignored."""

import functools
import warnings

__all__ = ["autocast", "GradScaler"]


class autocast:
    __module__ = "torch.amp.autocast_mode"

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtype
        self._enabled = enabled
        if enabled and device_type == "cuda":
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
            self._enabled = False
        elif enabled and device_type == "cpu":
            raise NotImplementedError(
                "gradscope has no bfloat16 or float16: autocast on the CPU would change results, so it is not "
                "supported (use float32, or autocast(device_type='cpu', enabled=False))"
            )

    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return wrapped


class GradScaler:
    """PyTorch's loss scaler where CUDA is missing: disabled, so `scale`
    gives the loss back and `step` is the optimizer's step."""

    __module__ = "torch.amp.grad_scaler"

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if enabled and device == "cuda":
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          stacklevel=2)
            self._enabled = False
        elif enabled:
            raise NotImplementedError("gradscope's GradScaler runs disabled only (there is no float16 to scale)")

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def get_growth_factor(self):
        return 2.0

    def get_backoff_factor(self):
        return 0.5

    def get_growth_interval(self):
        return 2000

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass
