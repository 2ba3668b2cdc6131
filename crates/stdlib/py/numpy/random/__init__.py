"""`np.random`: the legacy functions (MT19937) and `default_rng` (PCG64)."""

from .mtrand import (  # noqa: F401
    RandomState, seed, get_state, random_sample, random, sample, ranf, rand, uniform,
    standard_normal, randn, normal, randint, random_integers, shuffle, permutation, choice,
    exponential, binomial, poisson, laplace, lognormal,
)
from ._generator import Generator, PCG64, SeedSequence, default_rng  # noqa: F401
