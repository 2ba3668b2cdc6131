"""`nn.RNN`, `nn.LSTM`, `nn.GRU`: PyTorch's parameters, initialisation and
cell arithmetic (ATen's `RNN.cpp` order), unrolled over time in Python, so
each step shows in the graph as the engine's ops rather than one fused node.

PyTorch runs a float32 or bfloat16 LSTM on the CPU through oneDNN, one node
per layer and direction (`MkldnnRnnLayerBackward0`), and that is the
`grad_fn` a printed LSTM output shows. Here each layer's stacked steps pass
through an identity node of that name, so the output prints as PyTorch's
while the steps stay visible beneath it; its `next_functions` are that
stack, not PyTorch's weights and inputs."""

import math

import _gradscope as _C
import torch

from ... import _composite
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]


class RNNBase(Module):
    _gates = 1
    # The node PyTorch's CPU kernel records for a layer's output, if any.
    _layer_node = None

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if proj_size:
            raise NotImplementedError("gradscope's recurrent layers do not support proj_size yet")
        if not (0 <= dropout <= 1):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed"
            )
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        gate_size = self._gates * hidden_size
        self._flat_weights_names = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                shapes = [(gate_size, layer_input_size), (gate_size, hidden_size)]
                if bias:
                    names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
                    shapes += [(gate_size,), (gate_size,)]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(torch.empty(shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
        self.reset_parameters()

    def flatten_parameters(self):
        """Packs the weights for cuDNN; a no-op off CUDA, as in PyTorch."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _weights(self, layer, direction):
        suffix = "_reverse" if direction == 1 else ""
        w_ih = getattr(self, f"weight_ih_l{layer}{suffix}")
        w_hh = getattr(self, f"weight_hh_l{layer}{suffix}")
        b_ih = getattr(self, f"bias_ih_l{layer}{suffix}") if self.bias else None
        b_hh = getattr(self, f"bias_hh_l{layer}{suffix}") if self.bias else None
        return w_ih, w_hh, b_ih, b_hh

    def forward(self, input, hx=None):
        from ..utils.rnn import PackedSequence

        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        batched = input.dim() == 3
        if input.dim() not in (2, 3):
            raise ValueError(
                f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D tensor instead"
            )
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        num_directions = 2 if self.bidirectional else 1
        batch = input.shape[1]
        zeros = torch.zeros(self.num_layers * num_directions, batch, self.hidden_size,
                            dtype=input.dtype)
        states = self._initial_states(hx, zeros, batched)
        layer_input = input
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(num_directions):
                index = layer * num_directions + direction
                state = tuple(s[index] for s in states)
                steps = range(layer_input.shape[0])
                if direction == 1:
                    steps = reversed(steps)
                weights = self._weights(layer, direction)
                out = [None] * layer_input.shape[0]
                for t in steps:
                    state = self._cell(layer_input[t], state, *weights)
                    out[t] = state[0]
                outputs.append(self._layer_output(torch.stack(out)))
                finals.append(state)
            layer_input = outputs[0] if num_directions == 1 else torch.cat(outputs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        final = tuple(torch.stack([f[i] for f in finals]) for i in range(len(states)))
        if not batched:
            output = output.squeeze(1)
            final = tuple(f.squeeze(1) for f in final)
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, self._pack(final)

    def _forward_packed(self, packed, hx):
        """A packed batch: the padded steps run with each sequence's state
        held once its length is reached (so the final states are the last
        valid steps'), and the output packed again, in the input's order."""
        from ..utils.rnn import PackedSequence, _padded_of

        padded, lengths = _padded_of(packed)
        steps_total, batch = padded.shape[0], padded.shape[1]
        num_directions = 2 if self.bidirectional else 1
        zeros = torch.zeros(self.num_layers * num_directions, batch, self.hidden_size, dtype=padded.dtype)
        states = self._initial_states(hx, zeros, True)
        if hx is not None and packed.sorted_indices is not None:
            states = tuple(s.index_select(1, packed.sorted_indices) for s in states)
        valid = [torch.tensor([t < n for n in lengths]).unsqueeze(1) for t in range(steps_total)]
        layer_input = padded
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(num_directions):
                index = layer * num_directions + direction
                state = tuple(s[index] for s in states)
                steps = range(steps_total)
                if direction == 1:
                    steps = reversed(steps)
                weights = self._weights(layer, direction)
                out = [None] * steps_total
                for t in steps:
                    stepped = self._cell(layer_input[t], state, *weights)
                    state = tuple(torch.where(valid[t], new, old) for new, old in zip(stepped, state))
                    out[t] = state[0]
                outputs.append(torch.stack(out))
                finals.append(state)
            layer_input = outputs[0] if num_directions == 1 else torch.cat(outputs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        sizes = packed.batch_sizes.tolist()
        data = torch.cat([layer_input[t].narrow(0, 0, b) for t, b in enumerate(sizes)], 0)
        final = tuple(torch.stack([f[i] for f in finals]) for i in range(len(states)))
        if packed.unsorted_indices is not None:
            final = tuple(f.index_select(1, packed.unsorted_indices) for f in final)
        output = PackedSequence(data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
        return output, self._pack(final)

    def _layer_output(self, stacked):
        """A layer's outputs as PyTorch's kernel gives them: through the
        identity node named as its fused one (float32 and bfloat16 LSTMs)."""
        if self._layer_node is None or stacked.dtype not in (torch.float32, torch.bfloat16):
            return stacked
        return _composite.node(self._layer_node, stacked, lambda: _C.TensorBase.detach(stacked), lambda g: g)

    def _initial_states(self, hx, zeros, batched):
        if hx is None:
            return (zeros,)
        if not batched:
            hx = hx.unsqueeze(1)
        return (hx,)

    def _pack(self, final):
        return final[0]


class RNN(RNNBase):
    __module__ = "torch.nn.modules.rnn"

    def __init__(self, *args, nonlinearity="tanh", **kwargs):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        self.nonlinearity = nonlinearity
        super().__init__(*args, **kwargs)
        self.__dict__["nonlinearity"] = nonlinearity

    def extra_repr(self):
        s = super().extra_repr()
        if self.nonlinearity != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _cell(self, x, state, w_ih, w_hh, b_ih, b_hh):
        pre = F.linear(state[0], w_hh, b_hh) + F.linear(x, w_ih, b_ih)
        return (pre.tanh() if self.nonlinearity == "tanh" else pre.relu(),)


class LSTM(RNNBase):
    __module__ = "torch.nn.modules.rnn"
    _gates = 4
    _layer_node = "MkldnnRnnLayerBackward0"

    def _initial_states(self, hx, zeros, batched):
        if hx is None:
            return (zeros, zeros)
        h, c = hx
        if not batched:
            h, c = h.unsqueeze(1), c.unsqueeze(1)
        return (h, c)

    def _pack(self, final):
        return final

    def _cell(self, x, state, w_ih, w_hh, b_ih, b_hh):
        h, c = state
        gates = F.linear(h, w_hh, b_hh) + F.linear(x, w_ih, b_ih)
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        ingate = ingate.sigmoid()
        forgetgate = forgetgate.sigmoid()
        cellgate = cellgate.tanh()
        outgate = outgate.sigmoid()
        cy = forgetgate * c + ingate * cellgate
        hy = outgate * cy.tanh()
        return (hy, cy)


class GRU(RNNBase):
    __module__ = "torch.nn.modules.rnn"
    _gates = 3

    def _cell(self, x, state, w_ih, w_hh, b_ih, b_hh):
        h = state[0]
        i_r, i_z, i_n = F.linear(x, w_ih, b_ih).chunk(3, 1)
        h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, 1)
        reset_gate = (h_r + i_r).sigmoid()
        input_gate = (h_z + i_z).sigmoid()
        new_gate = (i_n + h_n * reset_gate).tanh()
        return ((h - new_gate) * input_gate + new_gate,)


class RNNCellBase(Module):
    """One step of a recurrent layer: PyTorch's parameters (`weight_ih`,
    `weight_hh`, `bias_ih`, `bias_hh`), initialisation and the same cell
    arithmetic as the layers above."""

    _gates = 1

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        gate_size = self._gates * hidden_size
        self.weight_ih = Parameter(torch.empty((gate_size, input_size), dtype=dtype))
        self.weight_hh = Parameter(torch.empty((gate_size, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(gate_size, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(gate_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.bias is not True:
            s += ", bias={bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def _step(self, input, states):
        """The cell on a batch (adding the batch dim to an unbatched input)."""
        if input.dim() not in (1, 2):
            raise ValueError(
                f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.dim()}D instead"
            )
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        if states is None:
            zeros = torch.zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
            states = (zeros,) * self._states
        elif not batched:
            states = tuple(s.unsqueeze(0) for s in states)
        out = self._cell(x, states, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return out if batched else tuple(o.squeeze(0) for o in out)


class RNNCell(RNNCellBase):
    __module__ = "torch.nn.modules.rnn"
    _states = 1

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, device, dtype)
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity

    _cell = RNN._cell

    def forward(self, input, hx=None):
        return self._step(input, None if hx is None else (hx,))[0]


class LSTMCell(RNNCellBase):
    __module__ = "torch.nn.modules.rnn"
    _gates = 4
    _states = 2
    _cell = LSTM._cell

    def forward(self, input, hx=None):
        return self._step(input, hx)


class GRUCell(RNNCellBase):
    __module__ = "torch.nn.modules.rnn"
    _gates = 3
    _states = 1
    _cell = GRU._cell

    def forward(self, input, hx=None):
        return self._step(input, None if hx is None else (hx,))[0]
