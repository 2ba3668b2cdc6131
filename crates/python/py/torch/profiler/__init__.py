"""`torch.profiler`: `record_function` marks a named range in gradscope's
trace (the lessons' phases); `profile` runs its block."""

from ..autograd.profiler import profile as _autograd_profile, record_function


class profile(_autograd_profile):
    """`torch.profiler.profile`: runs its block (gradscope's trace is the
    profile), with PyTorch's arguments."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        super().__init__()
        self.on_trace_ready = on_trace_ready

    def step(self):
        pass


class ProfilerActivity:
    CPU = "CPU"
    CUDA = "CUDA"


def schedule(*args, **kwargs):
    return None


__all__ = ["ProfilerActivity", "profile", "record_function", "schedule"]
