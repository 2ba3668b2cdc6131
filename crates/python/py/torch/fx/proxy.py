"""`torch.fx.proxy`: `Proxy`, the stand-in a traced function computes with.

Every operation on a proxy (an operator, a method call, a torch function while
tracing) adds a node to the tracer's graph and returns a new proxy for it.
"""

import operator

from .. import _python_dispatch
from .graph import magic_methods, reflectable_magic_methods
from .node import map_aggregate

__all__ = ["Attribute", "GraphAppendingTracer", "Proxy", "TraceError", "TracerBase"]


class TraceError(ValueError):
    pass


class TracerBase:
    """What proxies need of a tracer: a graph to add nodes to, and `create_proxy`."""

    graph = None

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node):
        return Proxy(node, self)

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None, proxy_factory_fn=None):
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return self.proxy(node) if proxy_factory_fn is None else proxy_factory_fn(node)

    def create_arg(self, a):
        """`a` with each proxy replaced by its node."""

        def leaf(x):
            if isinstance(x, Proxy):
                return x.node
            return x

        return map_aggregate(a, leaf)

    def iter(self, obj):
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the Proxy is used "
                         "in a loop or as a *args or **kwargs function argument. See the torch.fx docs on "
                         "pytorch.org for a more detailed explanation of what types of control flow can be "
                         "traced, and check out the Proxy docstring for help troubleshooting Proxy "
                         "iteration errors")

    def to_bool(self, obj):
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def keys(self, obj):
        return Attribute(obj, "keys")()


class GraphAppendingTracer(TracerBase):
    """A tracer that adds nodes to an existing graph (at its insert point)."""

    def __init__(self, graph):
        self.graph = graph
        self.scope = None
        self.module_stack = {}
        self.node_name_to_scope = {}


class Proxy:
    """A value in a graph under construction, standing in for what `node` computes."""

    __module__ = "torch.fx.proxy"

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node
        _route_for(self)

    @classmethod
    def __torch_function__(cls, orig_method, types, args=None, kwargs=None):
        """A `torch` function or `Tensor` method called with proxies among
        its arguments, outside a trace's own patching (a graph built with
        a `GraphAppendingTracer`, a traced module called on a proxy): a
        node of the proxies' tracer, as PyTorch records it."""
        args = args if args else ()
        kwargs = kwargs if kwargs else {}
        tracers = {}

        def find_tracer(a):
            if isinstance(a, cls):
                tracers[a.tracer] = None

        map_aggregate(args, find_tracer)
        map_aggregate(kwargs, find_tracer)
        if len(tracers) > 1:
            raise RuntimeError(f"Found multiple different tracers {list(tracers.keys())} while "
                               f"trying to trace operations {orig_method}")
        tracer = next(iter(tracers.keys()))
        import torch

        name = getattr(orig_method, "__name__", None)
        if name is not None and getattr(torch.Tensor, name, None) is not None and not _is_torch_function(
                orig_method):
            return tracer.create_proxy("call_method", name, args, kwargs)
        target = _python_dispatch.original_function(orig_method)
        return tracer.create_proxy("call_function", target, args, kwargs)

    def __repr__(self):
        return f"Proxy({self.node.name})"

    def __getattr__(self, k):
        if k in ("node", "tracer"):
            raise AttributeError(k)
        return Attribute(self, k)

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self):
        return self.tracer.iter(self)

    def __bool__(self):
        return self.tracer.to_bool(self)

    def __len__(self):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this call "
                           "to be recorded, please call torch.fx.wrap('len') at module scope")

    def keys(self):
        return self.tracer.keys(self)

    def __hash__(self):
        return id(self)


class Attribute(Proxy):
    """`proxy.name`: a node only when used as a value; called, it is a `call_method`."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None
        _route_for(self)

    @property
    def node(self):
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


def _route_for(proxy):
    """Routes `torch`'s functions to `Proxy.__torch_function__` once a
    proxy is made outside a symbolic trace (a `GraphAppendingTracer`'s, as
    when building a graph by hand or calling a traced module on a proxy).
    A symbolic trace swaps torch's functions for its own recorders while it
    runs, so it needs no routing, and without it `torch.nn.functional.relu`
    stays the very function graphs record (`node.target is F.relu`)."""
    if isinstance(proxy.tracer, GraphAppendingTracer):
        _python_dispatch.install_function_type(type(proxy))


def _is_torch_function(fn):
    """Whether `fn` is a function of `torch` or `torch.nn.functional`
    (rather than a `Tensor` method)."""
    from .node import _torch_name

    return _torch_name(_python_dispatch.original_function(fn)) is not None


def _find_tracer(args):
    found = []
    map_aggregate(args, lambda x: found.append(x.tracer) if isinstance(x, Proxy) else None)
    return found[0] if found else None


def _define_magic(method):
    def impl(*args):
        target = getattr(operator, method)
        return _find_tracer(args).create_proxy("call_function", target, args, {})

    impl.__name__ = f"__{method.strip('_')}__"
    setattr(Proxy, impl.__name__, impl)


def _define_reflectable(orig_method_name):
    method_name = f"__r{orig_method_name.strip('_')}__"

    def impl(self, rhs):
        target = getattr(operator, orig_method_name)
        return self.tracer.create_proxy("call_function", target, (rhs, self), {})

    impl.__name__ = method_name
    setattr(Proxy, method_name, impl)


for _method in magic_methods:
    _define_magic(_method)
for _method in reflectable_magic_methods:
    if _method != "getitem":
        _define_reflectable(_method)
# `!=` and `==` above make proxies unhashable unless told otherwise
Proxy.__hash__ = lambda self: id(self)
del _method
