"""How much of PyTorch's public API the programs of the public corpus use,
and how much of it gradscope's runtime has.

Run from the repository root, with real PyTorch installed (pip):

    python tests/api/coverage.py [--corpus ../shared/public] [--gradscope target/debug/gradscope]

1. With real PyTorch, lists the public names (no leading underscore) of
   `torch`, `torch.Tensor`, `torch.nn`, `torch.nn.functional`,
   `torch.optim`, `torch.autograd` and `torch.utils.data`.
2. Counts how often each is used in the corpus's programs, statically (ast):
   attribute chains on those modules under whatever alias a program gave
   them (`nn.Linear`, `F.relu`, `torch.optim.SGD`), names imported from them
   (`from torch.utils.data import DataLoader`), and for `torch.Tensor` any
   attribute access `x.name` whose name is a Tensor method or attribute and
   not a name of the other modules (static analysis cannot know `x` is a
   tensor, so common names such as `to` count whatever they were called on).
3. Runs a snippet with `gradscope run` that says which of the names the
   runtime has (`hasattr` on the same objects).
4. Prints the coverage of the 300 most used names and of all names, and the
   most used names that are missing.
"""

import argparse
import ast
import json
import pathlib
import subprocess
import sys
import tempfile

MODULES = (
    "torch",
    "torch.Tensor",
    "torch.nn",
    "torch.nn.functional",
    "torch.optim",
    "torch.autograd",
    "torch.utils.data",
)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def public_names():
    """Each module's public names in real PyTorch."""
    import importlib

    import torch

    names = {}
    for module in MODULES:
        obj = torch.Tensor if module == "torch.Tensor" else importlib.import_module(module)
        names[module] = sorted(n for n in dir(obj) if not n.startswith("_"))
    return names, torch.__version__


def dotted(node):
    """`a.b.c` as ["a", "b", "c"], or None for anything but names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


# Values of these kinds are Python's own lists, strings, dicts, sets and
# tuples: `names.index(x)` on one is list.index, not Tensor.index.
CONTAINER_NODES = (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp, ast.Tuple, ast.JoinedStr)
CONTAINER_CALLS = {"list", "dict", "set", "tuple", "str", "sorted", "frozenset"}


def is_container(value):
    if isinstance(value, CONTAINER_NODES):
        return True
    if isinstance(value, ast.Constant) and isinstance(value.value, (str, bytes)):
        return True
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in CONTAINER_CALLS
    )


def builtin_containers(tree):
    """Names every assignment of which, in the whole program, binds a list,
    string, dict, set or tuple: their methods are not Tensor methods."""
    kinds = {}  # name -> True while every binding seen is a container
    for node in ast.walk(tree):
        targets, value = (), None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            # Loop variables, `as` names and parameters: of unknown kind.
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                bound = [node.target]
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                bound = [item.optional_vars for item in node.items if item.optional_vars]
            elif isinstance(node, ast.arg):
                kinds[node.arg] = False
                continue
            else:
                continue
            for target in bound:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        kinds[name.id] = False
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                kinds[target.id] = kinds.get(target.id, True) and is_container(value)
    return {name for name, container in kinds.items() if container}


def count_uses(programs, names):
    """(module, name) -> number of uses over the programs."""
    modules = sorted(MODULES, key=len, reverse=True)
    known = {m: set(ns) for m, ns in names.items()}
    tensor_names = known["torch.Tensor"]
    counts = {}

    def add(module, name):
        if name in known[module]:
            counts[(module, name)] = counts.get((module, name), 0) + 1

    def resolve(path):
        """A fully qualified dotted path: the module it names a member of."""
        full = ".".join(path)
        for module in modules:
            if full.startswith(module + ".") and len(full) > len(module) + 1:
                add(module, full[len(module) + 1:].split(".")[0])
                return True
        return False

    for program in programs:
        try:
            tree = ast.parse(program.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        aliases = {}  # local name -> dotted path it stands for
        others = set()  # names bound to other modules (`np`, `math`)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if not (a.name == "torch" or a.name.startswith("torch.")):
                        others.add(a.asname or a.name.split(".")[0])
                    else:
                        if a.asname:
                            aliases[a.asname] = a.name
                        else:
                            aliases["torch"] = "torch"
            elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module == "torch" or node.module.startswith("torch.")
            ):
                for a in node.names:
                    target = f"{node.module}.{a.name}"
                    aliases[a.asname or a.name] = target
                    resolve(target.split("."))
        containers = builtin_containers(tree)
        attribute_values = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                attribute_values.add(id(node.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and id(node) not in attribute_values:
                # The outermost attribute of a chain: resolve the chain once.
                path = dotted(node)
                if path and path[0] in aliases:
                    full = aliases[path[0]].split(".") + path[1:]
                    if resolve(full):
                        continue
                # Not a module's member: a method or attribute of some object.
                chain = node
                while isinstance(chain, ast.Attribute):
                    on_container = isinstance(chain.value, ast.Name) and chain.value.id in containers
                    if (
                        chain.attr in tensor_names
                        and not on_container
                        and (path is None or path[0] not in others)
                    ):
                        add("torch.Tensor", chain.attr)
                    chain = chain.value
            elif isinstance(node, ast.Name) and node.id in aliases and isinstance(node.ctx, ast.Load):
                # A name imported from a module, used bare (`DataLoader(...)`).
                target = aliases[node.id].split(".")
                module, name = ".".join(target[:-1]), target[-1]
                if module in known and name in known[module]:
                    add(module, name)
    return counts


SNIPPET = r"""
import json
import importlib
import torch
names = json.loads({names!r})
have = {{}}
for module, ns in names.items():
    try:
        obj = torch.Tensor if module == "torch.Tensor" else importlib.import_module(module)
    except Exception as e:
        have[module] = []
        continue
    found = []
    for n in ns:
        try:
            if hasattr(obj, n):
                found.append(n)
        except Exception:
            pass
    have[module] = found
print("HAVE" + json.dumps(have))
"""


def gradscope_has(binary, names):
    with tempfile.TemporaryDirectory() as tmp:
        script = pathlib.Path(tmp) / "have.py"
        script.write_text(SNIPPET.format(names=json.dumps(names)))
        done = subprocess.run([str(binary), "run", str(script)], capture_output=True, text=True, timeout=600)
    for line in done.stdout.splitlines():
        if line.startswith("HAVE"):
            return {m: set(ns) for m, ns in json.loads(line[4:]).items()}
    raise SystemExit(f"gradscope did not list its names:\n{done.stdout}\n{done.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "public"))
    parser.add_argument("--gradscope", default=str(ROOT / "target" / "debug" / "gradscope"))
    parser.add_argument("--top", type=int, default=300)
    parser.add_argument("--missing", type=int, default=60, help="how many missing names to list")
    args = parser.parse_args()

    names, version = public_names()
    programs = sorted(pathlib.Path(args.corpus).rglob("*.py"))
    counts = count_uses(programs, names)
    have = gradscope_has(args.gradscope, names)

    everything = [(m, n) for m in MODULES for n in names[m]]
    ranked = sorted(everything, key=lambda k: (-counts.get(k, 0), k))
    used = [k for k in ranked if counts.get(k, 0) > 0]
    top = used[: args.top]

    def covered(keys):
        return sum(1 for m, n in keys if n in have.get(m, ()))

    print(f"PyTorch {version}: {len(everything)} public names; {len(programs)} programs use {len(used)} of them")
    print()
    print(f"{'module':<22}{'names':>7}{'have':>7}{'used':>7}{'used+have':>11}")
    for m in MODULES:
        keys = [(m, n) for n in names[m]]
        used_m = [k for k in keys if counts.get(k, 0) > 0]
        print(f"{m:<22}{len(keys):>7}{covered(keys):>7}{len(used_m):>7}{covered(used_m):>11}")
    print()
    print(f"top {len(top)} most used names: {covered(top)}/{len(top)} present ({100 * covered(top) / max(len(top), 1):.1f}%)")
    print(f"all used names:           {covered(used)}/{len(used)} present ({100 * covered(used) / max(len(used), 1):.1f}%)")
    print(f"all public names:         {covered(everything)}/{len(everything)} present "
          f"({100 * covered(everything) / len(everything):.1f}%)")
    missing = [k for k in used if k[1] not in have.get(k[0], ())]
    print()
    print(f"missing used names, most used first ({len(missing)}):")
    for m, n in missing[: args.missing]:
        print(f"  {counts[(m, n)]:>4}  {m}.{n}")


if __name__ == "__main__":
    sys.exit(main())
