class Size(tuple):
    """The shape of a tensor, PyTorch's `torch.Size`: a tuple of ints."""

    def __repr__(self):
        return "torch.Size([" + ", ".join(str(d) for d in self) + "])"

    __str__ = __repr__

    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        if isinstance(index, slice):
            return Size(item)
        return item

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n

    def __reduce__(self):
        return (Size, (tuple(self),))
