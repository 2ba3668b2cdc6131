"""`torch.nn.utils.rnn`: `pad_sequence` (and `unpad_sequence`), which
stacks sequences of different lengths into one padded batch."""

import torch

__all__ = ["pad_sequence", "unpad_sequence"]


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
