"""PyTorch ops that gradscope computes in Python from its engine's ops, each
recorded as the one node PyTorch's op records: `CumsumBackward0`, not the
`narrow`s, `sum`s and `cat` it is made of.

The forward runs without recording (the engine's custom-function path, as
`torch.autograd.Function` uses), and the node's backward is PyTorch's
formula from `derivatives.yaml`, itself made of differentiable ops, so
double backward works. A node keeps what PyTorch's keeps: `SortBackward0`
and `TopkBackward0` their indices, the others only sizes, which the Python
closures hold.
"""

import _gradscope as _C


def node(name, x, forward, backward, saved=(), names=()):
    """`forward()` as `x`'s op recorded as node `name` (when `x` needs a
    gradient and grad mode is on); `backward(grad, *saved)` gives `x`'s
    gradient from the output's. `names` are PyTorch's for what it saves."""

    def run(needs):
        return forward(), list(saved), False, list(names)

    def grads(kept, grad):
        return [backward(grad, *kept)]

    return _C._apply_function(name, [x], run, grads, True)


def cumsum(x, dim, dtype=None):
    """`x.cumsum(dim, dtype=dtype)`: the conversion is inside the node, as
    in PyTorch, and the gradient goes back in x's dtype."""

    def forward():
        y = x if dtype is None else x.to(dtype)
        if y.dim() == 0:
            return y.clone()
        parts = [y.narrow(dim, 0, i + 1).sum(dim, keepdim=True) for i in range(y.shape[dim])]
        return _C.cat(parts, dim) if parts else y.clone()

    def backward(g):
        # cumsum_backward of the gradient in x's dtype: the sums from the end.
        if g.dtype != x.dtype:
            g = g.to(x.dtype)
        return g.flip(dim).cumsum(dim).flip(dim) if g.dim() > 0 else g

    return node("CumsumBackward0", x, forward, backward)


def select_by(name, x, dim, index):
    """Values of `x` at `index` along `dim` (sort's and topk's), whose
    backward puts the gradient back where each value came from."""
    if x.dim() == 0:
        return node(name, x, lambda: x.clone(), lambda g, i: g, (index,), ("indices",))

    def backward(g, i):
        # value_selecting_reduction_backward: the gradient scattered into zeros.
        return _C.zeros(tuple(x.shape), dtype=g.dtype, device=g.device).scatter(dim, i, g)

    return node(name, x, lambda: x.gather(dim, index), backward, (index,), ("indices",))


def repeat(x, sizes, shape):
    """`x.repeat(*sizes)` with `shape` x's shape padded with leading ones."""
    spread, target = [], []
    for r, n in zip(sizes, shape):
        spread += [1, n]
        target += [r, n]
    out = [r * n for r, n in zip(sizes, shape)]

    def backward(g):
        # PyTorch's repeat_backward: each block of the result was a copy of
        # x, so their gradients add up; new leading dims are summed away,
        # then each repeated dim is split as (repeat, size) and summed.
        lead = g.dim() - x.dim()
        for _ in range(lead):
            g = g.sum(0)
        split, summed = [], []
        for d, n in enumerate(x.shape):
            if sizes[d + lead] != 1:
                split.append(sizes[d + lead])
                summed.append(len(split) - 1)
            split.append(n)
        return g.reshape(split).sum(tuple(summed)) if summed else g

    return node("RepeatBackward0", x, lambda: x.reshape(spread).expand(target).reshape(out), backward)


def flip(x, dims):
    def forward():
        out = x
        for d in dims:
            n = out.shape[d]
            out = out.index_select(d, _C.arange(n - 1, -1, -1))
        return out if dims else x.clone()

    return node("FlipBackward0", x, forward, lambda g: g.flip(dims))


def roll(x, shifts, dims):
    """`x.roll(shifts, dims)`; with `dims` None, of the flattened values
    (still one node, as in PyTorch)."""

    def forward():
        if dims is None:
            return rolled(x.flatten(), shifts, (0,)).reshape(tuple(x.shape))
        return rolled(x, shifts, dims)

    return node("RollBackward0", x, forward, lambda g: g.roll(tuple(-s for s in shifts), dims))


def rolled(x, shifts, dims):
    out = x
    for shift, d in zip(shifts, dims):
        n = out.shape[d]
        shift = shift % n if n else 0
        if shift:
            out = _C.cat([out.narrow(d, n - shift, shift), out.narrow(d, 0, n - shift)], d)
    return out if out is not x else x.clone()


def op(name, inputs, forward, backward, saves=()):
    """`forward()` over tensors `inputs`, recorded as node `name` with
    PyTorch's formula `backward(grad, *kept)` giving one gradient (or None)
    per input. `saves` names what the node keeps, of `"self"` (the first
    input) and `"other"` (the second), as PyTorch's nodes name them, or
    `(name, i)` for input `i` under PyTorch's name (`("mat", 1)`); where
    PyTorch keeps its `result`, the formula recomputes it from `self` so
    that double backward goes through it."""
    slots = [(s, 0) if s == "self" else (s, 1) if s == "other" else s for s in saves]

    def run(needs):
        return forward(), [inputs[i] for _, i in slots], False, [name for name, _ in slots]

    def grads(kept, grad):
        out = []
        for x, g in zip(inputs, backward(grad, *kept)):
            # Broadcasting is undone here, as the engine does for its own ops.
            if g is not None and tuple(g.shape) != tuple(x.shape):
                g = g.sum_to_size(tuple(x.shape))
            out.append(g)
        return out

    return _C._apply_function(name, list(inputs), run, grads, True)


def recorded(name, inputs, fn, names, once=None):
    """`fn(*inputs)`, a composition of the engine's ops, recorded as the one
    node `name` that PyTorch's op records (`ConvolutionBackward0` for a
    conv1d made of conv2d): the node keeps the inputs (under PyTorch's
    `names`) and its backward runs `fn` again with grad and differentiates
    it, so gradients and double backward are the composition's.
    `inputs` may hold None (an absent bias), passed through to `fn`.
    `once` names PyTorch's backward kernel where it has no derivative
    itself: differentiating the gradients then raises its error."""
    from .autograd import grad as autograd_grad
    from .autograd.grad_mode import enable_grad

    present = [i for i, t in enumerate(inputs) if t is not None]
    tensors = [inputs[i] for i in present]

    def call(values):
        args = list(inputs)
        for i, v in zip(present, values):
            args[i] = v
        return fn(*args)

    def backward(g, *kept):
        create_graph = _C.is_grad_enabled()
        with enable_grad():
            out = call(kept)
            wanted = [k for k in kept if k.requires_grad]
            found = iter(autograd_grad(out, wanted, g, create_graph=create_graph, allow_unused=True))
        grads = [next(found) if k.requires_grad else None for k in kept]
        if once is not None and create_graph:
            grads = [_underivable(x, k, once) for x, k in zip(grads, kept)]
        return grads

    saves = [(names[i], n) for n, i in enumerate(present)]
    return op(name, tensors, lambda: call(tensors), backward, saves)


def _underivable(grad, input, kernel):
    """`grad` (of `input`) as the output of PyTorch's NotImplemented node,
    whose backward raises PyTorch's error for `kernel`."""
    if grad is None:
        return grad

    def refuse(g):
        raise RuntimeError(f"derivative for aten::{kernel} is not implemented")

    return op("torch::autograd::NotImplemented", [input], lambda: grad.detach().clone(), refuse)
