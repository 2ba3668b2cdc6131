"""`torch.webgpu`: the GPU device's counterpart of `torch.cuda`'s memory API.

gradscope's GPU tensor backend is not finished, so WebGPU is honestly not
available to programs yet and its figures are zero. The same functions take
`device="cpu"` and then report the CPU's memory ledger, the figures the
playground's memory view draws (as `torch.cpu.memory_allocated()` does).
"""

import _gradscope as _C


def _is_cpu(device):
    return device is not None and str(device).split(":")[0] == "cpu"


def is_available():
    return False


def device_count():
    return 0


def synchronize(device=None):
    pass


def empty_cache():
    pass


def memory_allocated(device=None):
    return _C.memory_allocated() if _is_cpu(device) else 0


def max_memory_allocated(device=None):
    return _C.max_memory_allocated() if _is_cpu(device) else 0


def memory_reserved(device=None):
    # The CPU ledger reserves nothing beyond what tensors hold.
    return _C.memory_allocated() if _is_cpu(device) else 0


def max_memory_reserved(device=None):
    return _C.max_memory_allocated() if _is_cpu(device) else 0


def reset_peak_memory_stats(device=None):
    if _is_cpu(device):
        _C.reset_peak_memory_stats()


def memory_summary(device=None, abbreviated=False):
    if _is_cpu(device):
        return _C.memory_summary()
    return "WebGPU: no tensors (the GPU backend is not available yet)\n"
