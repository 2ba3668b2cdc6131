"""`nn.Module`: parameters, buffers and submodules registered by attribute
assignment, as PyTorch's `torch/nn/modules/module.py` does it."""

from collections import OrderedDict, namedtuple

import _gradscope as _C
import torch

from ..parameter import Parameter

__all__ = ["Module"]


def _addindent(s_, numSpaces):
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(numSpaces * " ") + line for line in s]
    s = "\n".join(s)
    s = first + "\n" + s
    return s


class _StateDict(OrderedDict):
    """An `OrderedDict` printed as Python 3.11 prints one, like PyTorch's
    `state_dict()` under the Python that records the corpus."""

    def __repr__(self):
        if not self:
            return "OrderedDict()"
        return "OrderedDict(%r)" % (list(self.items()),)


    def keys(self):
        return _View("odict_keys", list(super().keys()))

    def values(self):
        return _View("odict_values", list(super().values()))

    def items(self):
        return _View("odict_items", list(super().items()))


class _View:
    """`OrderedDict`'s key, value and item views as CPython prints them."""

    def __init__(self, name, items):
        self._name = name
        self._items = items

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __contains__(self, item):
        return item in self._items

    def __eq__(self, other):
        return list(self) == list(other) if self._name != "odict_keys" else set(self) == set(other)

    def __repr__(self):
        return f"{self._name}({self._items!r})"


_StateDict.__name__ = _StateDict.__qualname__ = "OrderedDict"
_StateDict.__module__ = "collections"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class _RemovableHandle:
    def __init__(self, hooks, key):
        self.hooks = hooks
        self.id = key

    def remove(self):
        self.hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.remove()


# PyTorch's RemovableHandle.next_id: the first hook's id is 0
_next_hook_id = [-1]


class _BackwardHookCall:
    """One call's full backward hooks, as PyTorch's BackwardHookFunction
    nodes: identity nodes on the outputs keep their gradients, identity
    nodes on the inputs that need one gather theirs, and the hooks run
    once all are in (their result replacing the input gradients)."""

    def __init__(self, module, hooks, pre_hooks=None):
        self.module = module
        self.hooks = list(hooks.values())
        self.pre_hooks = list((pre_hooks or {}).values())
        self.grad_output = None
        self.inputs = 0
        self.grad_input = {}

    def _identity(self, tensor, backward):
        from torch import _composite

        return _composite.op("BackwardHookFunctionBackward", [tensor], lambda: tensor.detach().clone(),
                             lambda g: [backward(g)])

    def wrap_inputs(self, args):
        wrapped = list(args)
        for position, a in enumerate(args):
            if isinstance(a, torch.Tensor) and a.requires_grad and torch.is_grad_enabled():
                slot = self.inputs
                self.inputs += 1
                wrapped[position] = self._identity(a, lambda g, slot=slot: self._input_grad(slot, g))
        return tuple(wrapped)

    def wrap_outputs(self, result):
        if not torch.is_grad_enabled():
            return result
        outputs = result if isinstance(result, tuple) else (result,)
        wrapped = tuple(self._identity(o, self._output_grad) if isinstance(o, torch.Tensor) and o.requires_grad
                        else o for o in outputs)
        return wrapped if isinstance(result, tuple) else wrapped[0]

    def _output_grad(self, g):
        for hook in self.pre_hooks:
            out = hook(self.module, (g,))
            if out is not None:
                g = out[0] if isinstance(out, (tuple, list)) else out
        self.grad_output = (g,)
        if not self.hooks:
            return g
        if self.inputs == 0:
            import warnings

            warnings.warn(
                "Full backward hook is firing when gradients are computed with respect to module outputs since no "
                "inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.",
                stacklevel=2,
            )
            self._run((None,))
        return g

    def _input_grad(self, slot, g):
        self.grad_input[slot] = g
        if len(self.grad_input) < self.inputs:
            return g
        grads = tuple(self.grad_input[i] for i in range(self.inputs))
        replaced = self._run(grads)
        return replaced[slot] if replaced is not None else g

    def _run(self, grad_input):
        current = grad_input
        for hook in self.hooks:
            out = hook(self.module, current, self.grad_output)
            if out is not None:
                current = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        return current if current is not grad_input else None


# The module calls in progress while a trace records, outermost first:
# each is (qualified names of the outermost module's submodules by id, the
# call's own qualified name).
_scopes = []


def _scope_of(module):
    """The scope of a call of `module`: its qualified name as `named_modules()`
    of the outermost module being called gives it (`""` for that one,
    `layers.0`). A module outside that tree (a global one called from a
    forward) has no such name, and is named after its class under its
    caller (`fc1.ReLU`)."""
    if not _scopes:
        return {id(m): name for name, m in module.named_modules()}, ""
    names, caller = _scopes[-1]
    name = names.get(id(module))
    if name is None:
        name = type(module).__name__
        if caller:
            name = caller + "." + name
    return names, name


class Module:
    __module__ = "torch.nn.modules.module"

    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'"
            )
        if args:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            )
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_hooks"] = _StateDict()
        d["_forward_pre_hooks"] = _StateDict()
        d["_backward_hooks"] = _StateDict()

    def forward(self, *input):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args, **kwargs):
        # While a trace records, the call is a module scope (hooks
        # included), which the graph view groups nodes by; it ends however
        # forward ends.
        scoped = _C._is_recording()
        if scoped:
            _scopes.append(_scope_of(self))
            _C._module_entered(_scopes[-1][1], type(self).__name__)
        try:
            for hook in list(self.__dict__.get("_forward_pre_hooks", {}).values()):
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
            hooks = self.__dict__.get("_backward_hooks")
            pre_hooks = self.__dict__.get("_backward_pre_hooks")
            call = None
            given = args
            if hooks or pre_hooks:
                call = _BackwardHookCall(self, hooks or {}, pre_hooks or {})
                args = call.wrap_inputs(args)
            result = self.forward(*args, **kwargs)
            for hook in list(self.__dict__.get("_forward_hooks", {}).values()):
                hook_result = hook(self, args, result)
                if hook_result is not None:
                    result = hook_result
            if call is not None:
                if hooks and self.__dict__.get("_is_full_backward_hook") is False:
                    # PyTorch judges the graph its legacy hook sees: the
                    # inputs and outputs without the hooks' identity nodes.
                    var = result
                    while not isinstance(var, torch.Tensor):
                        var = next(v for v in var.values() if isinstance(v, torch.Tensor)) \
                            if isinstance(var, dict) else var[0]
                    if var.grad_fn is not None:
                        self._maybe_warn_non_full_backward_hook(given, result, var.grad_fn)
                result = call.wrap_outputs(result)
            return result
        finally:
            if scoped:
                _scopes.pop()
                _C._module_exited()

    _call_impl = __call__

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        _next_hook_id[0] += 1
        self._forward_hooks[_next_hook_id[0]] = hook
        return _RemovableHandle(self._forward_hooks, _next_hook_id[0])

    def register_full_backward_hook(self, hook, prepend=False, _full=True):
        """`hook(module, grad_input, grad_output)` once the gradients of the
        module's inputs are known (of its outputs, where no input needs one);
        what it returns replaces `grad_input`."""
        if _full:
            if self.__dict__.get("_is_full_backward_hook") is False:
                raise RuntimeError(
                    "Cannot use both regular backward hooks and full backward hooks on a "
                    "single Module. Please use only one of them."
                )
            self.__dict__["_is_full_backward_hook"] = True
        if "_backward_hooks" not in self.__dict__:
            self.__dict__["_backward_hooks"] = {}
        _next_hook_id[0] += 1
        self._backward_hooks[_next_hook_id[0]] = hook
        return _RemovableHandle(self._backward_hooks, _next_hook_id[0])

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        _next_hook_id[0] += 1
        self._forward_pre_hooks[_next_hook_id[0]] = hook
        return _RemovableHandle(self._forward_pre_hooks, _next_hook_id[0])

    def register_backward_hook(self, hook):
        """PyTorch's deprecated module backward hook. PyTorch hangs it on the
        output's `grad_fn` and gives it that one node's input gradients;
        gradscope's engine has no node hooks, so it runs as a full backward
        hook (the gradients of the module's inputs), after the same
        FutureWarnings PyTorch gives when the two would differ."""
        if self.__dict__.get("_is_full_backward_hook") is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a "
                "single Module. Please use only one of them."
            )
        self.__dict__["_is_full_backward_hook"] = False
        handle = self.register_full_backward_hook(hook, _full=False)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """`hook(module, grad_output)` when the gradients of the module's
        outputs are known; what it returns replaces `grad_output`."""
        if "_backward_pre_hooks" not in self.__dict__:
            self.__dict__["_backward_pre_hooks"] = {}
        _next_hook_id[0] += 1
        self._backward_pre_hooks[_next_hook_id[0]] = hook
        return _RemovableHandle(self._backward_pre_hooks, _next_hook_id[0])

    def _maybe_warn_non_full_backward_hook(self, inputs, result, grad_fn):
        import warnings

        if not isinstance(result, torch.Tensor):
            if not (isinstance(result, tuple) and all(isinstance(r, torch.Tensor) for r in result)):
                warnings.warn(
                    "Using non-full backward hooks on a Module that does not return a "
                    "single Tensor or a tuple of Tensors is deprecated and will be removed "
                    "in future versions. This hook will be missing some of the grad_output. "
                    "Please use register_full_backward_hook to get the documented behavior.",
                    FutureWarning,
                    stacklevel=2,
                )
                return
        else:
            result = (result,)
        if not isinstance(inputs, torch.Tensor):
            if not (isinstance(inputs, tuple) and all(isinstance(i, torch.Tensor) for i in inputs)):
                warnings.warn(
                    "Using non-full backward hooks on a Module that does not take as input a "
                    "single Tensor or a tuple of Tensors is deprecated and will be removed "
                    "in future versions. This hook will be missing some of the grad_input. "
                    "Please use register_full_backward_hook to get the documented behavior.",
                    FutureWarning,
                    stacklevel=2,
                )
                return
        else:
            inputs = (inputs,)
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            warnings.warn(
                "Using a non-full backward hook when outputs are nested in python data structure "
                "is deprecated and will be removed in future versions. This hook will be missing "
                "some grad_output.",
                FutureWarning,
                stacklevel=2,
            )
        elif len(out_grad_fn) > 1:
            warnings.warn(
                "Using a non-full backward hook when outputs are generated by different autograd Nodes "
                "is deprecated and will be removed in future versions. This hook will be missing "
                "some grad_output. Please use register_full_backward_hook to get the documented behavior.",
                FutureWarning,
                stacklevel=2,
            )
        else:
            inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
            # Through the identity nodes gradscope's hooks add on the inputs.
            next_functions = {n[0].next_functions[0][0] if n[0] is not None and n[0].name() ==
                              "BackwardHookFunctionBackward" else n[0] for n in grad_fn.next_functions}
            if inputs_grad_fn != next_functions:
                warnings.warn(
                    "Using a non-full backward hook when the forward contains multiple autograd Nodes "
                    "is deprecated and will be removed in future versions. This hook will be missing "
                    "some grad_input. Please use register_full_backward_hook to get the documented "
                    "behavior.",
                    FutureWarning,
                    stacklevel=2,
                )

    # Registration -------------------------------------------------------

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {torch.typename(name)}")
        elif "." in name:
            raise KeyError('buffer name can\'t contain "."')
        elif name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        elif tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(
                f"cannot assign '{torch.typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {torch.typename(name)}")
        elif "." in name:
            raise KeyError('parameter name can\'t contain "."')
        elif name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{torch.typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                f"parameters must be created explicitly. To express '{name}' "
                "as a function of another Tensor, compute the value in "
                "the forward() method."
            )
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{torch.typename(module)} is not a Module subclass")
        elif not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {torch.typename(name)}")
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        elif "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        elif name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        return getattr(mod, param_name)

    # Attributes ---------------------------------------------------------

    def __getattr__(self, name):
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{torch.typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{torch.typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError(
                            f"cannot assign '{torch.typename(value)}' as buffer '{name}' "
                            "(torch.Tensor or None expected)"
                        )
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        parameters = list(self._parameters.keys())
        modules = list(self._modules.keys())
        buffers = list(self._buffers.keys())
        keys = module_attrs + attrs + parameters + modules + buffers
        keys = [key for key in keys if not key[0].isdigit()]
        return sorted(keys)

    # Iteration ----------------------------------------------------------

    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            members = get_members_fn(module)
            for k, v in members:
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                name = module_prefix + ("." if module_prefix else "") + k
                yield name, v

    def parameters(self, recurse=True):
        for _name, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(
            lambda module: module._parameters.items(),
            prefix=prefix,
            recurse=recurse,
            remove_duplicate=remove_duplicate,
        )

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(
            lambda module: module._buffers.items(),
            prefix=prefix,
            recurse=recurse,
            remove_duplicate=remove_duplicate,
        )

    def children(self):
        for _name, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if id(self) not in memo:
            if remove_duplicate:
                memo.add(id(self))
            yield prefix, self
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # Modes and gradients ------------------------------------------------

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        # The memory view marks it as it marks optimizer.zero_grad().
        _C._emit_zero_grad(bool(set_to_none))
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad = p.grad.detach()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # Conversions --------------------------------------------------------

    def _apply(self, fn):
        """`fn` on every parameter and buffer, as PyTorch's `_apply` puts
        the results back: with `torch.__future__`'s swap switch on (or for a
        traceable wrapper subclass) by `torch.utils.swap_tensors`, else by
        `param.data = new` when the kinds agree (the parameter keeps its
        identity), else as a new `Parameter`. A move between devices gives
        a new `Parameter` in gradscope (its engine tensors are per device)."""
        from torch import _python_dispatch

        for module in self.children():
            module._apply(fn)

        def should_use_set_data(tensor, applied):
            if torch._has_compatible_shallow_copy_type(tensor, applied):
                return not torch.__future__.get_overwrite_module_params_on_conversion()
            return False

        use_swap = torch.__future__.get_swap_module_params_on_conversion()
        for key, param in self._parameters.items():
            if param is None:
                continue
            with torch.no_grad():
                applied = fn(param)
            if applied is param:
                continue
            swap = use_swap or _python_dispatch.is_traceable_wrapper_subclass(applied)
            grad = param.grad
            if swap:
                try:
                    if grad is not None:
                        param.grad = None
                    applied = Parameter(applied, requires_grad=param.requires_grad)
                    torch.utils.swap_tensors(param, applied)
                except Exception as e:
                    if grad is not None:
                        param.grad = grad
                    raise RuntimeError(f"_apply(): Couldn't swap {self._get_name()}.{key}") from e
                out = param
            elif should_use_set_data(param, applied) and applied.device == param.device:
                _python_dispatch.set_data(param, applied)
                out = param
            else:
                out = Parameter(applied, param.requires_grad)
                self._parameters[key] = out
            if grad is not None:
                with torch.no_grad():
                    grad_applied = fn(grad)
                if swap or not should_use_set_data(grad, grad_applied) or grad_applied.device != grad.device:
                    out.grad = grad_applied.requires_grad_(grad.requires_grad)
                else:
                    _python_dispatch.set_data(grad, grad_applied)
                    out.grad = grad
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        device = kwargs.get("device")
        for arg in args:
            if isinstance(arg, torch.dtype):
                dtype = arg
            elif isinstance(arg, torch.Tensor):
                dtype = arg.dtype
            else:
                device = arg
        if device is not None:
            torch.device(device)
            kind = str(device).split(":")[0]
            if kind == "meta":
                self._apply(lambda t: t.to("meta", dtype=dtype if dtype is not None and t.is_floating_point()
                                           else t.dtype))
                return self
            if kind not in ("cpu", "webgpu", "gpu"):
                raise RuntimeError(
                    f"gradscope runs tensors on the cpu or webgpu; device '{device}' is not available"
                )
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
            )

        def convert(t):
            if dtype is not None and t.is_floating_point():
                t = t.to(dtype)
            # Every parameter and buffer moves, as PyTorch's Module.to moves
            # them (with the GPU as default device, a model is made there
            # and `.to("cpu")` must bring it back).
            # A tensor already there stays itself (an optimizer made before
            # `.to(device)` keeps its parameters, as in PyTorch).
            if device is None or t.device == torch.device(device):
                return t
            return t.to(device)

        if dtype is None and device is None:
            return self
        return self._apply(convert)

    def to_empty(self, *, device, recurse=True):
        """Moves the parameters and buffers to `device` without copying
        their values: each becomes an uninitialised tensor of its shape
        (from the meta device, the way to get real storage)."""
        return self._apply(lambda t: torch.empty_like(t, device=device))

    def cpu(self):
        return self._apply(lambda t: t if t.device.type == "cpu" else t.cpu())

    def cuda(self, device=None):
        raise AssertionError("Torch not compiled with CUDA enabled")

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    # State --------------------------------------------------------------

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        if args:
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = _StateDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not hasattr(state_dict, "keys"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        # Lazy modules take their parameters' shapes from the checkpoint.
        for prefix, module in self.named_modules():
            hook = getattr(type(module), "_lazy_load_hook", None)
            if hook is not None:
                hook(module, state_dict, prefix + "." if prefix else "")
        own = self.state_dict(keep_vars=True)
        for key, param in own.items():
            if key not in state_dict:
                missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, torch.Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                    f"object from checkpoint but received {type(input_param)}"
                )
                continue
            if tuple(input_param.shape) != tuple(param.shape):
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, "
                    f"the shape in current model is {param.shape}."
                )
                continue
            use_swap = torch.__future__.get_swap_module_params_on_conversion()
            if param.is_meta and not input_param.is_meta and not assign:
                import warnings

                warnings.warn(
                    f"for {key}: copying from a non-meta parameter in the checkpoint to a meta "
                    "parameter in the current model, which is a no-op. (Did you mean to "
                    "pass `assign=True` to assign items in the state dictionary to their "
                    "corresponding key in the module instead of copying them in place?)"
                )
            try:
                with torch.no_grad():
                    if use_swap:
                        self._swap_from_state_dict(param, input_param, assign)
                    elif assign:
                        self._assign_from_state_dict(key, param, input_param)
                    elif not param.is_meta:
                        param.copy_(input_param)
            except Exception as ex:
                action = "swapping" if use_swap else "copying"
                error_msgs.append(
                    f'While {action} the parameter named "{key}", whose dimensions in the model are '
                    f"{param.size()} and whose dimensions in the checkpoint are {input_param.size()}, "
                    f"an exception occurred : {ex.args}."
                )
        for key in state_dict.keys():
            if key not in own:
                unexpected_keys.append(key)
        if strict:
            if unexpected_keys:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected_keys)
                    ),
                )
            if missing_keys:
                error_msgs.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing_keys)
                    ),
                )
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    self.__class__.__name__, "\n\t".join(error_msgs)
                )
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _assign_from_state_dict(self, key, param, input_param):
        """`load_state_dict(..., assign=True)`: the checkpoint's tensor
        replaces the module's own (a parameter stays a parameter, with the
        old one's `requires_grad`), as PyTorch assigns it."""
        owner = self
        *path, name = key.split(".")
        for part in path:
            owner = owner._modules[part]
        if isinstance(param, Parameter):
            if not isinstance(input_param, Parameter):
                input_param = Parameter(input_param, requires_grad=param.requires_grad)
            else:
                input_param.requires_grad_(param.requires_grad)
        setattr(owner, name, input_param)

    @staticmethod
    def _swap_from_state_dict(param, input_param, assign):
        """`load_state_dict` with `torch.__future__`'s swap switch on: what
        `param.module_load` makes of the checkpoint's tensor is swapped into
        `param` (`torch.utils.swap_tensors`), which keeps its identity."""
        new = param.module_load(input_param, assign=assign)
        if id(new) == id(input_param) or id(new) == id(param):
            raise RuntimeError(
                "module_load returned one of self or other, please .detach() the result if returning one of "
                "the inputs in module_load"
            )
        if isinstance(param, Parameter):
            if not isinstance(new, Parameter):
                new = Parameter(new, requires_grad=param.requires_grad)
            else:
                new.requires_grad_(param.requires_grad)
        torch.utils.swap_tensors(param, new)

    # Printing -----------------------------------------------------------

    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str
