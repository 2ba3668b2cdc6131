"""`torch.profiler`: `record_function` marks a named range in gradscope's
trace (the lessons' phases); `profile` runs its block."""

from ..autograd.profiler import profile, record_function


class ProfilerActivity:
    CPU = "CPU"
    CUDA = "CUDA"


def schedule(*args, **kwargs):
    return None


__all__ = ["ProfilerActivity", "profile", "record_function", "schedule"]
