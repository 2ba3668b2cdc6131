"""`torch.fx.Graph`: nodes in order, their names, and the Python code they make.

Names follow PyTorch's `_Namespace`: a node is named after what it calls in
snake case, with `_1`, `_2`, ... on a clash, and never shadows a builtin or a
keyword (`x.float()` makes `float_1`). `python_code` writes the `forward` that
`GraphModule` compiles, freeing each value after its last use as PyTorch's
code generator does (`;  x = None`).
"""

import builtins
import keyword
import re

from .node import Node, _get_qualified_name, _torch_names, map_arg

__all__ = ["Graph", "PythonCode"]

_illegal_names = {k: object() for k in keyword.kwlist}
_illegal_names.update(builtins.__dict__)
_illegal_char_regex = re.compile("[^0-9a-zA-Z_]+")
_name_regex = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")
_snake_case_regex = re.compile(r"(?<=[a-z])([A-Z])")

reflectable_magic_methods = {
    "add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}", "truediv": "{} / {}",
    "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}", "lshift": "{} << {}", "rshift": "{} >> {}",
    "and_": "{} & {}", "or_": "{} | {}", "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}",
}
magic_methods = dict({
    "eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}",
    "ge": "{} >= {}", "pos": "+{}", "neg": "-{}", "invert": "~{}",
}, **reflectable_magic_methods)


def _snake_case(s):
    return _snake_case_regex.sub(r"_\1", s).lower()


def _is_from_torch(obj):
    return _torch_names().get(id(obj)) is not None or (
        getattr(obj, "__module__", "") or "").split(".")[0] == "torch"


class _Namespace:
    """Unique names for objects: one name per object, no name twice, no builtin shadowed."""

    def __init__(self):
        self._obj_to_name = {}
        self._used_names = set()
        self._base_count = {}

    def create_name(self, candidate, obj):
        if obj is not None and id(obj) in self._obj_to_name:
            return self._obj_to_name[id(obj)]
        match = _name_regex.match(candidate)
        if match is None:
            candidate = _illegal_char_regex.sub("_", candidate)
            if not candidate:
                candidate = "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            match = _name_regex.match(candidate)
        base, num = match.group(1, 2)
        if num is None or candidate in self._used_names:
            num = self._base_count.get(base, 0)
            if _illegal_names.get(candidate, obj) is not obj:
                num += 1
                candidate = f"{base}_{num}"
        else:
            num = int(num)
        while candidate in self._used_names:
            num += 1
            candidate = f"{base}_{num}"
        self._used_names.add(candidate)
        self._base_count[base] = num
        if obj is not None:
            self._obj_to_name[id(obj)] = candidate
        return candidate

    def _rename_object(self, obj, name):
        self._obj_to_name[id(obj)] = name


class PythonCode:
    """The source of `forward` and the globals it refers to."""

    def __init__(self, src, globals_):
        self.src = src
        self.globals = globals_


class _NodeList:
    """The graph's nodes in order; iterating skips nodes erased meanwhile."""

    def __init__(self, graph, direction="_next"):
        self.graph = graph
        self.direction = direction

    def __len__(self):
        return self.graph._len

    def __iter__(self):
        root = self.graph._root
        cur = getattr(root, self.direction)
        while cur is not root:
            if not cur._erased:
                yield cur
            cur = getattr(cur, self.direction)

    def __reversed__(self):
        return _NodeList(self.graph, "_next" if self.direction == "_prev" else "_prev")


class _InsertPoint:
    def __init__(self, graph, new_insert):
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, new_insert

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        self.graph._insert = self.orig_insert


class Graph:
    """A list of nodes: placeholders, operations, and one output."""

    __module__ = "torch.fx.graph"

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None):
        self._root = Node(self, "", "root", "", (), {})
        self._used_names = {}
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = _Namespace()
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls

    @property
    def owning_module(self):
        return self._owning_module

    @owning_module.setter
    def owning_module(self, mod):
        self._owning_module = mod

    @property
    def nodes(self):
        return _NodeList(self)

    def _target_to_str(self, target):
        if callable(target):
            found = _torch_names().get(id(target))
            op = found[1] if found is not None else target.__name__
        else:
            op = target
            if op.startswith("__") and op.endswith("__"):
                op = op[2:-2]
        return _snake_case(op)

    def create_node(self, op, target=None, args=None, kwargs=None, name=None, type_expr=None):
        """Create a node and insert it at the current insert point."""
        args = () if args is None else args
        kwargs = {} if kwargs is None else kwargs
        if not isinstance(args, tuple):
            raise AssertionError("args must be a tuple")
        if not isinstance(kwargs, dict):
            raise AssertionError("kwargs must be a dict")
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        n = Node(self, name, op, target, args, kwargs, type_expr)
        self._graph_namespace._rename_object(n, name)
        self._insert(n)
        self._len += 1
        return n

    def placeholder(self, name, type_expr=None, default_value=None):
        args = () if default_value is None else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None, name=None):
        return self.create_node("call_function", the_function, args, kwargs, name=name, type_expr=type_expr)

    def output(self, result, type_expr=None):
        return self.create_node(op="output", target="output", args=(result,), type_expr=type_expr)

    def erase_node(self, to_erase):
        """Remove a node that nothing uses any more."""
        if len(to_erase.users) > 0:
            raise RuntimeError(
                f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                f"users in the graph: {to_erase.users}!")
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase._update_args_kwargs(map_arg(to_erase._args, lambda n: None),
                                     map_arg(to_erase._kwargs, lambda n: None))

    def inserting_before(self, n=None):
        """Context manager: new nodes go just before `n` (at the end when None)."""
        if n is None:
            return self.inserting_after(self._root)
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n=None):
        """Context manager: new nodes go just after `n` (at the start when None)."""
        if n is None:
            return self.inserting_before(self._root)
        return _InsertPoint(self, n.append)

    def node_copy(self, node, arg_transform=lambda x: x):
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result.meta = dict(node.meta)
        return result

    def graph_copy(self, g, val_map):
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                return map_arg(node.args[0], lambda n: val_map[n])
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def eliminate_dead_code(self):
        changed = False
        for node in reversed(self.nodes):
            if node.op not in ("placeholder", "output") and len(node.users) == 0 and node.op != "call_module":
                self.erase_node(node)
                changed = True
        return changed

    def lint(self):
        """Check the graph's invariants: names unique, arguments defined before use
        and in this graph, one output at the end."""
        seen_names = set()
        seen_values = set()
        for node in self.nodes:
            if node.op not in _LINT_OPS:
                raise RuntimeError(f"Node {node} had unknown opcode {node.op}!")
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            for arg in node._input_nodes:
                if arg.graph is not self:
                    raise RuntimeError(f"Argument '{arg}' of Node '{node}' does not belong to this Graph, "
                                       "but was used as an argument! If you are copying nodes from another "
                                       "graph, make sure to use ``arg_transform`` on node_copy() to remap "
                                       "values\n" + str(self))
                if arg not in seen_values:
                    raise RuntimeError(f"Argument '{arg}' of Node '{node}' was used before it has been "
                                       f"defined! Please check that Nodes in the graph are topologically "
                                       f"ordered\n{self}")
            seen_values.add(node)
            if node.name in seen_names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen_names.add(node.name)

    def print_tabular(self):
        rows = [[n.op, n.name, str(n.target), str(n.args), str(n.kwargs)] for n in self.nodes]
        headers = ["opcode", "name", "target", "args", "kwargs"]
        widths = [max(len(r[i]) for r in rows + [headers]) for i in range(5)]
        print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
        print("  ".join("-" * w for w in widths))
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())

    def __str__(self):
        s = "graph():"
        for node in self.nodes:
            node_str = node.format_node()
            if node_str:
                s += "\n    " + node_str
        return s

    def python_code(self, root_module="self"):
        return _gen_python_code(self, root_module)


_LINT_OPS = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output")


def _gen_python_code(graph, root_module):
    nodes = list(graph.nodes)
    namespace = _Namespace()
    for node in nodes:
        namespace.create_name(node.name, node)
    free_vars = []
    body = []
    globals_ = {}
    wrapped_fns = {}

    def add_global(name_hint, obj):
        if _is_from_torch(obj):
            import torch

            globals_["torch"] = torch
            return _get_qualified_name(obj)
        global_name = namespace.create_name(name_hint, obj)
        globals_[global_name] = obj
        return global_name

    def _get_repr(arg):
        if isinstance(arg, Node):
            return repr(arg)
        if isinstance(arg, tuple) and hasattr(arg, "_fields"):
            global_name = add_global(_get_qualified_name(type(arg)), type(arg))
            return f"{global_name}{repr(tuple(arg))}"
        if isinstance(arg, tuple):
            if len(arg) == 1:
                return f"({_get_repr(arg[0])},)"
            return "(" + ", ".join(_get_repr(a) for a in arg) + ")"
        if isinstance(arg, list):
            return "[" + ", ".join(_get_repr(a) for a in arg) + "]"
        if isinstance(arg, dict):
            return "{" + ", ".join(f"{_get_repr(k)}: {_get_repr(v)}" for k, v in arg.items()) + "}"
        if isinstance(arg, slice):
            return f"slice({_get_repr(arg.start)}, {_get_repr(arg.stop)}, {_get_repr(arg.step)})"
        if isinstance(arg, type) or callable(arg) and not hasattr(arg, "__self__"):
            return add_global(_get_qualified_name(arg), arg)
        return repr(arg)

    def _format_args(args, kwargs):
        res = [_get_repr(a) for a in args]
        res.extend(f"{k} = {_get_repr(v)}" for k, v in kwargs.items())
        return ", ".join(res)

    def _format_target(base, target):
        elems = target.split(".")
        r = base
        for e in elems:
            r = f"{r}.{e}" if e.isidentifier() else f'getattr({r}, "{e}")'
        return r

    node_to_last_use = {}
    user_to_last_uses = {}
    for node in reversed(nodes):
        for input_node in node._input_nodes:
            if input_node not in node_to_last_use:
                node_to_last_use[input_node] = node
                user_to_last_uses.setdefault(node, []).append(input_node)

    def delete_unused_values(user):
        if user.op == "placeholder":
            return
        if user.op == "output":
            body.append("\n")
            return
        nodes_to_delete = user_to_last_uses.get(user, [])
        if len(user.users) == 0:
            nodes_to_delete.append(user)
        if nodes_to_delete:
            body.append(";  " + " = ".join([repr(n) for n in nodes_to_delete] + ["None"]) + "\n")
        else:
            body.append("\n")

    def emit_node(node):
        if node.op == "placeholder":
            default = "" if not node.args else f" = {_get_repr(node.args[0])}"
            free_vars.append(f"{node.target}{default}")
            raw_name = node.target.replace("*", "")
            if raw_name != repr(node):
                body.append(f"{repr(node)} = {raw_name}\n")
        elif node.op == "call_method":
            body.append(f"{repr(node)} = {_format_target(_get_repr(node.args[0]), node.target)}"
                        f"({_format_args(node.args[1:], node.kwargs)})")
        elif node.op == "call_function":
            name = getattr(node.target, "__name__", "")
            if getattr(node.target, "__module__", "") == "_operator" and name in magic_methods:
                body.append(f"{repr(node)} = {magic_methods[name].format(*(_get_repr(a) for a in node.args))}")
                return
            global_name = add_global(_get_qualified_name(node.target), node.target)
            if (global_name == "getattr" and len(node.args) == 2 and isinstance(node.args[1], str)
                    and node.args[1].isidentifier()):
                body.append(f"{repr(node)} = {_format_target(_get_repr(node.args[0]), node.args[1])}")
                return
            body.append(f"{repr(node)} = {global_name}({_format_args(node.args, node.kwargs)})")
            if node.meta.get("is_wrapped", False):
                wrapped_fns.setdefault(global_name)
        elif node.op == "call_module":
            body.append(f"{repr(node)} = {_format_target(root_module, node.target)}"
                        f"({_format_args(node.args, node.kwargs)})")
        elif node.op == "get_attr":
            body.append(f"{repr(node)} = {_format_target(root_module, node.target)}")
        elif node.op == "output":
            body.append(f"return {_get_repr(node.args[0])}")
        else:
            raise NotImplementedError(f"node: {node.op} {node.target}")

    for node in nodes:
        emit_node(node)
        delete_unused_values(node)

    if not body:
        body.append("pass\n")
    if wrapped_fns:
        from . import _symbolic_trace

        wrap_name = add_global("wrap", _symbolic_trace.wrap)
        wrap_stmts = "\n".join(f'{wrap_name}("{name}")' for name in wrapped_fns)
    else:
        wrap_stmts = ""
    if not free_vars or free_vars[0] != "self":
        free_vars.insert(0, "self")
    prologue = f"def forward({', '.join(free_vars)}):"
    code = "".join(body).lstrip("\n")
    code = "\n".join("    " + line for line in code.split("\n"))
    fn_code = f"\n{wrap_stmts}\n\n{prologue}\n{code}"
    return PythonCode(fn_code, globals_)

