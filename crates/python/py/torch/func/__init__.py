"""`torch.func`: function transforms (`grad`, `vjp`, `jvp`, `jacrev`,
`jacfwd`, `hessian`, `vmap`) and `functional_call`, as PyTorch's
functorch gives them.

gradscope has no batching rules or per-op forward derivatives: `vmap`
runs the function once per batch entry and stacks the results, `jvp` and
`jacfwd` are reverse mode twice (the gradient of a vector-Jacobian product
with respect to its cotangent, the identity `torch.autograd.forward_ad`
also computes its tangents by), and `jacrev` is one backward per output
element, or per input element (as `jacfwd`) where the output is the larger.
The values are PyTorch's up to float rounding; the work, and so the time,
is not.
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


def _traced(func, primals, has_aux):
    """`func` run on the primals made inputs to differentiate: the primals'
    trees, those inputs, whether an outer transform differentiates through
    this one, the output (with its graph) and the auxiliary value."""
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
    return trees, inputs, nested, output, aux


def vjp(func, *primals, has_aux=False):
    """`(func(*primals), vjp_fn)`; `vjp_fn(cotangents)` gives the
    cotangents' products with the Jacobian, one per primal."""
    trees, inputs, nested, output, aux = _traced(func, primals, has_aux)
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
    then input shape. PyTorch batches one backward per output element with
    vmap; gradscope loops, so where the output has more elements than the
    inputs it builds the same matrix a column per input element instead (as
    `jacfwd` does, a backward pass each), and else a row per output
    element. The values agree up to float rounding either way."""

    def wrapped(*args):
        nums = argnums if isinstance(argnums, tuple) else (argnums,)

        def partial(*chosen):
            full = list(args)
            for n, c in zip(nums, chosen):
                full[n] = c
            return func(*full)

        trees, inputs, nested, output, aux = _traced(partial, [args[n] for n in nums], has_aux)
        out_leaves, rebuild_out = _flatten(output)
        jac = None
        if sum(o.numel() for o in out_leaves) > sum(i.numel() for i in inputs if _is_tensor(i)):
            jac = _jacobian_by_columns(out_leaves, inputs, nested)
        if jac is None:
            jac = _jacobian_by_rows(out_leaves, inputs, nested)
        # jac[m][i]: output leaf m by input leaf i, regrouped as the
        # outputs' tree of (per argnum) the inputs' trees.
        jacobians = []
        for m in range(len(out_leaves)):
            per_arg, at = [], 0
            for leaves, rebuild in trees:
                per_arg.append(rebuild(jac[m][at:at + len(leaves)]))
                at += len(leaves)
            jacobians.append(tuple(per_arg) if isinstance(argnums, tuple) else per_arg[0])
        result = _plain(rebuild_out(jacobians), nested)
        return (result, _plain(aux, nested)) if has_aux else result

    return wrapped


def _jacobian_by_rows(out_leaves, inputs, nested):
    """jac[m][i] for output leaf m and input i: one backward per output
    element, its cotangent a unit vector."""
    tensors = [i for i in inputs if _is_tensor(i)]
    differentiable = [o for o in out_leaves if o.requires_grad]
    jac = []
    for o in out_leaves:
        rows = []
        for k in range(o.numel()):
            if o.requires_grad:
                # Every output gets a cotangent, zeros but for this one, as
                # PyTorch's vjp of the whole output: the zeros' products
                # added in turn a -0.0 into +0.0.
                unit = _unit(o.numel(), k, o.dtype).reshape(o.shape)
                cotangents = [unit if d is o else torch.zeros_like(d) for d in differentiable]
                rows.append(_grads(differentiable, tensors, cotangents, nested))
            else:
                rows.append([torch.zeros_like(i) for i in tensors])
        jac.append([torch.stack([r[n] for r in rows]).reshape(tuple(o.shape) + tuple(i.shape))
                    for n, i in enumerate(tensors)])
    return jac


def _jacobian_by_columns(out_leaves, inputs, nested):
    """jac[m][i] a column per input element: the gradient of J^T u (built
    once, for cotangents u that require grad) with respect to u along a
    unit tangent is J's column. None where that cannot be read off: a
    backward that is not differentiable (a custom Function's), or one that
    gives J^T u without a graph back to u."""
    if not all(_is_tensor(i) for i in inputs):
        return None
    positions = [m for m, o in enumerate(out_leaves) if o.requires_grad]
    differentiable = [out_leaves[m] for m in positions]
    if not differentiable:
        return None
    dummies = [torch.zeros_like(o).requires_grad_() for o in differentiable]
    try:
        with torch.enable_grad():
            vjps = torch.autograd.grad(differentiable, inputs, dummies, retain_graph=True, create_graph=True,
                                       allow_unused=True)
    except (RuntimeError, NotImplementedError):
        return None
    if any(g is not None and not g.requires_grad for g in vjps):
        return None
    # columns[n][k]: input n's element k, {output leaf: its part of the
    # column}; a leaf missing or None there has a zero part.
    columns = []
    for i, g in zip(inputs, vjps):
        per_input = []
        for k in range(i.numel()):
            products = [None] * len(dummies)
            if g is not None:
                unit = _unit(i.numel(), k, i.dtype).reshape(i.shape)
                products = torch.autograd.grad([g], dummies, [unit], retain_graph=True, create_graph=nested,
                                               allow_unused=True)
            per_input.append(dict(zip(positions, products)))
        columns.append(per_input)
    jac = []
    for m, o in enumerate(out_leaves):
        per_input = []
        for i, cols in zip(inputs, columns):
            parts = [c.get(m) for c in cols]
            parts = [torch.zeros_like(o) if p is None else p for p in parts]
            block = torch.stack(parts, dim=-1).reshape(tuple(o.shape) + tuple(i.shape))
            if not nested:
                # A column's zeros can come out as -0.0 where a row's are
                # +0.0 (PyTorch's rows print 0.0000, not -0.0000); adding
                # +0.0 changes nothing else.
                block = block.add_(0.0)
            per_input.append(block)
        jac.append(per_input)
    return jac


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
    input element as forward mode builds it. Each column is `jvp`'s
    double-vjp product with a unit tangent; the function runs once and its
    vector-Jacobian product is built once, so a column costs one backward
    pass (a `jvp` per column ran the function, and so an inner transform's
    loops, twice more each time)."""

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

        nested = _nested(primals)
        with torch.enable_grad():
            inputs = _inputs_of(primals, True)
            output = partial(*inputs)
            out_leaves, rebuild_out = _flatten(output)
            dummies = [torch.zeros_like(o).requires_grad_() for o in out_leaves]
            # J^T u for cotangents u that require grad: its gradient with
            # respect to u along a tangent t is J t.
            vjps = torch.autograd.grad(out_leaves, inputs, dummies, create_graph=True, allow_unused=True)
            per_arg = []
            for p, g in zip(primals, vjps):
                linear = g is not None and g.requires_grad
                columns = []
                for k in range(p.numel()):
                    products = [None] * len(out_leaves)
                    if linear:
                        unit = _unit(p.numel(), k, p.dtype).reshape(p.shape)
                        products = torch.autograd.grad([g], dummies, [unit], retain_graph=True, create_graph=nested,
                                                       allow_unused=True)
                    columns.append([torch.zeros_like(o) if q is None else q for o, q in zip(out_leaves, products)])
                jac = [torch.stack([c[m] for c in columns], dim=-1).reshape(tuple(o.shape) + tuple(p.shape))
                       for m, o in enumerate(out_leaves)]
                per_arg.append(_plain(rebuild_out(jac), nested))
        output = _plain(output, nested)
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
