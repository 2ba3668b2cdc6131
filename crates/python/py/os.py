"""A sandboxed `os`: files and directories are the sandbox's
(`_gradscope_files`: the host's files read-only, writes kept in memory),
the environment is empty, and there are no processes. What pure-Python
modules (`random`, `contextlib`, `glob`) and programs need is here, with
CPython's results and errors."""

import sys as _sys

import _gradscope_files as _fs
import _gradscope_ospath as path

_sys.modules["os.path"] = path

name = "posix"
sep = path.sep
altsep = path.altsep
extsep = path.extsep
pathsep = path.pathsep
defpath = path.defpath
devnull = path.devnull
linesep = "\n"
curdir = "."
pardir = ".."
environ = {}
error = OSError
supports_bytes_environ = True

F_OK, X_OK, W_OK, R_OK = 0, 1, 2, 4
O_RDONLY, O_WRONLY, O_RDWR = 0, 1, 2
O_CREAT, O_EXCL, O_NOCTTY, O_TRUNC, O_APPEND, O_NONBLOCK = 0o100, 0o200, 0o400, 0o1000, 0o2000, 0o4000
O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC = 0o200000, 0o400000, 0o2000000
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
_S_IFDIR = 0o040000
_S_IFREG = 0o100000


def getenv(key, default=None):
    return environ.get(key, default)


def putenv(key, value):
    environ[key] = value


def unsetenv(key):
    environ.pop(key, None)


def getcwd():
    return _fs._cwd


def getcwdb():
    return _fs._cwd.encode()


def chdir(path):
    name = _fs._fspath(path)
    target = _fs._abs(name)
    kind = _fs._kind(target)
    if kind is None:
        raise FileNotFoundError(2, "No such file or directory", name)
    if kind == "file":
        raise NotADirectoryError(20, "Not a directory", name)
    _fs._cwd = target


def getpid():
    return 1


def getuid():
    return 0


geteuid = getgid = getegid = getuid


def urandom(size):
    import _random

    return _random.Random().getrandbits(8 * size).to_bytes(size, "little") if size else b""


def fspath(path):
    if isinstance(path, (str, bytes)):
        return path
    return _fs._fspath(path)


def fsencode(filename):
    filename = fspath(filename)
    return filename.encode() if isinstance(filename, str) else filename


def fsdecode(filename):
    filename = fspath(filename)
    return filename.decode() if isinstance(filename, bytes) else filename


class PathLike:
    """Any class with `__fspath__` is one, as CPython's ABC says."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)

    @classmethod
    def __subclasshook__(cls, subclass):
        return hasattr(subclass, "__fspath__") or NotImplemented


def cpu_count():
    return 1


def strerror(code):
    return {
        2: "No such file or directory",
        13: "Permission denied",
        17: "File exists",
        20: "Not a directory",
        21: "Is a directory",
        22: "Invalid argument",
        39: "Directory not empty",
    }.get(code, f"Unknown error {code}")


# -- files and directories ---------------------------------------------------


class stat_result(tuple):
    """What `os.stat` gives: mode, size and times are the sandbox's (times
    are 0: nothing here keeps a clock)."""

    n_fields = n_sequence_fields = 10

    def __new__(cls, mode, size):
        return super().__new__(cls, (mode, 0, 0, 1, 0, 0, size, 0, 0, 0))

    st_mode = property(lambda self: self[0])
    st_ino = property(lambda self: self[1])
    st_dev = property(lambda self: self[2])
    st_nlink = property(lambda self: self[3])
    st_uid = property(lambda self: self[4])
    st_gid = property(lambda self: self[5])
    st_size = property(lambda self: self[6])
    st_atime = property(lambda self: float(self[7]))
    st_mtime = property(lambda self: float(self[8]))
    st_ctime = property(lambda self: float(self[9]))
    st_atime_ns = st_mtime_ns = st_ctime_ns = property(lambda self: 0)

    def __repr__(self):
        return (
            f"os.stat_result(st_mode={self[0]}, st_ino={self[1]}, st_dev={self[2]}, "
            f"st_nlink={self[3]}, st_uid={self[4]}, st_gid={self[5]}, st_size={self[6]}, "
            f"st_atime={self[7]}, st_mtime={self[8]}, st_ctime={self[9]})"
        )


def stat(path, *, dir_fd=None, follow_symlinks=True):
    name = _fs._fspath(path)
    target = _fs._abs(name)
    kind = _fs._kind(target)
    if kind is None:
        raise FileNotFoundError(2, "No such file or directory", name)
    if kind == "dir":
        return stat_result(_S_IFDIR | 0o755, 4096)
    return stat_result(_S_IFREG | 0o644, _fs._size(target))


def lstat(path, *, dir_fd=None):
    return stat(path)


def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):
    return _fs._kind(_fs._abs(path)) is not None


def listdir(path="."):
    name = _fs._fspath(path)
    target = _fs._abs(name)
    kind = _fs._kind(target)
    if kind is None:
        raise FileNotFoundError(2, "No such file or directory", name)
    if kind == "file":
        raise NotADirectoryError(20, "Not a directory", name)
    names = _fs._children(target)
    return [n.encode() for n in names] if isinstance(name, bytes) else names


class DirEntry:
    """One entry of `os.scandir`."""

    def __init__(self, folder, name):
        self.name = name
        self.path = path.join(folder, name)
        self._abs = _fs._abs(self.path)

    def is_dir(self, *, follow_symlinks=True):
        return _fs._kind(self._abs) == "dir"

    def is_file(self, *, follow_symlinks=True):
        return _fs._kind(self._abs) == "file"

    def is_symlink(self):
        return False

    def is_junction(self):
        return False

    def stat(self, *, follow_symlinks=True):
        return stat(self.path)

    def inode(self):
        return 0

    def __fspath__(self):
        return self.path

    def __repr__(self):
        return f"<DirEntry {self.name!r}>"


class _ScandirIterator:
    def __init__(self, entries):
        self._entries = iter(entries)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._entries)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._entries = iter(())


def scandir(path="."):
    names = listdir(path)
    folder = _fs._fspath(path)
    return _ScandirIterator([DirEntry(folder, n) for n in names])


def mkdir(path, mode=0o777, *, dir_fd=None):
    name = _fs._fspath(path)
    _fs._make_dir(_fs._abs(name), name)


def makedirs(name, mode=0o777, exist_ok=False):
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    if head and tail and not path.exists(head):
        try:
            makedirs(head, exist_ok=exist_ok)
        except FileExistsError:
            pass
        if tail == curdir:
            return
    try:
        mkdir(name, mode)
    except OSError:
        if not exist_ok or not path.isdir(name):
            raise


def remove(path, *, dir_fd=None):
    name = _fs._fspath(path)
    _fs._remove_file(_fs._abs(name), name)


unlink = remove


def rmdir(path, *, dir_fd=None):
    name = _fs._fspath(path)
    _fs._remove_dir(_fs._abs(name), name)


def removedirs(name):
    rmdir(name)
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    while head and tail:
        try:
            rmdir(head)
        except OSError:
            break
        head, tail = path.split(head)


def rename(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
    src_name, dst_name = _fs._fspath(src), _fs._fspath(dst)
    _fs._rename(_fs._abs(src_name), _fs._abs(dst_name), src_name, dst_name)


replace = rename


def walk(top, topdown=True, onerror=None, followlinks=False):
    top = fspath(top)
    try:
        names = listdir(top)
    except OSError as err:
        if onerror is not None:
            onerror(err)
        return
    dirs = [n for n in names if path.isdir(path.join(top, n))]
    files = [n for n in names if n not in dirs]
    if topdown:
        yield top, dirs, files
        for d in dirs:
            yield from walk(path.join(top, d), topdown, onerror, followlinks)
    else:
        for d in dirs:
            yield from walk(path.join(top, d), topdown, onerror, followlinks)
        yield top, dirs, files


def get_terminal_size(fd=1):
    raise OSError(25, "Inappropriate ioctl for device")


class terminal_size(tuple):
    columns = property(lambda self: self[0])
    lines = property(lambda self: self[1])


# -- descriptors: the sandbox has none -----------------------------------------

supports_dir_fd = set()
supports_fd = set()
supports_follow_symlinks = set()
supports_effective_ids = set()


def open(path, flags, mode=0o777, *, dir_fd=None):
    # Files are objects here (`open` the builtin), never descriptors.
    raise OSError(38, "Function not implemented", fspath(path))


def close(fd):
    raise OSError(9, "Bad file descriptor")


def isatty(fd):
    return False


def fstat(fd):
    raise OSError(9, "Bad file descriptor")


def read(fd, n):
    raise OSError(9, "Bad file descriptor")


def write(fd, data):
    raise OSError(9, "Bad file descriptor")


# -- what the sandbox keeps no record of -----------------------------------------


def chmod(path, mode, *, dir_fd=None, follow_symlinks=True):
    stat(path)


def utime(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True):
    stat(path)


def readlink(path, *, dir_fd=None):
    stat(path)
    raise OSError(22, "Invalid argument", fspath(path))


def symlink(src, dst, target_is_directory=False, *, dir_fd=None):
    raise PermissionError(1, "Operation not permitted", fspath(src), None, fspath(dst))


def link(src, dst, *, src_dir_fd=None, dst_dir_fd=None, follow_symlinks=True):
    raise PermissionError(1, "Operation not permitted", fspath(src), None, fspath(dst))


# `os.walk`'s marker for following links as files (pathlib passes it).
_walk_symlinks_as_files = object()
