"""`torch.utils.data.sampler`."""

from . import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
               WeightedRandomSampler)

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler",
           "WeightedRandomSampler"]
