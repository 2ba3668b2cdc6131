"""`torch.save` and `torch.load` through the sandbox's files: `save`
writes a file (a path, or any object with `write`, such as an open file or
an `io.BytesIO`) and `load` reads one back, so `os.path.exists`, `open`
and `os.remove` see what was saved as they would in PyTorch.

The difference from PyTorch: gradscope does not pickle. The file holds a
short record naming the saved object, and the object itself, copied at
save time, stays in the runtime's memory (as long as the runtime, as the
sandbox's written files do); `load` gives a fresh copy of it. As in
PyTorch, a tensor's copy is its whole storage's: tensors saved together
that share a storage share one once loaded (`torch.save([numbers, evens])`),
and a view keeps the storage it was cut from (`storage().size()`). A file
that PyTorch wrote (a zip archive) cannot be read."""

import sys

import torch

# Saved objects by number; the number is what the file holds.
_saved = {}
_MAGIC = b"gradscope saved object "


def _copy(obj, storages=None):
    """A copy of `obj`; its tensors' storages copied once each (by
    `storages`, the copies so far by storage), every tensor a view of its
    storage's copy with its own sizes, strides and offset."""
    if storages is None:
        storages = {}
    if isinstance(obj, torch.Tensor):
        key = obj._storage_key()
        whole = storages.get(key)
        if whole is None:
            with torch.no_grad():
                whole = obj._storage_tensor().clone()
            storages[key] = whole
        t = whole._restrided(list(obj.shape), list(obj.stride()), obj.storage_offset())
        nn = sys.modules.get("torch.nn")
        if nn is not None and isinstance(obj, nn.Parameter):
            return type(obj)(t, obj.requires_grad)
        return t.requires_grad_(obj.requires_grad)
    if isinstance(obj, dict):
        out = type(obj)() if type(obj) is not dict else {}
        for k, v in obj.items():
            out[k] = _copy(v, storages)
        if hasattr(obj, "_metadata"):
            out._metadata = _deepcopy(obj._metadata)
        return out
    if isinstance(obj, list):
        return [_copy(v, storages) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_copy(v, storages) for v in obj)
    if isinstance(obj, (str, bytes, int, float, bool, type(None))):
        return obj
    return _deepcopy(obj)


def _deepcopy(obj):
    # `copy` on first use: `import torch` imports this module.
    import copy

    return copy.deepcopy(obj)


def _is_path(f):
    return isinstance(f, (str, bytes)) or hasattr(type(f), "__fspath__")


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    number = len(_saved) + 1
    _saved[number] = _copy(obj)
    record = _MAGIC + str(number).encode() + b"\n"
    if _is_path(f):
        with open(f, "wb") as file:
            file.write(record)
    elif hasattr(f, "write"):
        f.write(record)
    else:
        raise AttributeError(f"'{type(f).__name__}' object has no attribute 'write'")


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    if _is_path(f):
        with open(f, "rb") as file:
            data = file.read()
        name = f
    else:
        data = f.read()
        name = None
    if data.startswith(_MAGIC):
        number = int(data[len(_MAGIC):].split(b"\n", 1)[0])
        return _copy(_saved[number])
    if not data:
        raise EOFError("Ran out of input")
    if data.startswith(b"PK"):
        what = f"'{name}'" if name is not None else "this buffer"
        raise NotImplementedError(
            f"gradscope cannot read {what}: it holds a file PyTorch pickled, "
            "and gradscope loads only what it saved itself"
        )
    try:
        from pickle import UnpicklingError
    except ImportError:
        UnpicklingError = RuntimeError
    raise UnpicklingError(f"invalid load key, {chr(data[0])!r}.")


_safe = []


def add_safe_globals(safe_globals):
    _safe.extend(safe_globals)


def get_safe_globals():
    return list(_safe)


def clear_safe_globals():
    _safe.clear()


class safe_globals:
    """Context manager adding `safe_globals` for `weights_only` loads; with
    no unpickling here, every object is already allowed."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self._before = list(_safe)
        _safe.extend(self.safe_globals)

    def __exit__(self, *exc):
        _safe[:] = self._before
