"""`torch.utils.data`: `Dataset`, `TensorDataset`, `DataLoader` (batches
in order, or shuffled by `torch.randperm` from the seeded generator)."""

import _gradscope as _C

import torch
from torch._generator import drawing

__all__ = ["Dataset", "TensorDataset", "DataLoader", "random_split"]


class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


def _collate(items):
    first = items[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(items)
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        return torch.tensor(items)
    if isinstance(first, (tuple, list)):
        return [_collate(list(group)) for group in zip(*items)]
    return items


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, generator=None, **kwargs):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.collate_fn = collate_fn or _collate
        self.generator = generator

    def _order(self):
        n = len(self.dataset)
        if self.shuffle and self.generator is not None:
            with drawing(self.generator):
                return _C._randperm(n, None).tolist()
        if self.shuffle:
            # RandomSampler: a seed drawn from the global generator, then a
            # permutation from a generator seeded with it.
            return _C._randperm(n, _C._random_int64()).tolist()
        return list(range(n))

    def __iter__(self):
        # Each pass draws the workers' base seed first, as PyTorch's
        # iterator does, whether or not it shuffles.
        with drawing(self.generator):
            _C._random_int64()
        order = self._order()
        size = self.batch_size
        for start in range(0, len(order), size):
            idx = order[start:start + size]
            if len(idx) < size and self.drop_last:
                break
            if isinstance(self.dataset, TensorDataset):
                index = torch.tensor(idx)
                yield [t[index] for t in self.dataset.tensors]
            else:
                yield self.collate_fn([self.dataset[i] for i in idx])

    def __len__(self):
        n = len(self.dataset)
        if self.drop_last:
            return n // self.batch_size
        return (n + self.batch_size - 1) // self.batch_size


def random_split(dataset, lengths, generator=None):
    if all(isinstance(n, float) for n in lengths) and abs(sum(lengths) - 1) < 1e-9:
        counts = [int(len(dataset) * f) for f in lengths]
        for i in range(len(dataset) - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    with drawing(generator):
        perm = _C._randperm(len(dataset), None).tolist()
    out, start = [], 0
    for n in lengths:
        out.append(Subset(dataset, perm[start:start + n]))
        start += n
    return out


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)
