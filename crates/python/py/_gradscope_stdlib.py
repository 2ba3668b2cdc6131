"""Imports the standard library beyond the modules the interpreter starts
with: RustPython's pure-Python `Lib`, compiled at build time
(crates/stdlib). Natively its bytecode is in the binary; in the page the
worker fetches it, as two cacheable files (what programs commonly import,
then the rest), each the first time a program imports one of its modules
(`_gradscope._stdlib_code`).

Modules that cannot work in the sandbox, which has no processes, network,
native libraries or display, raise ImportError saying so.

There is no native `_thread` in this build (nor in the page, which has no
threads to give): `_thread` is RustPython's frozen dummy (with the fix of
`_gradscope_stdlib_thread`), so `threading`, `queue`, `logging` and
`concurrent.futures` import and work, but a thread's target runs to its end
inside `Thread.start()`, before `start()` returns; a blocking `acquire` of
a held lock returns at once instead of waiting for a release that could
never come."""

import sys

import _codecs
import _frozen_importlib
import _gradscope

_SANDBOX = "gradscope runs programs in a sandbox without processes or network"

# Module name: why it cannot work here.
BLOCKED = {
    "subprocess": "it cannot start processes",
    "multiprocessing": "it cannot start processes (use a plain loop, or DataLoader with num_workers=0)",
    "concurrent.futures.process": "it cannot start processes (ThreadPoolExecutor works)",
    "_posixsubprocess": "it cannot start processes",
    "pty": "it cannot start processes",
    "socket": "it has no network",
    "_socket": "it has no network",
    "ssl": "it has no network",
    "select": "it has no network",
    "socketserver": "it has no network",
    "urllib.request": "it has no network (add data files to the program's files instead)",
    "http.client": "it has no network",
    "http.server": "it has no network",
    "ftplib": "it has no network",
    "smtplib": "it has no network",
    "poplib": "it has no network",
    "imaplib": "it has no network",
    "xmlrpc.client": "it has no network",
    "xmlrpc.server": "it has no network",
    "webbrowser": "it cannot open a browser",
    "ctypes": "it cannot load native libraries",
    "tkinter": "it has no display for windows (matplotlib draws into the page)",
    "_tkinter": "it has no display for windows (matplotlib draws into the page)",
    "turtle": "it has no display for windows (matplotlib draws into the page)",
}

# Native modules of CPython that this build lacks, made of one of ours:
# `posix` is the sandbox's `os` (importlib's path machinery and `shutil`
# import it), `_signal` records handlers but no signal ever arrives.
_SHIMS = {"posix": "os", "_signal": "_gradscope_stdlib_signal"}


class _ShimLoader:
    """Fills a module with the public names of another one."""

    @classmethod
    def create_module(cls, spec):
        return None

    @classmethod
    def exec_module(cls, module):
        source = __import__(_SHIMS[module.__spec__.name])
        for key, value in source.__dict__.items():
            if not (key.startswith("__") and key.endswith("__")):
                module.__dict__[key] = value

    @classmethod
    def is_package(cls, fullname):
        return False


class _StdlibLoader:
    """Runs a standard-library module's frozen bytecode."""

    @classmethod
    def create_module(cls, spec):
        return None

    @classmethod
    def exec_module(cls, module):
        if not _completed:
            _complete()
        name = module.__spec__.name
        code = _gradscope._stdlib_code(name)
        exec(code, module.__dict__)
        if name == "pickle":
            _pickle_protocol_4(module)

    @classmethod
    def is_package(cls, fullname):
        return bool(_gradscope._stdlib_find(fullname))

    @classmethod
    def get_source(cls, fullname):
        return None


def _pickle_protocol_4(pickle):
    """CPython 3.11's default protocol, 4, which PyTorch outputs are
    recorded with (RustPython's `_pickle` is a later CPython's, where it is
    5): pickled bytes, and so their hashes (`_gradscope_hash`), match."""
    pickle.DEFAULT_PROTOCOL = 4
    native_dumps, native_dump, native_pickler = pickle.dumps, pickle.dump, pickle.Pickler

    def dumps(obj, protocol=None, *, fix_imports=True, buffer_callback=None):
        return native_dumps(obj, 4 if protocol is None else protocol,
                            fix_imports=fix_imports, buffer_callback=buffer_callback)

    def dump(obj, file, protocol=None, *, fix_imports=True, buffer_callback=None):
        return native_dump(obj, file, 4 if protocol is None else protocol,
                           fix_imports=fix_imports, buffer_callback=buffer_callback)

    class Pickler(native_pickler):
        __doc__ = native_pickler.__doc__

        def __init__(self, file, protocol=None, *args, **kwargs):
            super().__init__(file, 4 if protocol is None else protocol, *args, **kwargs)

    Pickler.__module__ = "_pickle"
    dumps.__module__ = dump.__module__ = "_pickle"
    pickle.dumps, pickle.dump, pickle.Pickler = dumps, dump, Pickler


def _imported_by_stdlib():
    """Whether the import statement being run is in the standard library:
    the first frame outside the import machinery is a `<stdlib ...>` one."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith("<frozen importlib") or name.startswith("<gradscope _gradscope_stdlib")):
            return name.startswith("<stdlib ")
        frame = frame.f_back
    return False


# What standard-library modules read from a blocked module when they are
# imported (Linux's values): `asyncio` names socket families and types.
_BLOCKED_CONSTANTS = {
    "socket": {
        "AF_UNSPEC": 0, "AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10,
        "SOCK_STREAM": 1, "SOCK_DGRAM": 2, "SOCK_RAW": 3,
        "SOL_SOCKET": 1, "SO_REUSEADDR": 2, "SO_KEEPALIVE": 9, "SO_ERROR": 4,
        "SO_BROADCAST": 6, "SO_REUSEPORT": 15, "IPPROTO_TCP": 6, "IPPROTO_UDP": 17,
        "IPPROTO_IPV6": 41, "IPV6_V6ONLY": 26, "TCP_NODELAY": 1, "AI_PASSIVE": 1,
        "SHUT_RD": 0, "SHUT_WR": 1, "SHUT_RDWR": 2, "has_ipv6": False,
        "error": OSError, "timeout": TimeoutError,
    },
    "subprocess": {"PIPE": -1, "STDOUT": -2, "DEVNULL": -3},
    "http.client": {"HTTP_PORT": 80, "HTTPS_PORT": 443},
}


class _BlockedModule(type(sys)):
    """What a standard-library module gets for a blocked one it imports
    (`asyncio` and `unittest.mock` import `socket`, `logging.handlers` and
    `xml.sax.saxutils` import `urllib.request`): it imports, so the module
    importing it works as far as it can without it; its constants are
    there (0 where their value cannot matter), its functions and classes
    raise OSError saying why when called.
    A program's own import of it raises ImportError."""

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"{self._gradscope_why} (no {self.__name__}.{name})")
        if name.isupper():
            # Another constant (`select.POLLIN`): its value cannot matter,
            # nothing it names can be used.
            return 0
        why = self._gradscope_why

        def refuse(*args, **kwargs):
            raise OSError(why)

        refuse.__name__ = refuse.__qualname__ = name
        return refuse


class _BlockedLoader:
    def __init__(self, message):
        self.message = message

    def create_module(self, spec):
        module = _BlockedModule(spec.name)
        module._gradscope_why = self.message
        module.__dict__.update(_BLOCKED_CONSTANTS.get(spec.name, {}))
        return module

    def exec_module(self, module):
        pass


class StdlibFinder:
    """The meta-path finder for the standard library that is not frozen in."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        reason = BLOCKED.get(fullname)
        if reason is not None:
            message = f"{_SANDBOX}: {fullname} cannot work here, {reason}"
            if not _imported_by_stdlib():
                raise ImportError(message, name=fullname)
            return _frozen_importlib.ModuleSpec(fullname, _BlockedLoader(message), origin="gradscope")
        if fullname in _SHIMS:
            return _frozen_importlib.ModuleSpec(fullname, _ShimLoader, origin="gradscope")
        package = _gradscope._stdlib_find(fullname)
        if package is None:
            return None
        spec = _frozen_importlib.ModuleSpec(
            fullname, _StdlibLoader, origin="stdlib", is_package=package
        )
        return spec

    @classmethod
    def invalidate_caches(cls):
        pass


_completed = False


def _complete():
    """Runs before the first module of the standard library: `_thread`'s
    fix, and what the standard library reads from `os` at import and the
    sandbox's `os` lacks, each set only where `os` has none: no file
    descriptors (`shutil` checks `os.open in os.supports_dir_fd` at import;
    `argparse` and `zipfile` import `shutil`), no terminal (`argparse` asks
    `os.isatty`), `os.PathLike.register` (`pathlib` registers its classes)
    and `os.PathLike[str]` (`importlib.resources`)."""
    global _completed
    _completed = True
    import _gradscope_stdlib_thread

    _gradscope_stdlib_thread._patch()
    import os

    def open(path, flags, mode=0o777, *, dir_fd=None):
        raise OSError(38, "gradscope's file system has no file descriptors: use open()", path)

    for name, value in (
        ("open", open),
        ("supports_dir_fd", set()),
        ("supports_fd", set()),
        ("supports_follow_symlinks", set()),
        ("supports_effective_ids", set()),
        ("isatty", lambda fd: False),
    ):
        if not hasattr(os, name):
            setattr(os, name, value)
    if not hasattr(os.PathLike, "register"):
        os.PathLike.register = classmethod(lambda cls, subclass: subclass)
    if not hasattr(os.PathLike, "__class_getitem__"):
        import types

        os.PathLike.__class_getitem__ = classmethod(types.GenericAlias)


def _search_codec(name):
    """The codecs of `encodings` (`raw_unicode_escape` for `pickle`,
    `cp1252`, ...), imported at the first name the native ones do not
    know: `encodings` then registers its own search function."""
    import encodings

    return encodings.search_function(name)


def _install():
    """After the built-in and frozen importers, before any other finder (a
    program's own modules): the standard library is found first, as the
    frozen part of it already is."""
    frozen = [i for i, f in enumerate(sys.meta_path) if getattr(f, "__name__", "") == "FrozenImporter"]
    at = frozen[0] + 1 if frozen else len(sys.meta_path)
    sys.meta_path.insert(at, StdlibFinder)
    _codecs.register(_search_codec)


_install()
