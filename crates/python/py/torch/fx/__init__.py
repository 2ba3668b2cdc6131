"""`torch.fx`: capture a program as a graph of operations, edit it, and run it again as Python.

`symbolic_trace` records a module or function as a `Graph` of `Node`s by
running it on `Proxy` values; a `GraphModule` runs the code generated from a
graph (its `code`), and `recompile` regenerates that code after the graph
was edited (`inserting_after`, `call_function`, `replace_all_uses_with`,
`erase_node`), and `replace_pattern` swaps every occurrence of a pattern
for a replacement. Printed graphs and generated code read as PyTorch's.
"""

from . import node, proxy
from ._symbolic_trace import Tracer, symbolic_trace, wrap
from .graph import Graph
from .graph_module import GraphModule
from .node import Node, map_arg
from .proxy import Proxy
from .subgraph_rewriter import replace_pattern

__all__ = ["Graph", "GraphModule", "Node", "Proxy", "Tracer", "map_arg", "replace_pattern", "symbolic_trace", "wrap"]
