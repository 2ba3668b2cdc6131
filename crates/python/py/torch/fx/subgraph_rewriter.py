"""`torch.fx.subgraph_rewriter`: `replace_pattern`, which finds every
non-overlapping occurrence of a pattern's operations (matched by their
data dependencies, not their names) in a `GraphModule`'s graph and puts a
replacement's operations in its place.

As PyTorch's `SubgraphMatcher` with its defaults for `replace_pattern`: a
pattern node matches a graph node of the same op and target whose
arguments match in turn (nodes recursively, lists item by item, other
values by `==`); a pattern placeholder matches any value, the same one
wherever it is used; a match whose inner nodes are used outside it is
dropped, and matches are taken first to last in graph order, skipping any
that overlaps one already taken. Pattern nodes are not compared by their
literal-free form (`ignore_literals`) and `match_filters` are applied as
given.
"""

from typing import NamedTuple

from .graph import Graph
from .graph_module import GraphModule
from .node import Node

__all__ = ["Match", "ReplacedPatterns", "replace_pattern", "replace_pattern_with_filters"]


class Match(NamedTuple):
    """One replaced occurrence: the graph node the pattern's output matched,
    and each pattern node's graph node."""

    anchor: Node
    nodes_map: dict


class ReplacedPatterns(NamedTuple):
    anchor: Node
    nodes_map: dict
    replacements: list


class _InternalMatch:
    def __init__(self, anchors):
        self.anchors = anchors
        self.nodes_map = {}
        self.placeholder_nodes = []
        self.returning_nodes = []


def _graph_of(fn):
    if isinstance(fn, GraphModule):
        return fn.graph
    if isinstance(fn, Graph):
        return fn
    from ._symbolic_trace import symbolic_trace

    return symbolic_trace(fn).graph


class _Matcher:
    def __init__(self, pattern):
        self.pattern = pattern
        nodes = list(pattern.nodes)
        outputs = [n for n in nodes if n.op == "output"]
        if len(outputs) != 1:
            raise AssertionError("SubgraphMatcher cannot be initialized with an pattern with dead code")
        self.placeholders = [n for n in nodes if n.op == "placeholder"]
        self.returning = list(outputs[0].all_input_nodes)
        self.anchors = self.returning

    @staticmethod
    def _nodes_are_equal(pn, gn):
        if pn.op == "placeholder":
            return True
        if pn.op != gn.op:
            return False
        if pn.op == "output":
            return True
        return pn.target == gn.target

    def _match_nodes(self, pn, gn, match):
        if pn in match.nodes_map:
            return match.nodes_map[pn] is gn
        if any(g is gn for g in match.nodes_map.values()):
            return False
        if not self._nodes_are_equal(pn, gn):
            return False
        saved = dict(match.nodes_map)
        match.nodes_map[pn] = gn
        if pn.op == "placeholder":
            return True
        matched = (self._match_args(pn.args, gn.args, match)
                   and list(pn.kwargs.keys()) == list(gn.kwargs.keys())
                   and self._match_args(list(pn.kwargs.values()), list(gn.kwargs.values()), match))
        if not matched:
            match.nodes_map = saved
        return matched

    def _match_args(self, pattern_args, graph_args, match):
        if len(pattern_args) != len(graph_args):
            return False
        for a, b in zip(pattern_args, graph_args):
            if isinstance(a, Node) and isinstance(b, Node):
                ok = self._match_nodes(a, b, match)
            elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
                ok = self._match_args(a, b, match)
            elif isinstance(a, Node) and a.op == "placeholder":
                # A pattern input may stand for a literal of the graph.
                ok = self._match_literal(a, b, match)
            else:
                ok = not isinstance(a, Node) and not isinstance(b, Node) and type(a) is type(b) and a == b
            if not ok:
                return False
        return True

    @staticmethod
    def _match_literal(pn, value, match):
        if pn in match.nodes_map:
            return match.nodes_map[pn] == value
        match.nodes_map[pn] = value
        return True

    def _is_contained(self, nodes_map):
        lookup = {gn: pn for pn, gn in nodes_map.items() if pn.op != "placeholder" and isinstance(gn, Node)}
        for gn, pn in lookup.items():
            if pn in self.returning:
                continue
            for user in gn.users:
                if user not in lookup:
                    return False
        return True

    def match(self, graph):
        if len(self.anchors) != 1:
            raise NotImplementedError("gradscope's replace_pattern matches patterns with one output")
        anchor = self.anchors[0]
        matches = []
        for node in graph.nodes:
            if not self._nodes_are_equal(anchor, node):
                continue
            match = _InternalMatch([anchor])
            if self._match_nodes(anchor, node, match) and self._is_contained(match.nodes_map):
                match.placeholder_nodes = [match.nodes_map[pn] for pn in self.placeholders]
                match.returning_nodes = [match.nodes_map[pn] for pn in self.returning]
                matches.append(match)
        taken, kept = set(), []
        for match in matches:
            inner = [gn for pn, gn in match.nodes_map.items() if pn.op not in ("placeholder", "output")]
            if any(gn in taken for gn in inner):
                continue
            kept.append(match)
            taken.update(inner)
        return kept


def _replace_pattern(gm, pattern, replacement, match_filters=None):
    original = gm.graph
    pattern_graph = _graph_of(pattern)
    matches = _Matcher(pattern_graph).match(original)
    matches = [m for m in matches
               if all(f(m, original, pattern_graph) for f in (match_filters or ()))]
    replacement_graph = _graph_of(replacement)
    replacement_placeholders = [n for n in replacement_graph.nodes if n.op == "placeholder"]
    changed = {}
    replaced = []
    for match in matches:
        if len(match.placeholder_nodes) != len(replacement_placeholders):
            raise AssertionError("the pattern and the replacement take different numbers of inputs")
        val_map = {}
        for rn, gn in zip(replacement_placeholders, match.placeholder_nodes):
            val_map[rn] = changed.get(gn, gn) if isinstance(gn, Node) else gn
        users = set()
        for n in match.returning_nodes:
            users.update(n.users)
        first_user = next((n for n in original.nodes if n in users), None)
        with original.inserting_before(first_user):
            copied = original.graph_copy(replacement_graph, val_map)
        if isinstance(copied, Node):
            copied = (copied,)
        for gn, new in zip(match.returning_nodes, copied):
            gn.replace_all_uses_with(new)
            changed[gn] = new
        for pn in reversed(list(pattern_graph.nodes)):
            if pn.op not in ("placeholder", "output"):
                original.erase_node(match.nodes_map[pn])
        replaced.append(ReplacedPatterns(match.anchors[0], match.nodes_map,
                                         [v for k, v in val_map.items() if k.op != "placeholder"]))
    gm.recompile()
    return replaced


def replace_pattern(gm, pattern, replacement):
    """Replace every non-overlapping match of `pattern` in `gm`'s graph by
    `replacement` (functions, or `GraphModule`s, taking the same inputs)
    and recompile `gm`; returns a `Match` for each replacement."""
    return [Match(anchor=m.anchor, nodes_map=m.nodes_map) for m in _replace_pattern(gm, pattern, replacement)]


def replace_pattern_with_filters(gm, pattern, replacement, match_filters=None, ignore_literals=False,
                                 replacement_callback=None, node_name_match=""):
    """`replace_pattern`, keeping only the matches every `match_filters`
    function accepts (`f(match, original_graph, pattern_graph)`)."""
    if ignore_literals or replacement_callback is not None or node_name_match:
        raise NotImplementedError("gradscope's replace_pattern_with_filters takes match_filters only")
    return _replace_pattern(gm, pattern, replacement, match_filters)
