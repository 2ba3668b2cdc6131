"""`torch.func`: function transforms (`grad`, `vjp`, `jvp`, `jacrev`,
`jacfwd`, `hessian`, `vmap`) and `functional_call`, as PyTorch's
functorch gives them.

gradscope has no batching rules or per-op forward derivatives: `vmap`
runs the function once per batch entry and stacks the results, `jvp` and
`jacfwd` are reverse mode twice (the gradient of a vector-Jacobian product
with respect to its cotangent, the identity `torch.autograd.forward_ad`
also computes its tangents by), and `jacrev` is one backward per output
element. The values are PyTorch's up to float rounding; the work, and so
the time, is not.
"""

import torch

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "stack_module_state",
           "vjp", "vmap"]


# Pytrees: tensors inside tuples, lists and dicts -------------------------


def _flatten(tree):
    """(leaves, rebuild): the tree's leaves in order, and a function that
    builds the same shape of tree from new leaves."""
    if isinstance(tree, (tuple, list)):
        parts = [_flatten(t) for t in tree]
        leaves = [leaf for p in parts for leaf in p[0]]
        kind = type(tree)

        def rebuild(new):
            out, at = [], 0
            for p in parts:
                out.append(p[1](new[at:at + len(p[0])]))
                at += len(p[0])
            return kind(out) if kind in (tuple, list) else kind(*out)

        return leaves, rebuild
    if isinstance(tree, dict):
        keys = list(tree)
        parts = [_flatten(tree[k]) for k in keys]
        leaves = [leaf for p in parts for leaf in p[0]]

        def rebuild(new):
            out, at = {}, 0
            for k, p in zip(keys, parts):
                out[k] = p[1](new[at:at + len(p[0])])
                at += len(p[0])
            return out

        return leaves, rebuild
    return [tree], lambda new: new[0]


def _is_tensor(x):
    return isinstance(x, torch.Tensor)


# functional_call --------------------------------------------------------


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True,
                    strict=False):
    """Calls `module` with the named parameters and buffers replaced by the
    given tensors, then puts its own back."""
    if isinstance(parameter_and_buffer_dicts, dict):
        replacements = dict(parameter_and_buffer_dicts)
    else:
        replacements = {}
        for d in parameter_and_buffer_dicts:
            replacements.update(d)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    kwargs = kwargs or {}
    saved = []
    try:
        for name, value in replacements.items():
            owner = module
            *path, leaf = name.split(".")
            for part in path:
                owner = getattr(owner, part)
            table = owner._parameters if leaf in owner._parameters else owner._buffers
            saved.append((table, leaf, table.get(leaf)))
            table[leaf] = value
        return module(*args, **kwargs)
    finally:
        for table, leaf, old in reversed(saved):
            table[leaf] = old


def stack_module_state(models):
    """The models' parameters and buffers stacked along a new first
    dimension, by name: `(params, buffers)`."""
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    params = {}
    for name, _ in models[0].named_parameters():
        tensors = [dict(m.named_parameters())[name] for m in models]
        stacked = torch.stack([t.detach() for t in tensors])
        params[name] = stacked.requires_grad_() if all(t.requires_grad for t in tensors) else stacked
    buffers = {}
    for name, _ in models[0].named_buffers():
        buffers[name] = torch.stack([dict(m.named_buffers())[name] for m in models])
    return params, buffers


# vmap -------------------------------------------------------------------


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """`func` over a batch dimension of its inputs (`in_dims`, per argument
    or for all), its outputs stacked along `out_dims`."""

    def wrapped(*args, **kwargs):
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(
                f"vmap(...)(<inputs>): in_dims is not compatible with the structure of `inputs`. in_dims has "
                f"structure {len(dims)} but inputs has structure {len(args)}."
            )
        size = None
        for arg, dim in zip(args, dims):
            if dim is None:
                continue
            for leaf in _flatten(arg)[0]:
                if _is_tensor(leaf):
                    n = leaf.shape[dim]
                    if size is not None and n != size:
                        raise ValueError(
                            "vmap: Expected all tensors to have the same size in the mapped dimension, got "
                            f"sizes {size} and {n} for the mapped dimension"
                        )
                    size = n
        if size is None:
            raise ValueError("vmap(f)(*inputs): at least one input must be a Tensor mapped over a dimension")
        results = []
        for i in range(size):
            sliced = []
            for arg, dim in zip(args, dims):
                if dim is None:
                    sliced.append(arg)
                    continue
                leaves, rebuild = _flatten(arg)
                sliced.append(rebuild([leaf.select(dim, i) if _is_tensor(leaf) else leaf for leaf in leaves]))
            results.append(func(*sliced, **kwargs))
        leaves0, rebuild = _flatten(results[0])
        columns = [_flatten(r)[0] for r in results]
        outs = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(leaves0)
        stacked = []
        for j, leaf in enumerate(leaves0):
            items = [c[j] if _is_tensor(c[j]) else torch.tensor(c[j]) for c in columns]
            stacked.append(torch.stack(items, dim=outs[j] if j < len(outs) else 0))
        return rebuild(stacked)

    return wrapped


# Reverse mode -----------------------------------------------------------


def _inputs_of(values, nested):
    """Each tensor made an input to differentiate with respect to: a leaf
    that requires grad, or (inside another transform, which differentiates
    through this one) a view of the tensor, kept in its graph."""
    out = []
    for v in values:
        if not _is_tensor(v):
            out.append(v)
        elif v.requires_grad:
            out.append(v.view_as(v))
        else:
            out.append(v.detach().requires_grad_())
    return out


def _nested(values):
    return torch.is_grad_enabled() and any(_is_tensor(v) and v.requires_grad for v in values)


def _plain(tree, nested):
    if nested:
        return tree
    leaves, rebuild = _flatten(tree)
    return rebuild([leaf.detach() if _is_tensor(leaf) else leaf for leaf in leaves])


def _grads(outputs, inputs, cotangents, nested):
    grads = torch.autograd.grad(outputs, inputs, cotangents, retain_graph=True, create_graph=nested,
                                allow_unused=True)
    return [torch.zeros_like(i) if g is None else g for i, g in zip(inputs, grads)]


def vjp(func, *primals, has_aux=False):
    """`(func(*primals), vjp_fn)`; `vjp_fn(cotangents)` gives the
    cotangents' products with the Jacobian, one per primal."""
    trees = [_flatten(p) for p in primals]
    flat = [leaf for t in trees for leaf in t[0]]
    nested = _nested(flat)
    inputs = _inputs_of(flat, nested)
    args, at = [], 0
    for leaves, rebuild in trees:
        args.append(rebuild(inputs[at:at + len(leaves)]))
        at += len(leaves)
    with torch.enable_grad():
        output = func(*args)
    aux = None
    if has_aux:
        output, aux = output
    out_leaves, _ = _flatten(output)

    def vjp_fn(cotangents):
        ct_leaves, _ = _flatten(cotangents)
        differentiable = [(o, c) for o, c in zip(out_leaves, ct_leaves) if o.requires_grad]
        grads = _grads([o for o, _ in differentiable], [i for i in inputs if _is_tensor(i)],
                       [c for _, c in differentiable], nested or _nested(ct_leaves))
        result, at = [], 0
        for leaves, rebuild in trees:
            result.append(rebuild(grads[at:at + len(leaves)]))
            at += len(leaves)
        return tuple(result)

    output = _plain(output, nested)
    return (output, vjp_fn, aux) if has_aux else (output, vjp_fn)


def grad_and_value(func, argnums=0, has_aux=False):
    """`(gradient with respect to args[argnums], value)` of a function with
    one scalar output."""

    def wrapped(*args, **kwargs):
        nums = argnums if isinstance(argnums, tuple) else (argnums,)
        selected = [args[n] for n in nums]

        def partial(*chosen):
            full = list(args)
            for n, c in zip(nums, chosen):
                full[n] = c
            return func(*full, **kwargs)

        out = vjp(partial, *selected, has_aux=has_aux)
        value, vjp_fn = out[0], out[1]
        if not _is_tensor(value) or value.numel() != 1:
            raise RuntimeError(
                "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                f"{value.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
            )
        grads = vjp_fn(torch.ones_like(value))
        grads = grads if isinstance(argnums, tuple) else grads[0]
        if has_aux:
            return grads, (value, out[2])
        return grads, value

    return wrapped


def grad(func, argnums=0, has_aux=False):
    """The gradient of a function with one scalar output with respect to
    `args[argnums]`."""
    inner = grad_and_value(func, argnums, has_aux)

    def wrapped(*args, **kwargs):
        grads, value = inner(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return wrapped


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """The Jacobian of `func` with respect to `args[argnums]`: output shape
    then input shape, one backward per output element."""

    def wrapped(*args):
        nums = argnums if isinstance(argnums, tuple) else (argnums,)

        def partial(*chosen):
            full = list(args)
            for n, c in zip(nums, chosen):
                full[n] = c
            return func(*full)

        result = vjp(partial, *[args[n] for n in nums], has_aux=has_aux)
        output, vjp_fn = result[0], result[1]
        out_leaves, rebuild_out = _flatten(output)
        jacobians = []
        for o in out_leaves:
            rows = []
            for k in range(o.numel()):
                unit = _unit(o.numel(), k, o.dtype)
                cotangents = rebuild_out([unit.reshape(o.shape) if x is o else torch.zeros_like(x)
                                          for x in out_leaves])
                rows.append(vjp_fn(cotangents))
            per_arg = []
            for j, n in enumerate(nums):
                leaves, rebuild = _flatten(args[n])
                stacked = [torch.stack([_flatten(r[j])[0][m] for r in rows]).reshape(
                    tuple(o.shape) + tuple(leaf.shape)) for m, leaf in enumerate(leaves)]
                per_arg.append(rebuild(stacked))
            jacobians.append(tuple(per_arg) if isinstance(argnums, tuple) else per_arg[0])
        jac = rebuild_out(jacobians)
        return (jac, result[2]) if has_aux else jac

    return wrapped


def _unit(n, k, dtype):
    values = [0.0] * n
    values[k] = 1.0
    return torch.tensor(values, dtype=dtype)


_warned_forward = [False]


def _forward_mode_used():
    # PyTorch's forward-mode transforms script a helper on first use, and
    # print torch.jit.script's deprecation then.
    if not _warned_forward[0]:
        _warned_forward[0] = True
        import warnings

        warnings.warn("`torch.jit.script` is deprecated. Please switch to `torch.compile` or `torch.export`.",
                      FutureWarning, stacklevel=2)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """`(func(*primals), J @ tangents)`: the Jacobian-vector product, here
    as the gradient of a vector-Jacobian product with respect to its
    (zero) cotangent."""
    _forward_mode_used()
    primals, tangents = tuple(primals), tuple(tangents)
    result = vjp(func, *primals, has_aux=has_aux)
    output, vjp_fn = result[0], result[1]
    # Differentiating vjp_fn needs the graph even where the caller has none.
    with torch.enable_grad():
        p_leaves = [leaf for p in primals for leaf in _flatten(p)[0]]
        inputs = _inputs_of(p_leaves, True)
        args, at = [], 0
        for p in primals:
            leaves, rebuild = _flatten(p)
            args.append(rebuild(inputs[at:at + len(leaves)]))
            at += len(leaves)
        out = func(*args)
        if has_aux:
            out = out[0]
        out_leaves, rebuild_out = _flatten(out)
        dummies = [torch.zeros_like(o).requires_grad_() for o in out_leaves]
        grads = torch.autograd.grad(out_leaves, inputs, dummies, create_graph=True, allow_unused=True)
        t_leaves = [leaf for t in tangents for leaf in _flatten(t)[0]]
        pairs = [(g, t) for g, t in zip(grads, t_leaves) if g is not None and g.requires_grad]
        nested = _nested(p_leaves) or _nested(t_leaves)
        products = torch.autograd.grad([g for g, _ in pairs], dummies, [t for _, t in pairs],
                                       create_graph=nested, allow_unused=True)
    products = [torch.zeros_like(o) if p is None else p for o, p in zip(out_leaves, products)]
    tangent_out = _plain(rebuild_out(products), nested)
    return (output, tangent_out, result[2]) if has_aux else (output, tangent_out)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of `func` with respect to `args[argnums]`, a column per
    input element as forward mode builds it (each column one `jvp`)."""

    def wrapped(*args):
        _forward_mode_used()
        nums = argnums if isinstance(argnums, tuple) else (argnums,)
        primals = [args[n] for n in nums]

        def partial(*chosen):
            full = list(args)
            for n, c in zip(nums, chosen):
                full[n] = c
            out = func(*full)
            return out[0] if has_aux else out

        per_arg = []
        output = None
        for j, p in enumerate(primals):
            columns = []
            for k in range(p.numel()):
                tangents = [torch.zeros_like(q) for q in primals]
                tangents[j] = _unit(p.numel(), k, p.dtype).reshape(p.shape)
                output, column = jvp(partial, tuple(primals), tuple(tangents))
                columns.append(column)
            out_leaves, rebuild_out = _flatten(output)
            col_leaves = [_flatten(c)[0] for c in columns]
            jac = [torch.stack([c[m] for c in col_leaves], dim=-1).reshape(tuple(o.shape) + tuple(p.shape))
                   for m, o in enumerate(out_leaves)]
            per_arg.append(rebuild_out(jac))
        if isinstance(argnums, tuple):
            leaves0, rebuild = _flatten(output)
            if len(leaves0) == 1:
                return tuple(per_arg)
            return rebuild([tuple(_flatten(a)[0][m] for a in per_arg) for m in range(len(leaves0))])
        result = per_arg[0]
        if has_aux:
            return result, func(*args)[1]
        return result

    return wrapped


def hessian(func, argnums=0):
    """The Hessian of a scalar function with respect to `args[argnums]`."""
    return jacfwd(jacrev(func, argnums), argnums)
