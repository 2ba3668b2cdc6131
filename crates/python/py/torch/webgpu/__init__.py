"""`torch.webgpu`: the GPU device's counterpart of `torch.cuda`.

Tensors on `"webgpu"` live on the GPU gradscope opened (WebGPU in the
browser, Vulkan natively) and are computed by WGSL kernels. Its memory
figures come from the GPU's own ledger: bytes of live tensors by category,
and what the caching allocator reserves. The same functions take
`device="cpu"` and then report the CPU's ledger, the figures the
playground's memory view draws (as `torch.cpu.memory_allocated()` does).
"""

import _gradscope as _C


def _ledger(device):
    if device is not None and str(device).split(":")[0] == "cpu":
        return "cpu"
    return "webgpu"


def is_available():
    return _C._gpu_available()


def device_count():
    return 1 if _C._gpu_available() else 0


def current_device():
    return 0


def get_device_name(device=None):
    return _C._gpu_name()


def synchronize(device=None):
    pass


def empty_cache():
    _C._gpu_empty_cache()


def memory_allocated(device=None):
    return _C.memory_allocated(_ledger(device))


def max_memory_allocated(device=None):
    return _C.max_memory_allocated(_ledger(device))


def memory_reserved(device=None):
    if _ledger(device) == "cpu":
        # The CPU ledger reserves nothing beyond what tensors hold.
        return _C.memory_allocated("cpu")
    return max(_C._gpu_reserved(), _C.memory_allocated("webgpu"))


def max_memory_reserved(device=None):
    return max(memory_reserved(device), max_memory_allocated(device))


def reset_peak_memory_stats(device=None):
    _C.reset_peak_memory_stats(_ledger(device))


def memory_summary(device=None, abbreviated=False):
    return _C.memory_summary(_ledger(device))
