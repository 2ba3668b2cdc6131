"""`torch.utils.backcompat`: the flags of PyTorch's old broadcasting and
keepdim warnings, which PyTorch keeps and no longer reads."""


class _Warning:
    def __init__(self):
        self.enabled = False

    def set_enabled(self, value):
        self.enabled = bool(value)

    def get_enabled(self):
        return self.enabled


broadcast_warning = _Warning()
keepdim_warning = _Warning()
