"""Grad modes as context managers and decorators, as PyTorch writes them
(torch/autograd/grad_mode.py) over the engine's scoped guards."""

import _gradscope as _C


def _wraps(wrapper, func):
    for name in ("__module__", "__name__", "__qualname__", "__doc__"):
        try:
            setattr(wrapper, name, getattr(func, name))
        except AttributeError:
            pass
    wrapper.__wrapped__ = func
    return wrapper


class _DecoratorContextManager:
    """Lets a context manager decorate functions too."""

    def __call__(self, func):
        ctx_factory = self.clone

        def decorate_context(*args, **kwargs):
            with ctx_factory():
                return func(*args, **kwargs)

        return _wraps(decorate_context, func)

    def clone(self):
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Usable as `@no_grad` as well as `@no_grad()`."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class _Scoped:
    def _enter(self, scope):
        self.__dict__.setdefault("_scopes", []).append(scope)

    def _exit(self):
        self._scopes.pop().exit()


class no_grad(_NoParamDecoratorContextManager, _Scoped):
    """Ops inside record no graph."""

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        self._enter(_C._grad_mode_scope(False))

    def __exit__(self, exc_type, exc_value, traceback):
        self._exit()


class enable_grad(_NoParamDecoratorContextManager, _Scoped):
    """Ops inside record a graph, even within `no_grad`."""

    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        self._enter(_C._grad_mode_scope(True))

    def __exit__(self, exc_type, exc_value, traceback):
        self._exit()


class set_grad_enabled(_DecoratorContextManager):
    """Sets grad mode now; as a context manager, restores it on exit."""

    def __init__(self, mode):
        self.prev = _C.is_grad_enabled()
        self.mode = mode
        _C._set_grad_enabled(mode)

    def __call__(self, orig_func):
        _C._set_grad_enabled(self.prev)
        return super().__call__(orig_func)

    def __enter__(self):
        _C._set_grad_enabled(self.mode)

    def __exit__(self, exc_type, exc_value, traceback):
        _C._set_grad_enabled(self.prev)

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager, _Scoped):
    """No graph, and tensors made inside are inference tensors."""

    def __new__(cls, mode_or_orig_func=True):
        if mode_or_orig_func is None or isinstance(mode_or_orig_func, bool):
            return super().__new__(cls)
        return cls()(mode_or_orig_func)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self._enter(_C._inference_mode_scope(self.mode))

    def __exit__(self, exc_type, exc_value, traceback):
        self._exit()

    def clone(self):
        return self.__class__(self.mode)


def is_grad_enabled():
    return _C.is_grad_enabled()


def is_inference_mode_enabled():
    return _C.is_inference_mode_enabled()
