"""`torch.cpu`, as PyTorch has it, plus the memory figures `torch.cuda`
offers for its device: gradscope measures every CPU tensor in a ledger (by
category: parameters, gradients, optimizer state, saved for backward), so
the CPU gets `memory_allocated()` and friends too.
"""

import _gradscope as _C


def is_available():
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def synchronize(device=None):
    pass


def empty_cache():
    pass


def memory_allocated(device=None):
    return _C.memory_allocated()


def max_memory_allocated(device=None):
    return _C.max_memory_allocated()


def reset_peak_memory_stats(device=None):
    _C.reset_peak_memory_stats()


def memory_summary(device=None, abbreviated=False):
    return _C.memory_summary()
