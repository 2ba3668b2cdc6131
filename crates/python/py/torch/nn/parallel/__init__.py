"""`torch.nn.parallel`: `DataParallel` and `data_parallel`. gradscope has
one device, where PyTorch's `DataParallel` without GPUs runs its module as
it is; so does this one."""

from ..modules.module import Module

__all__ = ["DataParallel", "data_parallel"]


class DataParallel(Module):
    """Runs `module` (on gradscope's one device, as PyTorch does without GPUs)."""

    __module__ = "torch.nn.parallel.data_parallel"

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.output_device = None
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    return module(*inputs, **(module_kwargs or {}))
