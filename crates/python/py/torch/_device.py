class device:
    """Where a tensor lives, PyTorch's `torch.device`."""

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        if ":" in type:
            type, _, number = type.partition(":")
            index = int(number)
        if type == "gpu":
            type = "webgpu"
        if type == "webgpu" and index is None:
            index = 0
        if type not in ("cpu", "cuda", "webgpu", "meta", "mps"):
            raise RuntimeError(
                "Expected one of cpu, cuda, mps, meta, webgpu device type at start of device string: "
                + type
            )
        self.type = type
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        if self.index is None:
            return self.type
        return f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __enter__(self):
        """`with torch.device(...)`: factories put tensors here inside."""
        import torch

        self._previous = torch.get_default_device()
        torch.set_default_device(self)
        return self

    def __exit__(self, *exc):
        import torch

        torch.set_default_device(self._previous)
        return False


cpu = device("cpu")
