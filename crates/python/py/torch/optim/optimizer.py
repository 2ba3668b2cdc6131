"""`torch.optim.Optimizer`: parameter groups, per-parameter state, and
`zero_grad`."""

from collections import defaultdict

import _gradscope as _C

import torch

__all__ = ["Optimizer"]


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _state_like(p):
    """A zero tensor shaped like `p`, counted in the ledger as optimizer state."""
    t = torch.zeros(tuple(p.shape), dtype=p.dtype)
    _C._set_memory_role(t, "optimizer_state")
    return t


# PyTorch's wording for an argument that must be non-negative; others read
# "Invalid <name> value: <value>".
_ARG_LABELS = {"lr": "learning rate", "eps": "epsilon value"}


def _check_nonnegative(**values):
    """PyTorch's `if not 0.0 <= value: raise ValueError(...)` for each keyword,
    in the order given."""
    for name, value in values.items():
        if not 0.0 <= value:
            raise ValueError(f"Invalid {_ARG_LABELS.get(name, name + ' value')}: {value}")


def _check_adam_args(lr, eps, betas, weight_decay):
    """The argument checks Adam, Adamax, NAdam and RAdam share, in PyTorch's order."""
    _check_nonnegative(lr=lr, eps=eps)
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    _check_nonnegative(weight_decay=weight_decay)


def _weight_decay(p, grad, lr, weight_decay, decoupled=False):
    """The gradient after L2 weight decay (`grad + weight_decay * p`), or, when
    `decoupled`, the gradient unchanged after `p` is shrunk by `lr * weight_decay`."""
    if weight_decay != 0:
        if decoupled:
            p.copy_(p * (1 - lr * weight_decay))
        else:
            grad = _C._add_alpha(grad, p, weight_decay, False)
    return grad


class Optimizer:
    __module__ = "torch.optim.optimizer"

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, "
                f"but got {torch.typename(params)}"
            )
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + torch.typename(param)
                )
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization parameter {name}"
                )
            param_group.setdefault(name, default)
        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
        if any(id(p) in param_set for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        # PyTorch's memory profiler counts an optimizer's tensors as
        # parameters, nn.Parameter or not (`optimizer.parameters` in
        # torch/profiler/_memory_profiler.py), so a loop over plain
        # `requires_grad` leaves shows its weights as parameters too.
        for param in param_group["params"]:
            _C._set_memory_role(param, "parameter")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        _C._emit_zero_grad(bool(set_to_none))
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad = p.grad.detach()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def state_dict(self):
        index = {}
        start = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            ids = list(range(start, start + len(group["params"])))
            for i, p in zip(ids, group["params"]):
                index[id(p)] = i
            packed["params"] = ids
            start += len(ids)
            groups.append(packed)
        state = {}
        for group in self.param_groups:
            for p in group["params"]:
                if p in self.state and self.state[p]:
                    state[index[id(p)]] = self.state[p]
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        params = [p for g in self.param_groups for p in g["params"]]
        for group, saved in zip(self.param_groups, groups):
            for k, v in saved.items():
                if k != "params":
                    group[k] = v
        for i, s in state_dict["state"].items():
            self.state[params[i]] = {
                k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in s.items()
            }

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def _emit_step(self):
        updated = sum(1 for g in self.param_groups for p in g["params"] if p.grad is not None)
        _C._emit_optimizer_step(type(self).__name__, updated)

    def _step_groups(self, closure):
        """The `step` the built-in optimizers share: evaluate `closure` under
        grad mode, then, without grad, update each parameter group with
        `self._update_group(group)`; returns the closure's loss."""
        loss = self._closure(closure)
        self._emit_step()
        with torch.no_grad():
            for group in self.param_groups:
                self._update_group(group)
        return loss

    @staticmethod
    def _with_grad(group):
        """Each parameter of `group` that has a gradient, with that gradient
        (negated under `maximize`)."""
        for p in group["params"]:
            if p.grad is None:
                continue
            yield p, (p.grad if not group["maximize"] else -p.grad)

    def _stepped(self, group, *buffers):
        """PyTorch's per-parameter step prologue: each parameter of `group` that
        has a gradient, that gradient (negated under `maximize`), and its state,
        created on first use (a float step count, then for each of `buffers` a
        zero tensor like the parameter, or for a `(name, value)` pair a scalar
        tensor of that value), with its step count advanced by one."""
        for p, grad in self._with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = torch.tensor(0.0)
                for name in buffers:
                    if isinstance(name, tuple):
                        state[name[0]] = torch.tensor(name[1])
                    else:
                        state[name] = _state_like(p)
            state["step"].add_(1)
            yield p, grad, state

    def _closure(self, closure):
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()
