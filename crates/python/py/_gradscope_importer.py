"""Imports a program's own modules and packages (`import data`,
`from micrograd.engine import Value`) from the sandbox's files
(`_gradscope_files`), searching `sys.path` as CPython's path finder does:
`NAME.py`, or the package `NAME/__init__.py`, or else a namespace package
`NAME/` without one.

It takes the place of RustPython's path finder, which would read the real
disk once a program's folder is on `sys.path`. It comes after the built-in
and frozen importers, so our `torch` and the standard library are found
first, where CPython would let a program's `random.py` shadow `random`:
that is a difference."""

import sys

import _frozen_importlib

import _gradscope_files as _fs


class _SourceLoader:
    """Runs a module's source from the sandbox's files."""

    def __init__(self, path):
        self.path = path

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        data = _fs._read(self.path)
        if data is None:
            raise ImportError(f"cannot read {self.path}", name=module.__name__, path=self.path)
        code = compile(data, self.path, "exec", dont_inherit=True)
        # Set here, not through the spec's `has_location`: that would ask
        # for the bytecode cache's path, which RustPython's importlib only
        # knows with its file system importers installed.
        module.__file__ = self.path
        exec(code, module.__dict__)

    def get_source(self, fullname):
        data = _fs._read(self.path)
        return None if data is None else data.decode()

    def get_filename(self, fullname):
        return self.path


class _NamespaceLoader:
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        pass


class ProgramFinder:
    """The meta-path finder for modules among the sandbox's files."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        entries = sys.path if path is None else path
        tail = fullname.rpartition(".")[2]
        namespace = []
        for entry in list(entries):
            if not isinstance(entry, str):
                continue
            base = _fs._abs(entry or ".").rstrip("/") + "/" + tail
            init = base + "/__init__.py"
            if _fs._kind(init) == "file":
                spec = _frozen_importlib.ModuleSpec(
                    fullname, _SourceLoader(init), origin=init, is_package=True
                )
                spec.submodule_search_locations = [base]
                return spec
            if _fs._kind(base + ".py") == "file":
                return _frozen_importlib.ModuleSpec(
                    fullname, _SourceLoader(base + ".py"), origin=base + ".py"
                )
            if _fs._kind(base) == "dir":
                namespace.append(base)
        if namespace:
            spec = _frozen_importlib.ModuleSpec(fullname, _NamespaceLoader(), is_package=True)
            spec.submodule_search_locations = namespace
            return spec
        return None

    @classmethod
    def invalidate_caches(cls):
        pass


sys.meta_path[:] = [f for f in sys.meta_path if getattr(f, "__name__", "") != "PathFinder"]
sys.meta_path.append(ProgramFinder)
sys.path_hooks.clear()
sys.path_importer_cache.clear()
