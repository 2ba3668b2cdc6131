# torch.fx: tracing modules with submodules and parameters, printed graphs,
# generated code, graph edits and their errors.
import operator

import torch
import torch.fx as fx
import torch.nn.functional as F


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)
        self.scale = torch.nn.Parameter(torch.full((3,), 2.0))

    def forward(self, x, y):
        h = F.relu(self.lin(x))
        h = h * self.scale + 1
        z = 2 - h
        s = torch.sum(z, dim=1, keepdim=True)
        return z[:, 0] / s.squeeze(1), y.float().neg()


torch.manual_seed(0)
m = Block()
gm = fx.symbolic_trace(m)
print(gm.graph)
print(gm.code)
print(type(gm).__name__, isinstance(gm, fx.GraphModule), isinstance(gm, torch.nn.Module))
x = torch.randn(5, 4)
y = torch.arange(3)
a, b = gm(x, y)
ea, eb = m(x, y)
print(torch.equal(a, ea), torch.equal(b, eb))
print([n.name for n in gm.graph.nodes])
print([(n.op, str(n.target) if isinstance(n.target, str) else n.target.__name__) for n in gm.graph.nodes])
for n in gm.graph.nodes:
    print(n.name, n.users, n.all_input_nodes, n.kwargs)
print(len(gm.graph.nodes))
print(sorted(k for k, _ in gm.named_parameters()))


# Rewrite every multiplication as an addition, and add a node after relu.
for n in gm.graph.nodes:
    if n.op == "call_function" and n.target == operator.mul:
        with gm.graph.inserting_after(n):
            new = gm.graph.call_function(operator.add, n.args)
        n.replace_all_uses_with(new)
        gm.graph.erase_node(n)
    elif n.op == "call_function" and n.target is F.relu:
        with gm.graph.inserting_after(n):
            sig = gm.graph.call_function(torch.sigmoid, (n,))
        for user in list(n.users):
            if user is not sig:
                user.replace_input_with(n, sig)
gm.graph.lint()
gm.recompile()
print(gm.code)
a2, _ = gm(x, y)
h = torch.sigmoid(F.relu(m.lin(x))) + m.scale + 1
z = 2 - h
print(torch.allclose(a2, z[:, 0] / z.sum(1)))

# Errors
relu = [n for n in gm.graph.nodes if n.op == "call_function" and n.target is F.relu][0]
try:
    gm.graph.erase_node(relu)
except RuntimeError as e:
    print("RuntimeError:", e)


def control(x):
    if x.sum() > 0:
        return x
    return -x


try:
    fx.symbolic_trace(control)
except fx.proxy.TraceError as e:
    print(type(e).__name__, e)


# A graph built by hand, run through a GraphModule on a dict root.
g = fx.Graph()
inp = g.placeholder("inp")
w = g.get_attr("w")
mm = g.call_function(torch.matmul, (inp, w))
t = g.call_method("tanh", (mm,))
out = g.call_function(operator.getitem, (t, 0))
g.output((out, t))
print(g)
hand = fx.GraphModule({"w": torch.eye(2) * 3}, g, "Hand")
print(hand.code)
print(type(hand).__name__)
print(hand(torch.ones(2, 2)))


# Wrapped functions stay calls in the graph.
def clamp_twice(v):
    return v.clamp(0, 1) * 2


fx.wrap("clamp_twice")


def uses(v):
    return clamp_twice(v) + torch.exp(v)


wrapped = fx.symbolic_trace(uses)
print(wrapped.code)
print(wrapped(torch.tensor([-1.0, 0.5, 3.0])))
