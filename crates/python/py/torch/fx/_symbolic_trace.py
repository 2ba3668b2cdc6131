"""`torch.fx.symbolic_trace`, `Tracer` and `wrap`: record a function's operations as a `Graph`.

The tracer calls the function with a `Proxy` per argument. Operators and
tensor methods on proxies add nodes by themselves; torch's functions and
those the program marked with `wrap` are swapped, for the trace's length, for
versions that add a node when a proxy is among their arguments; calls to
`torch.nn` modules become `call_module` nodes and parameters `get_attr`.
"""

import inspect
import sys

import torch

from .graph import Graph
from .node import _torch_names
from .proxy import Proxy, TracerBase

__all__ = ["Tracer", "symbolic_trace", "wrap"]

# (globals dict, name) of each function the program passed to `wrap`
_wrapped_fns_to_patch = {}


def wrap(fn_or_name):
    """Record calls to a module-level function as one node instead of tracing through it."""
    if callable(fn_or_name):
        fn_name = fn_or_name.__name__
    elif isinstance(fn_or_name, str):
        fn_name = fn_or_name
    else:
        raise AssertionError("wrap must be called with the name of a function or the function itself")
    frame = sys._getframe(1)
    if frame.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    _wrapped_fns_to_patch[(id(frame.f_globals), fn_name)] = frame.f_globals
    return fn_or_name


def _find_proxy(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, Proxy):
            return a
        if isinstance(a, (tuple, list)):
            for b in a:
                if isinstance(b, Proxy):
                    return b
    return None


# The functions of `torch.nn.functional` that PyTorch implements natively: a
# node records their arguments as called. The others are Python functions
# whose `handle_torch_function` passes the parameters without a default by
# position and all the rest by keyword, defaults filled in.
_NATIVE_FUNCTIONAL = frozenset((
    "adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "bilinear", "celu_", "channel_shuffle",
    "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_similarity", "elu_", "gelu", "hardshrink", "hardtanh_", "leaky_relu_", "linear", "logsigmoid",
    "native_channel_shuffle", "one_hot", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle",
    "prelu", "relu_", "rrelu_", "scaled_dot_product_attention", "selu_", "softplus", "softshrink",
    "threshold_"))


def _as_functional_records(orig, args, kwargs):
    try:
        bound = inspect.signature(orig).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    bound.apply_defaults()
    positional, keywords = [], {}
    for name, param in inspect.signature(orig).parameters.items():
        value = bound.arguments[name]
        if param.kind is param.VAR_POSITIONAL:
            positional.extend(value)
        elif param.kind is param.VAR_KEYWORD:
            keywords.update(value)
        elif param.default is param.empty and param.kind is not param.KEYWORD_ONLY:
            positional.append(value)
        else:
            keywords[name] = value
    return tuple(positional), keywords


def _patched(orig, wrapped, functional=False):
    def patched(*args, **kwargs):
        proxy = _find_proxy(args, kwargs)
        if proxy is None:
            return orig(*args, **kwargs)
        if functional:
            args, kwargs = _as_functional_records(orig, args, kwargs)
        result = proxy.tracer.create_proxy("call_function", orig, args, kwargs)
        if wrapped:
            result.node.meta["is_wrapped"] = True
        return result

    patched.__name__ = getattr(orig, "__name__", "patched")
    return patched


class _Patcher:
    """Swaps attributes for the trace's length and puts them back."""

    def __init__(self):
        self.undo = []

    _ABSENT = object()

    def patch(self, owner, name, new):
        if isinstance(owner, dict):
            self.undo.append((owner, name, owner[name]))
            owner[name] = new
        else:
            self.undo.append((owner, name, owner.__dict__.get(name, self._ABSENT)))
            setattr(owner, name, new)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for owner, name, old in reversed(self.undo):
            if isinstance(owner, dict):
                owner[name] = old
            elif old is self._ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, old)
        self.undo = []


class Tracer(TracerBase):
    """Turns a module or function into a `Graph` by calling it on proxies."""

    __module__ = "torch.fx._symbolic_trace"

    def __init__(self, autowrap_modules=(), autowrap_functions=(), param_shapes_constant=False):
        self.autowrap_functions = tuple(autowrap_functions)
        self.param_shapes_constant = param_shapes_constant
        self.scope = None
        self.module_stack = {}
        self.node_name_to_scope = {}

    def is_leaf_module(self, m, module_qualified_name):
        module = type(m).__module__ or ""
        return (module.startswith("torch.nn") or module.startswith("torch.ao.nn")) and not isinstance(
            m, torch.nn.Sequential)

    def path_of_module(self, mod):
        for name, m in self.root.named_modules():
            if m is mod:
                return name
        raise NameError("module is not installed as a submodule")

    def call_module(self, m, forward, args, kwargs):
        module_qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, module_qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", module_qualified_name, args, kwargs)

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        if isinstance(attr_val, torch.nn.Parameter):
            for n, p in self.root.named_parameters():
                if attr_val is p:
                    if n not in parameter_proxy_cache:
                        parameter_proxy_cache[n] = self.create_proxy("get_attr", n, (), {})
                    return parameter_proxy_cache[n]
        return attr_val

    def create_arg(self, a):
        if isinstance(a, torch.nn.Parameter):
            for n, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", n, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, torch.Tensor):
            i = 0
            while hasattr(self.root, f"_tensor_constant{i}"):
                i += 1
            qualname = f"_tensor_constant{i}"
            setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        if isinstance(a, (tuple, list)):
            items = [self.create_arg(x) for x in a]
            return type(a)(items) if not hasattr(a, "_fields") else type(a)(*items)
        if isinstance(a, dict):
            return {k: self.create_arg(v) for k, v in a.items()}
        return super().create_arg(a)

    def create_args_for_root(self, root_fn, is_module):
        code = root_fn.__code__
        names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
        args = []
        if is_module:
            names = names[1:]
            args.append(self.root)
        defaults = inspect.signature(root_fn).parameters
        for name in names:
            default = defaults[name].default
            args.append(self.create_proxy("placeholder", name, () if default is inspect.Parameter.empty
                                          else (default,), {}))
        return root_fn, args

    def trace(self, root, concrete_args=None):
        """Trace `root` (a module's `forward` or a function) into a new `Graph`."""
        _torch_names()  # read torch's functions before they are swapped below
        if isinstance(root, torch.nn.Module):
            self.root = root
            fn = type(root).forward
            is_module = True
        else:
            self.root = torch.nn.Module()
            fn = root
            is_module = False
        self.graph = Graph(tracer_cls=type(self))
        fn, args = self.create_args_for_root(fn, is_module)
        parameter_proxy_cache = {}
        tracer = self
        orig_call = torch.nn.Module.__call__
        orig_getattr = torch.nn.Module.__getattr__

        def module_call_wrapper(mod, *args, **kwargs):
            def forward(*args, **kwargs):
                return orig_call(mod, *args, **kwargs)

            return tracer.call_module(mod, forward, args, kwargs)

        def module_getattr_wrapper(mod, attr):
            attr_val = orig_getattr(mod, attr)
            return tracer.getattr(attr, attr_val, parameter_proxy_cache)

        with _Patcher() as patcher:
            patcher.patch(torch.nn.Module, "__call__", module_call_wrapper)
            patcher.patch(torch.nn.Module, "__getattr__", module_getattr_wrapper)
            for module in (torch, torch.nn.functional):
                for name, value in list(vars(module).items()):
                    if name.startswith("_") or isinstance(value, type) or not callable(value):
                        continue
                    if id(value) in _torch_names() and getattr(type(value), "__name__", "") in (
                            "function", "builtin_function_or_method"):
                        functional = module is torch.nn.functional and name not in _NATIVE_FUNCTIONAL
                        patcher.patch(module.__dict__, name, _patched(value, False, functional))
            for (_, name), fn_globals in _wrapped_fns_to_patch.items():
                if name in fn_globals:
                    patcher.patch(fn_globals, name, _patched(fn_globals[name], True))
            for fn_ in self.autowrap_functions:
                g = fn_.__globals__
                if g.get(fn_.__name__) is fn_:
                    patcher.patch(g, fn_.__name__, _patched(fn_, True))
            result = fn(*args)
            self.create_node("output", "output", (self.create_arg(result),), {}, type_expr=None)
        return self.graph


def symbolic_trace(root, concrete_args=None):
    """Trace `root` and return a `GraphModule` that runs the recorded graph."""
    from .graph_module import GraphModule

    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, torch.nn.Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
