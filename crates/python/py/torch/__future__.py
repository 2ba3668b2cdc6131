"""`torch.__future__`: switches for behaviour PyTorch means to make the
default, here how `nn.Module._apply` (`.to()`, `.bfloat16()`, ...) and
`load_state_dict` put converted tensors into a module."""

_overwrite_module_params_on_conversion = False
_swap_module_params_on_conversion = False


def set_overwrite_module_params_on_conversion(value):
    """Whether `Module._apply` gives a converted parameter as a new
    `Parameter` instead of setting `param.data` (off by default)."""
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion():
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value):
    """Whether `Module._apply` and `load_state_dict` put converted tensors
    into the module's parameters with `torch.utils.swap_tensors` (each
    parameter keeps its identity and takes the new tensor's class, dict
    and values) instead of `param.data =` (off by default)."""
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion():
    return _swap_module_params_on_conversion
