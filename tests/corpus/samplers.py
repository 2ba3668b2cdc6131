# DataLoader with samplers (SubsetRandomSampler for a validation split,
# WeightedRandomSampler for class imbalance, BatchSampler), RandomSampler
# with replacement, ConcatDataset and a custom collate_fn: PyTorch's
# batches, draw for draw.
import torch
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, RandomSampler, SequentialSampler,
                              SubsetRandomSampler, TensorDataset, WeightedRandomSampler)

torch.manual_seed(0)
X = torch.arange(20.0).reshape(10, 2)
y = torch.tensor([0, 0, 0, 0, 0, 0, 0, 1, 1, 1])
data = TensorDataset(X, y)

train = DataLoader(data, batch_size=3, sampler=SubsetRandomSampler([0, 2, 4, 6, 8, 9]))
for xb, yb in train:
    print(xb[:, 0].tolist(), yb.tolist())
print(len(train))

weights = torch.tensor([1.0 if t == 0 else 7 / 3 for t in y.tolist()])
balanced = DataLoader(data, batch_size=4, sampler=WeightedRandomSampler(weights, num_samples=8))
for xb, yb in balanced:
    print(yb.tolist())

print(list(RandomSampler(range(6), replacement=True, num_samples=40))[:12])
print(list(RandomSampler(range(5), num_samples=12)))
g = torch.Generator().manual_seed(7)
print(list(RandomSampler(range(6), generator=g)), list(SequentialSampler(range(3))))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)),
      list(BatchSampler(range(7), 3, True)))
for batch in DataLoader(data, batch_sampler=BatchSampler(RandomSampler(data), batch_size=4, drop_last=True)):
    print(batch[1].tolist())

both = ConcatDataset([TensorDataset(torch.arange(3)), TensorDataset(torch.arange(10, 14))])
print(len(both), both[2], both[3], both[-1], both.cumulative_sizes)
for batch in DataLoader(both, batch_size=3, shuffle=True):
    print(batch)
pairs = [(i, i * i) for i in range(5)]
print(list(DataLoader(pairs, batch_size=2, collate_fn=lambda items: [sum(a for a, _ in items), [b for _, b in items]])))
print(torch.rand(2))
for bad in [lambda: DataLoader(data, shuffle=True, sampler=SequentialSampler(data)),
            lambda: DataLoader(data, batch_size=2, batch_sampler=BatchSampler(range(3), 2, False)),
            lambda: WeightedRandomSampler(weights, num_samples=0)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
