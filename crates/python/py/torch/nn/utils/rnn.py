"""`torch.nn.utils.rnn`: `pad_sequence` (and `unpad_sequence`), which
stacks sequences of different lengths into one padded batch, and
`PackedSequence` with `pack_padded_sequence`, `pad_packed_sequence` and
`pack_sequence`, which the recurrent layers take to skip the padding."""

import torch

__all__ = ["pad_sequence", "unpad_sequence", "PackedSequence", "pack_padded_sequence", "pad_packed_sequence",
           "pack_sequence"]


class PackedSequence(tuple):
    """The time steps' valid rows one after another (`data`), how many
    sequences each step has (`batch_sizes`, longest first), and the
    permutations to and from the sequences' original order."""

    __module__ = "torch.nn.utils.rnn"

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _inverse(sorted_indices)
        return tuple.__new__(cls, (data, batch_sizes, sorted_indices, unsorted_indices))

    data = property(lambda self: self[0])
    batch_sizes = property(lambda self: self[1])
    sorted_indices = property(lambda self: self[2])
    unsorted_indices = property(lambda self: self[3])

    def __repr__(self):
        return (f"PackedSequence(data={self.data!r}, batch_sizes={self.batch_sizes!r}, "
                f"sorted_indices={self.sorted_indices!r}, unsorted_indices={self.unsorted_indices!r})")

    def to(self, *args, **kwargs):
        return PackedSequence(self.data.to(*args, **kwargs), self.batch_sizes, self.sorted_indices,
                              self.unsorted_indices)


def _inverse(permutation):
    order = permutation.tolist()
    inverse = [0] * len(order)
    for position, i in enumerate(order):
        inverse[i] = position
    return torch.tensor(inverse, dtype=torch.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    lengths = lengths.tolist() if isinstance(lengths, torch.Tensor) else [int(n) for n in lengths]
    if enforce_sorted:
        if any(a < b for a, b in zip(lengths, lengths[1:])):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
                "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement "
                "if you do not need ONNX exportability."
            )
        sorted_indices = None
        order = list(range(len(lengths)))
    else:
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
        sorted_indices = torch.tensor(order, dtype=torch.int64)
    if any(n <= 0 for n in lengths):
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    steps = input if not batch_first else input.transpose(0, 1)
    if sorted_indices is not None:
        steps = steps.index_select(1, sorted_indices.to(steps.device))
    ordered = [lengths[i] for i in order]
    batch_sizes = [sum(1 for n in ordered if n > t) for t in range(ordered[0])]
    data = torch.cat([steps[t].narrow(0, 0, b) for t, b in enumerate(batch_sizes)], 0)
    return PackedSequence(data, torch.tensor(batch_sizes, dtype=torch.int64), sorted_indices, None)


def _padded_of(sequence, padding_value=0.0, total_length=None):
    """The packed steps as a (T, B, *) tensor in sorted order, and the
    sorted lengths."""
    data, batch_sizes = sequence.data, sequence.batch_sizes.tolist()
    batch = batch_sizes[0]
    steps = len(batch_sizes) if total_length is None else total_length
    rows, start = [], 0
    for b in batch_sizes:
        step = data.narrow(0, start, b)
        if b < batch:
            fill = torch.full((batch - b,) + tuple(data.shape[1:]), padding_value, dtype=data.dtype,
                              device=data._device)
            step = torch.cat([step, fill], 0)
        rows.append(step)
        start += b
    for _ in range(steps - len(batch_sizes)):
        rows.append(torch.full((batch,) + tuple(data.shape[1:]), padding_value, dtype=data.dtype,
                               device=data._device))
    lengths = [sum(1 for b in batch_sizes if b > i) for i in range(batch)]
    return torch.stack(rows, 0), lengths


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    if total_length is not None and total_length < len(sequence.batch_sizes):
        raise ValueError(
            "Expected total_length to be at least the length of the longest sequence in input, but got "
            f"total_length={total_length} and max sequence length being {len(sequence.batch_sizes)}"
        )
    padded, lengths = _padded_of(sequence, padding_value, total_length)
    lengths = torch.tensor(lengths, dtype=torch.int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices.to(padded.device))
        lengths = lengths.index_select(0, sequence.unsorted_indices)
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.tensor([s.shape[0] for s in sequences], dtype=torch.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Sequences of shape (L_i, *) as one (max L, B, *) tensor, or
    (B, max L, *) with `batch_first`, padded with `padding_value`."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(s.shape[0] for s in sequences)
    first = sequences[0]
    shape = (len(sequences), longest) if batch_first else (longest, len(sequences))
    out = torch.full(shape + tuple(first.shape[1:]), padding_value, dtype=first.dtype, device=first._device)
    # Copied into slices of the padded tensor, as PyTorch does (its CopySlices).
    for i, s in enumerate(sequences):
        n = s.shape[0]
        start = 0 if padding_side == "right" else longest - n
        if batch_first:
            out.narrow(0, i, 1).narrow(1, start, n).copy_(s.unsqueeze(0))
        else:
            out.narrow(1, i, 1).narrow(0, start, n).copy_(s.unsqueeze(1))
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences, lengths.tolist() if hasattr(lengths, "tolist")
                                           else lengths)]
