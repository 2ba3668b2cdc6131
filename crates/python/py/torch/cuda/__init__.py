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


def synchronize(device=None):
    pass


def empty_cache():
    pass


def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


OutOfMemoryError = None  # set by torch/__init__.py
