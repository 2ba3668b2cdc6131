"""`torch.cuda`: gradscope runs on the CPU (and WebGPU), never CUDA."""


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass


def get_device_name(device=None):
    raise AssertionError("Torch not compiled with CUDA enabled")


def current_device():
    raise AssertionError("Torch not compiled with CUDA enabled")


def synchronize(device=None):
    pass


def empty_cache():
    pass


def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


OutOfMemoryError = None  # set by torch/__init__.py


class _AmpModule:
    """`torch.cuda.amp`: PyTorch's deprecated spellings of `torch.amp`'s."""

    __name__ = "torch.cuda.amp"

    @staticmethod
    def autocast(enabled=True, dtype=None, cache_enabled=True):
        import warnings

        from ..amp import autocast

        warnings.warn(
            "`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` "
            "instead.",
            FutureWarning,
            stacklevel=2,
        )
        return autocast("cuda", dtype=dtype, enabled=enabled)

    @staticmethod
    def GradScaler(init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, enabled=True):
        import warnings

        from ..amp import GradScaler

        warnings.warn(
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` "
            "instead.",
            FutureWarning,
            stacklevel=2,
        )
        return GradScaler("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


amp = _AmpModule()
