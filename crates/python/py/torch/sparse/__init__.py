"""`torch.sparse`. gradscope has no sparse layout: sparse constructors and
`to_sparse` give dense tensors holding the same values (so products and
sums are PyTorch's values, computed densely); `is_sparse` is False and
such a tensor prints as a dense one, unlike PyTorch's."""

import torch

__all__ = ["mm", "sum", "softmax", "log_softmax", "addmm", "check_sparse_tensor_invariants"]


def mm(mat1, mat2):
    return torch.mm(mat1, mat2)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    return torch.addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def sum(input, dim=None, dtype=None):
    return input.sum() if dim is None else input.sum(dim)


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input, dim)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input, dim)


class check_sparse_tensor_invariants:
    """PyTorch's switch for checking sparse tensors' indices (a context
    manager and decorator); gradscope's sparse tensors are dense, so there
    is nothing to check."""

    _enabled = False

    def __init__(self, enable=True):
        self.enable = enable

    @staticmethod
    def is_enabled():
        return check_sparse_tensor_invariants._enabled

    @staticmethod
    def enable():
        check_sparse_tensor_invariants._enabled = True

    @staticmethod
    def disable():
        check_sparse_tensor_invariants._enabled = False

    def __enter__(self):
        self._saved = check_sparse_tensor_invariants._enabled
        check_sparse_tensor_invariants._enabled = self.enable

    def __exit__(self, *exc):
        check_sparse_tensor_invariants._enabled = self._saved
        return False
