"""`torch.fx.node`: `Node`, one operation of a `Graph`, and `map_arg`.

A node records what it calls (`op` and `target`), its arguments (which may
hold other nodes), and the nodes that use its value (`users`); the graph keeps
its nodes in a doubly linked list, so inserting and erasing during iteration
behave as in PyTorch.
"""

import builtins

__all__ = ["Node", "map_arg", "map_aggregate"]

_OPS = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output", "root")


_TORCH_NAMES = None


def _torch_names():
    """Each public function of `torch` and `torch.nn.functional` by identity, with its name there
    (read once, before any tracing replaces them)."""
    global _TORCH_NAMES
    if _TORCH_NAMES is not None:
        return _TORCH_NAMES
    import torch
    import torch.nn.functional as F
    from torch._python_dispatch import original_function

    names = {}
    for module, prefix in ((F, "torch.nn.functional"), (torch, "torch")):
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            # A function routed through `__torch_function__` is known by the
            # function it stands for, which is what graphs record.
            value = original_function(getattr(module, name, None))
            if callable(value) and not isinstance(value, type):
                own = getattr(value, "__name__", None) == name
                if id(value) not in names or own:
                    names[id(value)] = (f"{prefix}.{name}", name)
    _TORCH_NAMES = names
    return names


def _torch_name(func):
    """`torch.add` for `torch.add`, or None for a function that is not torch's."""
    found = _torch_names().get(id(func))
    return found[0] if found is not None else None


def _get_qualified_name(func):
    """The dotted name generated code and printed graphs call `func` by."""
    name = getattr(func, "__name__", None)
    if name is not None and getattr(builtins, name, None) is func:
        return name
    torch_name = _torch_name(func)
    if torch_name is not None:
        return torch_name
    module = getattr(func, "__module__", None) or "builtins"
    if module == "_operator":
        module = "operator"
    return f"{module}.{name}"


def _format_arg(arg, max_list_len=float("inf")):
    if isinstance(arg, tuple):
        items = ", ".join(_format_arg(a) for a in arg)
        return f"({items},)" if len(arg) == 1 else f"({items})"
    if isinstance(arg, list):
        return "[" + ", ".join(_format_arg(a) for a in arg) + "]"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


class Node:
    """One operation in a `Graph`: `op` is placeholder, get_attr, call_function,
    call_method, call_module or output."""

    __module__ = "torch.fx.node"

    def __init__(self, graph, name, op, target, args, kwargs, return_type=None):
        if op not in _OPS:
            raise AssertionError(f"Unknown op {op}")
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self._input_nodes = {}
        self._args = ()
        self._kwargs = {}
        self.users = {}
        self.type = return_type
        self._prev = self
        self._next = self
        self._erased = False
        self.meta = {}
        self._update_args_kwargs(args, kwargs)

    @property
    def next(self):
        return self._next

    @property
    def prev(self):
        return self._prev

    @property
    def args(self):
        return self._args

    @args.setter
    def args(self, value):
        self._update_args_kwargs(value, self._kwargs)

    @property
    def kwargs(self):
        return self._kwargs

    @kwargs.setter
    def kwargs(self, value):
        self._update_args_kwargs(self._args, value)

    @property
    def all_input_nodes(self):
        return list(self._input_nodes)

    def _update_args_kwargs(self, new_args, new_kwargs):
        for old in self._input_nodes:
            old.users.pop(self, None)
        self._input_nodes = {}
        self._args = map_aggregate(new_args, self._record_input)
        self._kwargs = map_aggregate(new_kwargs, self._record_input)
        for node in self._input_nodes:
            node.users.setdefault(self)

    def _record_input(self, arg):
        if isinstance(arg, Node):
            self._input_nodes.setdefault(arg)
        return arg

    def prepend(self, x):
        """Insert `x` just before this node."""
        if x is self:
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x):
        """Insert `x` just after this node."""
        self._next.prepend(x)

    def _remove_from_list(self):
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    def replace_all_uses_with(self, replace_with, delete_user_cb=lambda user: True, *, propagate_meta=False):
        """Make every user of this node use `replace_with` instead; returns those users."""
        to_process = list(self.users)
        replaced = []
        for user in to_process:
            if not delete_user_cb(user):
                continue
            replaced.append(user)
            user.replace_input_with(self, replace_with)
        return replaced

    def replace_input_with(self, old_input, new_input):
        """Replace `old_input` by `new_input` wherever this node's arguments hold it."""

        def swap(n):
            return new_input if n is old_input else n

        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def _pretty_print_target(self, target):
        if isinstance(target, str):
            return target
        name = _get_qualified_name(target)
        if "." not in name:
            return f"builtins.{name}"
        return name

    def format_node(self, placeholder_names=None, maybe_return_typename=None):
        """The node as `print(graph)` shows it."""
        if self.op == "placeholder":
            default_val = "(default=" + str(self.args[0]) + ")" if self.args else ""
            return f"%{self.name} : [num_users={len(self.users)}] = {self.op}[target={self.target}]{default_val}"
        if self.op == "get_attr":
            return (f"%{self.name} : [num_users={len(self.users)}] = "
                    f"{self.op}[target={self._pretty_print_target(self.target)}]")
        if self.op == "output":
            return f"return {self.args[0]}"
        return (f"%{self.name} : [num_users={len(self.users)}] = "
                f"{self.op}[target={self._pretty_print_target(self.target)}]("
                f"args = {_format_arg(self.args)}, kwargs = {_format_arg(self.kwargs)})")

    def __repr__(self):
        return self.name

    def __str__(self):
        return self.name


def map_aggregate(a, fn):
    """Apply `fn` to each leaf of `a` (tuples, lists, dicts and slices looked into)."""
    if isinstance(a, tuple):
        t = tuple(map_aggregate(elem, fn) for elem in a)
        return t if not hasattr(a, "_fields") else type(a)(*t)
    if isinstance(a, list):
        return [map_aggregate(elem, fn) for elem in a]
    if isinstance(a, dict):
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a, fn):
    """Apply `fn` to each `Node` in `a`, keeping everything else."""
    if not callable(fn):
        raise AssertionError("torch.fx.map_arg(a, fn): fn must be a callable")
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)
