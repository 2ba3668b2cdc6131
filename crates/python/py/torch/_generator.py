"""`torch.Generator`: a seeded generator of its own. While a call made with
`generator=g` draws, `g`'s state stands in for the global one."""

import _gradscope as _C

# PyTorch's default_rng_seed_val: the seed of a new `torch.Generator()`.
_DEFAULT_SEED = 67280421310721


class Generator:
    __module__ = "torch"

    def __init__(self, device="cpu"):
        self.device = device
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed):
        self._seed = int(seed)
        self._state = _C._rng_state(self._seed & 0xFFFFFFFFFFFFFFFF)
        return self

    def initial_seed(self):
        return self._seed

    def seed(self):
        import random

        return self.manual_seed(random.getrandbits(63))._seed

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"


class _Drawing:
    """Within the block, draws come from `generator` (none: the global one)."""

    def __init__(self, generator):
        self.generator = generator

    def __enter__(self):
        if self.generator is not None:
            _C._swap_rng_state(self.generator._state)

    def __exit__(self, *args):
        if self.generator is not None:
            _C._swap_rng_state(self.generator._state)
        return False


def drawing(generator):
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(
            f"generator must be a torch.Generator, not {type(generator).__name__}"
        )
    return _Drawing(generator)
