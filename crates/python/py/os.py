"""A sandboxed `os`: the playground has no file system, environment or
processes. What pure-Python modules (`random`, `contextlib`) need is here."""

import sys as _sys

name = "posix"
sep = "/"
linesep = "\n"
curdir = "."
pardir = ".."
environ = {}


def getenv(key, default=None):
    return environ.get(key, default)


def getcwd():
    return "/"


def getpid():
    return 1


def urandom(size):
    import _random

    return _random.Random().getrandbits(8 * size).to_bytes(size, "little") if size else b""


def fspath(path):
    if isinstance(path, (str, bytes)):
        return path
    raise TypeError(
        "expected str, bytes or os.PathLike object, not " + type(path).__name__
    )


class PathLike:
    pass


def cpu_count():
    return 1
