"""The file system a program sees, behind `open`, `os` and `os.path`: the
files the host added (`Runtime::add_file`; `gradscope run` adds the
program's folder) as a read-only lower layer, and an in-memory upper layer
that takes every write, `mkdir` and `remove`. Nothing here reads or writes
the real disk, natively or in the page.

The written layer lives as long as the runtime: a later run of the same
runtime sees what an earlier one wrote, as a later `python` run sees a
disk; a new runtime (a new `gradscope run`, a reloaded page) starts with
the host's files only.

The sandbox's root `/` stands for the directory the host ran from: a host
file added as `data/train.txt` is `/data/train.txt`, and the working
directory starts at `/`, so relative names mean what they mean to
`python` run from that directory. Errors are CPython's, with its errno,
text and the name as the program gave it.

It uses the native `_io`, not `io`: `io` (with `abc` and `_collections_abc`)
would cost every program's start, and `io` re-exports `_io`'s classes and
`open`, so replacing `_io.open` here is what `io.open` is once imported."""

import builtins
import sys

import _gradscope
import _io
import errno as _errno

if not hasattr(_errno, "ENOENT"):
    # The wasm build's native errno has no constants (`_gradscope_errno`).
    import _gradscope_errno

    _gradscope_errno.fill(_errno)

_cwd = "/"
# Written files by absolute path: bytes, or the file object still open for
# writing (its bytes so far are what a reader sees).
_written = {}
# Directories the program made.
_made_dirs = set()
# Host files and directories the program removed or renamed away.
_hidden = set()
# (number of host names, {path: host name}, {directory paths}): host files
# are added between runs, never during one, so the map is rebuilt when a
# program starts or when the count of names changed.
_host = (-1, {}, set())


def _written_files():
    """What the program wrote, as (path below the sandbox's `/`, bytes,
    whether only this run can read it), sorted: for a host that writes the
    files out (`gradscope run --save-files DIR`). A file still open gives
    its bytes so far; torch.save's file is a record of an object kept in
    this run's memory (`torch.serialization`), which no other process could
    load."""
    serialization = sys.modules.get("torch.serialization")
    record = getattr(serialization, "_MAGIC", None)
    out = []
    for path, value in sorted(_written.items()):
        data = value if isinstance(value, (bytes, bytearray)) else value.getvalue()
        if isinstance(data, str):
            data = data.encode()
        data = bytes(data)
        out.append((path.lstrip("/"), data, record is not None and data.startswith(record)))
    return out


def _refresh_host():
    global _host
    names = _gradscope._file_names()
    files = {}
    dirs = set()
    for name in names:
        path = _normpath(name if name.startswith("/") else "/" + name)
        files[path] = name
        parent = _parent(path)
        while parent not in dirs and parent != "/":
            dirs.add(parent)
            parent = _parent(parent)
    _host = (len(names), files, dirs)


def _host_layer():
    if _host[0] < 0:
        _refresh_host()
    return _host


# -- paths ---------------------------------------------------------------


def _fspath(file):
    """`os.fspath` for a file argument: str or bytes, else TypeError."""
    if isinstance(file, (str, bytes)):
        return file
    fspath = getattr(type(file), "__fspath__", None)
    if fspath is not None:
        path = fspath(file)
        if isinstance(path, (str, bytes)):
            return path
        raise TypeError(
            f"expected {type(file).__name__}.__fspath__() to return str or bytes, "
            f"not {type(path).__name__}"
        )
    raise TypeError(f"expected str, bytes or os.PathLike object, not {type(file).__name__}")


def _text(path):
    path = _fspath(path)
    return path.decode() if isinstance(path, bytes) else path


def _normpath(path):
    """An absolute path without `.`, `..` or repeated slashes."""
    parts = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


def _abs(path):
    """The absolute path in the sandbox of a program's path argument."""
    path = _text(path)
    if "\0" in path:
        raise ValueError("embedded null byte")
    return _normpath(path if path.startswith("/") else _cwd + "/" + path)


def _parent(path):
    return path.rsplit("/", 1)[0] or "/"


# -- queries -------------------------------------------------------------


def _kind(path):
    """'file', 'dir' or None for an absolute path."""
    if path in _written:
        return "file"
    if path == "/" or path in _made_dirs:
        return "dir"
    if path in _hidden:
        return None
    _, files, dirs = _host_layer()
    if path in files:
        return "file"
    if path in dirs:
        return "dir"
    return None


def _read(path):
    """The bytes of the file at an absolute path, or None."""
    data = _written.get(path)
    if data is not None:
        return data if isinstance(data, bytes) else bytes(data.getvalue())
    if path in _hidden or path in _made_dirs:
        return None
    name = _host_layer()[1].get(path)
    return None if name is None else _gradscope._read_file(name)


def _children(path):
    """The sorted names in the directory at an absolute path."""
    prefix = path.rstrip("/") + "/"
    names = set()
    _, files, dirs = _host_layer()
    for layer, hidden in ((_written, ()), (_made_dirs, ()), (files, _hidden), (dirs, _hidden)):
        for p in layer:
            if p.startswith(prefix) and p not in hidden:
                rest = p[len(prefix):]
                if rest and "/" not in rest:
                    names.add(rest)
    return sorted(names)


def _size(path):
    data = _read(path)
    return 0 if data is None else len(data)


# -- errors, as CPython gives them ---------------------------------------


def _not_found(name):
    return FileNotFoundError(2, "No such file or directory", name)


def _check_parent(path, name):
    """For creating `path`: its directory must exist and be one."""
    kind = _kind(_parent(path))
    if kind is None:
        raise _not_found(name)
    if kind == "file":
        raise NotADirectoryError(20, "Not a directory", name)


# -- changes -------------------------------------------------------------


def _remove_file(path, name):
    kind = _kind(path)
    if kind is None:
        raise _not_found(name)
    if kind == "dir":
        raise IsADirectoryError(21, "Is a directory", name)
    _written.pop(path, None)
    if path in _host_layer()[1]:
        _hidden.add(path)


def _make_dir(path, name):
    if _kind(path) is not None:
        raise FileExistsError(17, "File exists", name)
    _check_parent(path, name)
    _made_dirs.add(path)
    _hidden.discard(path)


def _remove_dir(path, name):
    kind = _kind(path)
    if kind is None:
        raise _not_found(name)
    if kind == "file":
        raise NotADirectoryError(20, "Not a directory", name)
    if _children(path):
        raise OSError(39, "Directory not empty", name)
    if path == "/":
        raise PermissionError(16, "Device or resource busy", name)
    _made_dirs.discard(path)
    if path in _host_layer()[2]:
        _hidden.add(path)


def _rename(src, dst, src_name, dst_name):
    kind = _kind(src)
    if kind is None:
        raise FileNotFoundError(2, "No such file or directory", src_name, None, dst_name)
    _check_parent(dst, dst_name)
    dst_kind = _kind(dst)
    if kind == "file":
        if dst_kind == "dir":
            raise IsADirectoryError(21, "Is a directory", src_name, None, dst_name)
        data = _read(src)
        _remove_file(src, src_name)
        _written[dst] = data
        _hidden.discard(dst)
        return
    if dst_kind == "file":
        raise NotADirectoryError(20, "Not a directory", src_name, None, dst_name)
    if dst_kind == "dir" and _children(dst):
        raise OSError(39, "Directory not empty", src_name, None, dst_name)
    if (dst + "/").startswith(src + "/"):
        raise OSError(22, "Invalid argument", src_name, None, dst_name)
    moves = [src]
    i = 0
    while i < len(moves):
        p = moves[i]
        i += 1
        if _kind(p) == "dir":
            moves.extend(p + "/" + n for n in _children(p))
    for p in moves:
        target = dst + p[len(src):]
        if _kind(p) == "dir":
            _made_dirs.add(target)
            _hidden.discard(target)
        else:
            _written[target] = _read(p)
            _hidden.discard(target)
    for p in reversed(moves):
        if _kind(p) == "dir":
            _remove_dir(p, p)
        else:
            _remove_file(p, p)


# -- open ----------------------------------------------------------------


class _ReadOnlyBytes(_io.BytesIO):
    """A binary file opened for reading: its bytes, named as `open` names
    them."""

    def __init__(self, data, name, mode):
        super().__init__(data)
        self.name = name
        self.mode = mode

    def writable(self):
        return False

    def write(self, data):
        raise _io.UnsupportedOperation("write")


class _WrittenBytes(_io.BytesIO):
    """A binary file opened for writing: readers see its bytes so far, and
    closing it leaves them in the written layer."""

    def __init__(self, data, name, mode, path):
        super().__init__(data)
        self.name = name
        self.mode = mode
        self._path = path
        _written[path] = self
        _hidden.discard(path)

    def readable(self):
        return "+" in self.mode or "r" in self.mode

    def read(self, size=-1):
        if not self.readable():
            raise _io.UnsupportedOperation("read")
        return super().read(size)

    def readline(self, size=-1):
        if not self.readable():
            raise _io.UnsupportedOperation("read")
        return super().readline(size)

    def close(self):
        if not self.closed and _written.get(self._path) is self:
            _written[self._path] = bytes(self.getvalue())
        super().close()


class _TextFile(_io.TextIOWrapper):
    """A text file, carrying the mode `open` was given, as CPython's does."""


def _check_mode(mode, encoding, binary):
    if not isinstance(mode, str):
        raise TypeError(f"open() argument 'mode' must be str, not {type(mode).__name__}")
    if set(mode) - set("rwxabt+") or len(set(mode)) != len(mode):
        raise ValueError(f"invalid mode: '{mode}'")
    if sum(c in mode for c in "rwax") != 1:
        raise ValueError("must have exactly one of create/read/write/append mode")
    if "t" in mode and binary:
        raise ValueError("can't have text and binary mode at once")
    if binary and encoding is not None:
        raise ValueError("binary mode doesn't take an encoding argument")


def open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None,
         closefd=True, opener=None):
    if isinstance(file, int):
        # No descriptors: nothing here has a real file behind it.
        raise OSError(9, "Bad file descriptor")
    name = _fspath(file)
    binary = isinstance(mode, str) and "b" in mode
    _check_mode(mode, encoding, binary)
    path = _abs(name)
    kind = _kind(path)
    if kind == "dir":
        raise IsADirectoryError(21, "Is a directory", name)
    raw_mode = mode.replace("t", "")
    raw_mode = raw_mode if "b" in raw_mode else raw_mode + "b"
    if "r" in mode:
        if kind is None:
            raise _not_found(name)
        data = _read(path)
        if "+" in mode:
            raw = _WrittenBytes(data, name, raw_mode, path)
        else:
            raw = _ReadOnlyBytes(data, name, raw_mode)
    else:
        if "x" in mode and kind is not None:
            raise FileExistsError(17, "File exists", name)
        if kind is None:
            _check_parent(path, name)
        data = _read(path) if "a" in mode and kind is not None else b""
        raw = _WrittenBytes(data, name, raw_mode, path)
        if "a" in mode:
            raw.seek(0, 2)
    if binary:
        return raw
    text = _TextFile(raw, encoding=encoding or "utf-8", errors=errors, newline=newline)
    text.mode = mode
    return text


open.__module__ = "io"
builtins.open = open
_io.open = open
_io.open_code = lambda path: open(path, "rb")


# -- the program's start -------------------------------------------------

# The sys.path entry the last program's folder put first, taken out when
# the next program starts.
_program_dir = None


def _enter_program(file_name, args):
    """Called by the runtime as each program starts: `sys.argv` as
    `python FILE ARGS...` sets it, and the program's folder first on
    `sys.path` (the sandbox's `/` for a program read from stdin or given
    by the host without a folder)."""
    global _program_dir, _cwd
    _refresh_host()
    _cwd = "/"
    # `python - ARGS` names a program read from stdin "-".
    sys.argv = ["-" if file_name == "<stdin>" else file_name, *args]
    if _program_dir is not None and _program_dir in sys.path:
        sys.path.remove(_program_dir)
    folder = "/" if file_name.startswith("<") else _parent(_abs(file_name))
    sys.path.insert(0, folder)
    _program_dir = folder
    # Every program runs in one interpreter (the page's worker, the corpus
    # test), where `python prog.py` starts a new process: what an earlier
    # program set in a module it imported (print options, open figures) is
    # put back as a fresh import has it.
    for name in ("torch", "numpy", "matplotlib.pyplot"):
        reset = getattr(sys.modules.get(name), "_gradscope_new_process", None)
        if reset is not None:
            reset()


import _gradscope_importer  # noqa: E402,F401  (installs the program's modules' finder)
