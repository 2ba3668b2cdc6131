"""`torch.utils`."""

import copyreg

import _gradscope as _C

from . import backcompat, checkpoint, data


def swap_tensors(t1, t2):
    """Swaps two tensor objects in place, as PyTorch's `swap_tensors`: each
    takes the other's class, attributes (`__dict__` and slots) and engine
    tensor (values, shape, dtype, grad and graph), so every reference to
    `t1` sees what `t2` was. PyTorch also refuses a tensor that has weak
    references or other references from C++ (its use count); gradscope
    keeps a weak reference of its own to every leaf, so it does not check."""
    t1_slots = set(copyreg._slotnames(t1.__class__))
    t2_slots = set(copyreg._slotnames(t2.__class__))
    if t1_slots != t2_slots:
        raise RuntimeError("Cannot swap t1 and t2 if they have different slots")

    def swap_attr(name):
        tmp = getattr(t1, name)
        setattr(t1, name, getattr(t2, name))
        setattr(t2, name, tmp)

    swap_attr("__class__")
    swap_attr("__dict__")
    for slot in t1_slots:
        if hasattr(t1, slot) and hasattr(t2, slot):
            swap_attr(slot)
        elif hasattr(t1, slot):
            setattr(t2, slot, getattr(t1, slot))
            delattr(t1, slot)
        elif hasattr(t2, slot):
            setattr(t1, slot, getattr(t2, slot))
            delattr(t2, slot)
    # The engine tensors last, through a third object that holds t1's while
    # t1 takes t2's; each object is then remembered as its new tensor's (the
    # object a gradient or a view's base is returned as).
    import torch

    holder = torch.empty(0)
    _C.TensorBase._replace(holder, t1)
    _C.TensorBase._replace(t1, t2)
    _C.TensorBase._replace(t2, holder)
