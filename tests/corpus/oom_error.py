# An allocation past the memory budget raises torch.OutOfMemoryError, a
# RuntimeError. (PyTorch on the CPU has no budget; this records the type.)
import torch

try:
    raise torch.OutOfMemoryError("out of memory")
except RuntimeError as e:
    print(type(e).__name__, isinstance(e, RuntimeError), issubclass(torch.OutOfMemoryError, RuntimeError))
