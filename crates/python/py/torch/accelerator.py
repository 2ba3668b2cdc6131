"""`torch.accelerator`: the current accelerator, as a CPU-only PyTorch build reports it.

PyTorch names the accelerator it was compiled for (CUDA, XPU, MPS, ...) and
delegates to that device's module. gradscope is built without one: its GPU
device, ``"webgpu"``, is chosen by name (``torch.webgpu``), never picked as
"the accelerator if there is one", so programs written that way run on the
CPU exactly as under a CPU-only PyTorch: ``is_available()`` is False,
``current_accelerator()`` is None and ``device_count()`` is 0.
"""


__all__ = [
    "current_accelerator",
    "current_device_idx",
    "current_device_index",
    "current_stream",
    "device_count",
    "device_index",
    "empty_cache",
    "is_available",
    "max_memory_allocated",
    "memory_allocated",
    "set_device_idx",
    "set_device_index",
    "synchronize",
]


def _no_accelerator(what):
    return RuntimeError(
        f"torch.accelerator.{what}: no accelerator is available (gradscope is built "
        "without one; its GPU device is used by name, as torch.device('webgpu'))"
    )


def current_accelerator(check_available=False):
    """The accelerator's device, or None: gradscope, like a CPU-only build, has none."""
    return None


def is_available():
    """Whether an accelerator is available at runtime: never, as on a CPU-only build."""
    return current_accelerator() is not None


def device_count():
    """The number of accelerator devices: 0 without an accelerator."""
    return 0


def current_device_index():
    raise _no_accelerator("current_device_index")


def current_device_idx():
    import warnings  # on first use: `import torch` does not load it

    warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def set_device_index(device, /):
    raise _no_accelerator("set_device_index")


def set_device_idx(device, /):
    import warnings

    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    return set_device_index(device)


def current_stream(device=None, /):
    raise _no_accelerator("current_stream")


def synchronize(device=None, /):
    raise _no_accelerator("synchronize")


def empty_cache():
    raise _no_accelerator("empty_cache")


def memory_allocated(device_index=None, /):
    raise _no_accelerator("memory_allocated")


def max_memory_allocated(device_index=None, /):
    raise _no_accelerator("max_memory_allocated")


class device_index:
    """Context manager that selects an accelerator device; ``None`` is a no-op, as in PyTorch."""

    def __init__(self, device, /):
        self.idx = device

    def __enter__(self):
        if self.idx is not None:
            raise _no_accelerator("device_index")

    def __exit__(self, *exc):
        return False
