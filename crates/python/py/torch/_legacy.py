"""PyTorch's legacy typed constructors, `torch.FloatTensor` and kin: classes
of the metaclass `torch.tensortype` that make tensors of one dtype (from
data, or uninitialised from sizes, which gradscope fills with zeros) and
answer `isinstance` by a tensor's dtype and device, as PyTorch's do."""

import builtins as _builtins

import _gradscope as _C

from ._tensor import Tensor

_CPP_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "bool": "bool", "bfloat16": "c10::BFloat16"}


def _options(dtype):
    return (f"TensorOptions(dtype={_CPP_NAMES.get(str(dtype)[6:], str(dtype)[6:])}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))")


_SIGNATURES = (" * (*, torch.device device = None)\n"
               " * (torch.Storage storage)\n"
               " * (Tensor other)\n"
               " * (tuple of ints size, *, torch.device device = None)\n"
               " * (object data, *, torch.device device = None)\n")


class tensortype(type):
    """The metaclass of `torch.FloatTensor` and the other typed tensor classes."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == cls.dtype and obj._device == "cpu"

    def __call__(cls, *args, **kwargs):
        dtype = cls.dtype
        refuse = getattr(dtype, "refuse", None)
        if refuse is not None:
            refuse()
        device = kwargs.pop("device", None)
        if kwargs:
            names = ", ".join(f"{k}={type(v).__name__}" for k, v in kwargs.items())
            got = ", ".join([type(a).__name__ for a in args] + [names])
            raise TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                            + _SIGNATURES)
        if len(args) == 1 and isinstance(args[0], Tensor):
            other = args[0]
            if other.dtype != dtype:
                raise TypeError(f"expected {_options(dtype)} (got {_options(other.dtype)})")
            return other.detach()
        if len(args) == 1 and isinstance(args[0], str):
            raise TypeError("new(): invalid data type 'str'")
        if len(args) == 1 and not isinstance(args[0], (_builtins.int, _builtins.float, _builtins.bool)):
            out = _C.tensor(args[0], dtype=dtype)
        else:
            out = _C.zeros(*(args or (0,)), dtype=dtype)
        return out if device is None else out.to(device)


def _typed(name, dtype):
    cls = tensortype(name, (), {"dtype": dtype, "is_cuda": False, "is_sparse": False, "__module__": "torch"})
    return cls


def _names():
    import torch

    # Names PyTorch has; gradscope's missing dtypes make classes that refuse
    # to build a tensor (their dtype says why) but still answer isinstance.
    return {
        "FloatTensor": torch.float32,
        "DoubleTensor": torch.float64,
        "LongTensor": torch.int64,
        "BoolTensor": torch.bool,
        "HalfTensor": torch.float16,
        "BFloat16Tensor": torch.bfloat16,
        "IntTensor": torch.int32,
        "ShortTensor": torch.int16,
        "CharTensor": torch.int8,
        "ByteTensor": torch.uint8,
    }


TYPES = {name: _typed(name, dtype) for name, dtype in _names().items()}


def type_name(dtype):
    """`x.type()`'s answer for a CPU tensor of `dtype`."""
    for name, cls in TYPES.items():
        if cls.dtype == dtype:
            return "torch." + name
    raise TypeError(f"no legacy tensor type for {dtype}")


def dtype_of_type(value):
    """The dtype `x.type(value)` converts to: a dtype, a typed class, or its
    name (`'torch.DoubleTensor'`)."""
    if isinstance(value, tensortype):
        return value.dtype
    if isinstance(value, str):
        name = value[6:] if value.startswith("torch.") else value
        if name in TYPES:
            return TYPES[name].dtype
        raise ValueError(f"invalid type: '{value}'")
    return value
