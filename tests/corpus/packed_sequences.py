# Variable-length batches through recurrent layers: pack_padded_sequence,
# pad_packed_sequence and pack_sequence with RNN, LSTM and GRU (one and
# two layers, bidirectional, batch_first, unsorted lengths): PyTorch's
# packed data, outputs, final states and gradients.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
x = torch.arange(12.0).reshape(3, 4, 1)
packed = pack_padded_sequence(x, [2, 3, 1, 3], enforce_sorted=False)
print(packed)
print(pad_packed_sequence(packed))
print(pad_packed_sequence(packed, batch_first=True, padding_value=-1.0, total_length=4)[0][:, :, 0])
print(pack_sequence([torch.tensor([1.0, 2.0]), torch.tensor([3.0])]))
try:
    pack_padded_sequence(x, [2, 3, 1, 3])
except RuntimeError as e:
    print(e)

seqs = [torch.randn(n, 3) for n in (4, 2, 5)]
lengths = torch.tensor([4, 2, 5])
padded = pad_sequence(seqs, batch_first=True).requires_grad_()
for model in [nn.RNN(3, 2, batch_first=True), nn.LSTM(3, 2, num_layers=2, batch_first=True),
              nn.GRU(3, 2, batch_first=True, bidirectional=True)]:
    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
    out, state = model(packed)
    unpacked, out_lengths = pad_packed_sequence(out, batch_first=True)
    h = state[0] if isinstance(state, tuple) else state
    print(type(model).__name__, tuple(out.data.shape), out.batch_sizes.tolist(), out_lengths.tolist())
    print(unpacked.detach().round(decimals=4)[:, :, 0])
    print(h.detach().round(decimals=4))
    (unpacked.sum() + h.sum()).backward()
    print(padded.grad.round(decimals=4)[:, :, 0])
    padded.grad = None

lstm = nn.LSTM(3, 2)
h0 = (torch.zeros(1, 3, 2) + 0.5, torch.zeros(1, 3, 2) - 0.5)
out, (h, c) = lstm(pack_sequence(sorted(seqs, key=len, reverse=True)), h0)
print(out.data.detach().round(decimals=4)[:4], h.detach().round(decimals=4), c.detach().round(decimals=4))
gru = nn.GRU(3, 2)
hx = torch.arange(6.0).reshape(1, 3, 2) / 10
out, h = gru(pack_sequence(seqs, enforce_sorted=False), hx)
print(h.detach().round(decimals=4), pad_packed_sequence(out)[1])
