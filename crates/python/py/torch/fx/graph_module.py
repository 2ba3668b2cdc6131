"""`torch.fx.GraphModule`: a module whose `forward` is the code its `Graph` generates.

Each instance gets a class of its own (named after what was traced), as in
PyTorch, so `recompile` can set `forward` on it without touching other
instances; `code` is the generated source.
"""

import torch

from .graph import Graph

__all__ = ["GraphModule"]

_next_id = [0]


def _copy_attr(from_module, to_module, target):
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return
        if t is None:
            t = torch.nn.Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, torch.Tensor) and not isinstance(orig, torch.nn.Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(from_obj, to_module, target):
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = torch.nn.Module()
            setattr(to_module, item, t)
        to_module = t
    if isinstance(from_obj, torch.Tensor) and not isinstance(from_obj, torch.nn.Parameter):
        to_module.register_buffer(field, from_obj)
    else:
        setattr(to_module, field, from_obj)


class GraphModule(torch.nn.Module):
    """A module generated from a `Graph`: its attributes are copied from `root`
    (a module or a dict) as the graph's `get_attr` and `call_module` nodes need."""

    __module__ = "torch.fx.graph_module"

    def __new__(cls, *args, **kwargs):
        for t in cls.__mro__:
            if t.__qualname__.split(".")[-1] != "GraphModuleImpl":
                cls = t
                break

        class GraphModuleImpl(cls):
            pass

        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name="GraphModule"):
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, torch.nn.Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(f"Node {node} referenced target {node.target} but that target "
                                           "was not provided in ``root``!")
                    _assign_attr(root[node.target], self, node.target)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph

    @property
    def graph(self):
        return self._graph

    @graph.setter
    def graph(self, g):
        if not isinstance(g, Graph):
            raise AssertionError(f"Expected a Graph instance, but got {type(g)}")
        object.__setattr__(self, "_graph", g)
        g.owning_module = self
        self.recompile()

    @property
    def code(self):
        """The Python source of `forward`, as generated from the graph."""
        return self._code

    def recompile(self):
        """Generate `forward` again from the graph (after the graph was edited)."""
        python_code = self._graph.python_code(root_module="self")
        object.__setattr__(self, "_code", python_code.src)
        globals_ = dict(python_code.globals)
        globals_.setdefault("torch", torch)
        _next_id[0] += 1
        exec(compile(python_code.src, f"<eval_with_key>.{_next_id[0]}", "exec"), globals_)
        cls = type(self)
        cls.forward = globals_["forward"]
        return python_code

    def print_readable(self, print_output=True):
        text = f"class {self._get_name()}(torch.nn.Module):\n" + "\n".join(
            "    " + line if line else line for line in self._code.lstrip("\n").split("\n"))
        if print_output:
            print(text)
        return text

    def __str__(self):
        return (super().__str__() + "\n\n\n\n" + self._code.lstrip("\n") + "\n"
                + "# To see more debug info, please use `graph_module.print_readable()`")

    def __copy__(self):
        res = GraphModule(self, self.graph)
        res.__dict__.update({k: v for k, v in self.__dict__.items() if k not in res.__dict__})
        return res
