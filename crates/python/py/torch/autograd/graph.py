"""`torch.autograd.graph`."""

import _gradscope as _C

Node = _C.Node

# PyTorch's names for the tensors each node saves, recorded from torch 2.15
# by tests/fixtures/record_saved_attrs.py (saved_attrs.json): attribute
# name -> the engine's slot (`input<i>` of the op, or its `result`). Other
# `*Backward<N>` nodes read `self`, `other` and `result` as inputs 0 and 1
# and the result. Saved values that are not tensors (`_saved_dim`) are not
# kept by gradscope's nodes.
SAVED_NAMES = {
    "AbsBackward0": {"self": "input0"},
    "AddBackward0": {},
    "AddmmBackward0": {"mat1": "input1", "mat2": "input2"},
    "AmaxBackward0": {"result": "result", "self": "input0"},
    "BinaryCrossEntropyBackward0": {"self": "input0"},
    "BmmBackward0": {"mat2": "input1", "self": "input0"},
    "CatBackward0": {},
    "ClampBackward1": {"self": "input0"},
    "CloneBackward0": {},
    "CosBackward0": {"self": "input0"},
    "DivBackward0": {"other": "input1", "self": "input0"},
    "DotBackward0": {"self": "input0", "tensor": "input1"},
    "EmbeddingBackward0": {},
    "ErfBackward0": {"self": "input0"},
    "ExpBackward0": {"result": "result"},
    "ExpandBackward0": {},
    "Expm1Backward0": {"result": "result"},
    "FloorBackward0": {},
    "GatherBackward0": {"self": "input0"},
    "GeluBackward0": {"self": "input0"},
    "IndexBackward0": {},
    "IndexSelectBackward0": {},
    "LeakyReluBackward0": {"self": "input0"},
    "LinalgVectorNormBackward0": {"result": "result", "self": "input0"},
    "Log1PBackward0": {"self": "input0"},
    "LogBackward0": {"self": "input0"},
    "LogSoftmaxBackward0": {"result": "result"},
    "LogsumexpBackward0": {"result": "result", "self": "input0"},
    "MaskedFillBackward0": {},
    "MaxBackward1": {"result": "result", "self": "input0"},
    "MaximumBackward0": {"other": "input1", "self": "input0"},
    "MeanBackward0": {},
    "MeanBackward1": {},
    "MinimumBackward0": {"other": "input1", "self": "input0"},
    "MmBackward0": {"mat2": "input1", "self": "input0"},
    "MseLossBackward0": {"self": "input0", "target": "input1"},
    "MulBackward0": {"other": "input1", "self": "input0"},
    "MvBackward0": {"self": "input0", "vec": "input1"},
    "NativeLayerNormBackward0": {"bias": "input2", "input": "input0", "weight": "input1"},
    "NegBackward0": {},
    "NllLossBackward0": {"self": "input0"},
    "PermuteBackward0": {},
    "PowBackward0": {"self": "input0"},
    "PowBackward1": {"exponent": "input1", "result": "result", "self": "input0"},
    "PowBackward2": {"exponent": "input0", "result": "result"},
    "ProdBackward0": {"result": "result", "self": "input0"},
    "ReciprocalBackward0": {"result": "result"},
    "ReluBackward0": {"result": "result"},
    "RoundBackward0": {},
    "RsqrtBackward0": {"result": "result"},
    "RsubBackward1": {},
    "SelectBackward0": {},
    "SigmoidBackward0": {"result": "result"},
    "SignBackward0": {},
    "SinBackward0": {"self": "input0"},
    "SliceBackward0": {},
    "SoftmaxBackward0": {"result": "result"},
    "SoftplusBackward0": {"self": "input0"},
    "SplitBackward0": {},
    "SqrtBackward0": {"result": "result"},
    "SqueezeBackward0": {},
    "StackBackward0": {},
    "StdBackward0": {"result": "result", "self": "input0"},
    "SubBackward0": {},
    "SumBackward0": {},
    "SumBackward1": {},
    "TBackward0": {},
    "TanhBackward0": {"result": "result"},
    "ToCopyBackward0": {},
    "TransposeBackward0": {},
    "UnbindBackward0": {},
    "UnsqueezeBackward0": {},
    "VarBackward0": {"self": "input0"},
    "ViewBackward0": {},
    "WhereBackward0": {},
}

_DEFAULT_NAMES = {"self": "input0", "other": "input1", "result": "result"}


class SavedTensor:
    """`grad_fn._raw_saved_<name>`: PyTorch's handle on a saved tensor."""

    __module__ = "torch._C._autograd"

    def __init__(self, tensor):
        self._tensor = tensor

    def register_hooks(self, pack_hook, unpack_hook):
        raise NotImplementedError("gradscope does not support hooks on saved tensors yet")


def _saved_attribute(node, name):
    """`node._saved_<name>` (the tensor, or None where the node did not need
    it) and `node._raw_saved_<name>`."""
    raw = name.startswith("_raw_saved_")
    short = name[len("_raw_saved_"):] if raw else name[len("_saved_"):]
    kind = type(node).__name__
    names = SAVED_NAMES.get(kind)
    if names is None:
        names = _DEFAULT_NAMES if kind[-1:].isdigit() else {}
    slot = names.get(short)
    if slot is None:
        raise AttributeError(f"'{kind}' object has no attribute '{name}'")
    for saved_slot, tensor in node._saved_slots():
        if saved_slot == slot:
            return SavedTensor(tensor) if raw else tensor
    return None
