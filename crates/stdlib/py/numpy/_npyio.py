"""`np.save`, `np.load`, `np.savez` and `np.savetxt`: NumPy's `.npy` format
byte for byte (format 1.0: magic, header dict padded to 64 bytes, raw
little-endian data), `.npz` as a zip of `.npy` files, text as `%`-formats."""

import struct as _struct

from . import _dtype as _d
from ._ndarray import ndarray, _wrap

_MAGIC = b"\x93NUMPY"
_PACK = {"float64": "d", "float32": "f", "int64": "q", "int32": "i", "bool": "?"}


def _header(a, fortran):
    shape = tuple(a.shape)
    text = "{" + f"'descr': '{a.dtype.str}', 'fortran_order': {fortran}, 'shape': {shape!r}, " + "}"
    # Room for the growth axis to gain digits in place, as NumPy leaves it.
    if shape:
        text += " " * (21 - len(repr(shape[-1] if fortran else shape[0])))
    raw = text.encode("latin1")
    hlen = len(raw) + 1
    pad = 64 - ((len(_MAGIC) + 2 + 2 + hlen) % 64)
    return _MAGIC + b"\x01\x00" + _struct.pack("<H", hlen + pad) + raw + b" " * pad + b"\n"


def _data_bytes(a):
    """(bytes, fortran_order): C order, or Fortran order for a transposed
    contiguous array, as NumPy writes them."""
    t = a._t
    fortran = False
    if not t.is_contiguous() and t.dim() > 1 and t.permute(*range(t.dim() - 1, -1, -1)).is_contiguous():
        fortran = True
        t = t.permute(*range(t.dim() - 1, -1, -1))
    code = _PACK.get(a.dtype.name)
    if code is None:
        raise TypeError(f"gradscope's numpy cannot save {a.dtype} arrays")
    values = t.reshape(-1).tolist()
    return _struct.pack(f"<{len(values)}{code}", *values), fortran


def _npy_bytes(arr):
    from ._creation import asarray

    a = asarray(arr)
    data, fortran = _data_bytes(a)
    return _header(a, fortran) + data


def save(file, arr, allow_pickle=True, fix_imports=None):
    """`np.save`: one array to a `.npy` file (".npy" added to a name without it)."""
    data = _npy_bytes(arr)
    if isinstance(file, str) or hasattr(file, "__fspath__"):
        import os

        file = os.fspath(file)
        if not file.endswith(".npy"):
            file += ".npy"
        with open(file, "wb") as f:
            f.write(data)
    else:
        file.write(data)


def _read_npy(raw):
    import ast

    if raw[:6] != _MAGIC:
        raise ValueError(f"the magic string is not correct; expected b'\\x93NUMPY', got {raw[:6]!r}")
    major = raw[6]
    if major == 1:
        hlen = _struct.unpack("<H", raw[8:10])[0]
        start = 10
    else:
        hlen = _struct.unpack("<I", raw[8:12])[0]
        start = 12
    header = ast.literal_eval(raw[start:start + hlen].decode("latin1"))
    dt = _d._as_dtype(header["descr"])
    shape = tuple(header["shape"])
    n = 1
    for s in shape:
        n *= s
    code = _PACK[dt.name]
    body = raw[start + hlen:]
    values = list(_struct.unpack(f"<{n}{code}", body[:n * _struct.calcsize(code)]))
    from ._cpu import torch

    if header["fortran_order"]:
        t = torch.tensor(values, dtype=dt._torch).reshape(shape[::-1]) if shape else \
            torch.tensor(values[0], dtype=dt._torch)
        t = t.permute(*range(len(shape) - 1, -1, -1)).contiguous()
    else:
        t = torch.tensor(values, dtype=dt._torch).reshape(shape) if shape else torch.tensor(values[0], dtype=dt._torch)
    return _wrap(t, dt)


class NpzFile:
    """What `np.load` returns for a `.npz`: arrays by name, read on access."""

    __module__ = "numpy.lib.npyio"

    def __init__(self, raw):
        import io
        import zipfile

        self.zip = zipfile.ZipFile(io.BytesIO(raw))
        self._names = self.zip.namelist()
        self.files = [n[:-4] if n.endswith(".npy") else n for n in self._names]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.zip.close()

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self.files

    def keys(self):
        return list(self.files)

    def values(self):
        return [self[k] for k in self.files]

    def items(self):
        return [(k, self[k]) for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self.files else default

    def __getitem__(self, key):
        if key in self.files:
            name = self._names[self.files.index(key)]
            return _read_npy(self.zip.read(name))
        raise KeyError(f"{key} is not a file in the archive")

    def __repr__(self):
        return f"NpzFile 'object' with keys: {', '.join(self.files[:5])}{'...' if len(self.files) > 5 else ''}"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", max_header_size=10000):
    """`np.load`: a `.npy` array, or an NpzFile for a `.npz` archive."""
    if isinstance(file, str) or hasattr(file, "__fspath__"):
        import os

        with open(os.fspath(file), "rb") as f:
            raw = f.read()
    else:
        raw = file.read()
    if raw[:4] == b"PK\x03\x04" or raw[:4] == b"PK\x05\x06":
        return NpzFile(raw)
    if raw[:6] == _MAGIC:
        return _read_npy(raw)
    # NumPy would unpickle anything else, which it refuses by default.
    raise ValueError("This file contains pickled (object) data. If you trust the file you can load it unsafely "
                     "using the `allow_pickle=` keyword argument or `pickle.load()`.")


def _savez(file, args, kwds, compress):
    import os
    import zipfile

    arrays = dict(kwds)
    for i, a in enumerate(args):
        key = f"arr_{i}"
        if key in arrays:
            raise ValueError(f"Cannot use un-named variables and keyword {key}")
        arrays[key] = a
    if isinstance(file, str) or hasattr(file, "__fspath__"):
        file = os.fspath(file)
        if not file.endswith(".npz"):
            file += ".npz"
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode="w", compression=method, allowZip64=True) as z:
        for key, value in arrays.items():
            z.writestr(key + ".npy", _npy_bytes(value))


def savez(file, *args, allow_pickle=True, **kwds):
    """`np.savez`: several arrays in one uncompressed `.npz` archive."""
    _savez(file, args, kwds, False)


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    _savez(file, args, kwds, True)


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ",
            encoding=None):
    """`np.savetxt`: a 1-D or 2-D array as text, one row a line."""
    from ._creation import asarray

    X = asarray(X)
    if X.ndim == 0 or X.ndim > 2:
        raise ValueError(f"Expected 1D or 2D array, got {X.ndim}D array instead")
    rows = X.tolist()
    if X.ndim == 1:
        rows = [[v] for v in rows]
        ncol = 1
    else:
        ncol = X.shape[1]
    if isinstance(fmt, (list, tuple)):
        if len(fmt) != ncol:
            raise AttributeError(f"fmt has wrong shape.  {fmt}")
        line_fmt = delimiter.join(fmt)
    elif isinstance(fmt, str):
        n = fmt.count("%")
        if n == 1:
            line_fmt = delimiter.join([fmt] * ncol)
        elif n != ncol:
            raise ValueError(f"fmt has wrong number of % formats:  {fmt}")
        else:
            line_fmt = fmt
    else:
        raise ValueError(f"invalid fmt: {fmt!r}")
    out = []
    if header:
        out.append(comments + header.replace("\n", "\n" + comments) + newline)
    for row in rows:
        out.append(line_fmt % tuple(row) + newline)
    if footer:
        out.append(comments + footer.replace("\n", "\n" + comments) + newline)
    text = "".join(out)
    if isinstance(fname, str) or hasattr(fname, "__fspath__"):
        import os

        with open(os.fspath(fname), "w") as f:
            f.write(text)
    else:
        try:
            fname.write(text)
        except TypeError:
            fname.write(text.encode(encoding or "latin1"))
