"""NumPy's legacy random API (`np.random.seed`, `rand`, `randn`, ...), bit for bit.

NumPy's `RandomState` runs MT19937 seeded by `init_genrand` for an integer
seed, the same engine and seeding as PyTorch's CPU generator. The 32-bit
words therefore come from two engine generators seeded alike: one draws
each word modulo 2**27 (its low 27 bits), the other modulo 2**27 - 1, and
since 2**27 = 1 (mod 2**27 - 1) the high five bits are their difference.
Everything above the words (53-bit doubles, the polar method of `randn`,
masked rejection for integers, Fisher-Yates shuffles) follows
numpy/random/_mt19937 and numpy/random/src/legacy, vectorised over the
engine where the algorithm allows it.
"""

import math as _math
import operator as _operator

from .._cpu import torch

from .._dtype import float64_dtype, int64_dtype, _as_dtype
from .._ndarray import ndarray, _wrap

_LOW = 1 << 27
_MOD = (1 << 27) - 1


class _Words:
    """The MT19937 stream of 32-bit words as int64 tensors, with look-ahead."""

    def __init__(self, seed):
        self._low = torch.Generator().manual_seed(seed)
        self._mod = torch.Generator().manual_seed(seed)
        self._buffer = torch.zeros((0,), dtype=torch.int64)

    def _draw(self, n):
        low = torch.randint(0, _LOW, (n,), generator=self._low)
        mod = torch.randint(0, _MOD, (n,), generator=self._mod)
        high = mod - low
        high = torch.where(high < 0, high + _MOD, high)
        return low + high * _LOW

    def peek(self, n):
        have = self._buffer.shape[0]
        if have < n:
            more = self._draw(max(n - have, 624))
            self._buffer = torch.cat([self._buffer, more]) if have else more
        return self._buffer[:n]

    def advance(self, n):
        self._buffer = self._buffer[n:]

    def take(self, n):
        words = self.peek(n)
        self.advance(n)
        return words


def _doubles_from(words):
    """NumPy's `random_standard_uniform`: (a >> 5) * 2**26 + (b >> 6) over 2**53."""
    w = words.to(torch.float64)
    a = (w[0::2] / 32.0).floor()
    b = (w[1::2] / 64.0).floor()
    return (a * 67108864.0 + b) / 9007199254740992.0


def _size_tuple(size):
    if size is None:
        return None
    if isinstance(size, (tuple, list)):
        return tuple(_operator.index(s) for s in size)
    return (_operator.index(size),)


def _count(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _mask_of(rng):
    mask = rng
    for shift in (1, 2, 4, 8, 16, 32):
        mask |= mask >> shift
    return mask


def _low_bits(words, mask):
    """words & mask for mask = 2**k - 1, on the engine (exact in float64)."""
    if mask >= 0xFFFFFFFF:
        return words
    span = mask + 1
    return words - (words.to(torch.float64) / span).floor().to(torch.int64) * span


class RandomState:
    """`np.random.RandomState`: the legacy generator."""

    __module__ = "numpy.random"

    def __init__(self, seed=None):
        self.seed(seed)

    def __repr__(self):
        return f"RandomState(MT19937) at 0x{id(self):X}"

    def seed(self, seed=None):
        if seed is None:
            import random as _random

            seed = _random.getrandbits(32)
        elif isinstance(seed, (list, tuple, ndarray)):
            raise NotImplementedError("gradscope's numpy seeds RandomState from one integer only")
        else:
            if isinstance(seed, float):
                raise TypeError("Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'")
            seed = _operator.index(seed)
            if seed > 2**32 - 1 or seed < 0:
                raise ValueError("Seed must be between 0 and 2**32 - 1")
        self._words = _Words(seed)
        self._gauss = None

    def get_state(self, legacy=True):
        raise NotImplementedError("gradscope's numpy has no RandomState.get_state")

    # ---- uniform ------------------------------------------------------
    def _doubles(self, n):
        return _doubles_from(self._words.take(2 * n))

    def random_sample(self, size=None):
        shape = _size_tuple(size)
        if shape is None:
            return float(self._doubles(1)[0].item())
        return _wrap(self._doubles(_count(shape)).reshape(shape), float64_dtype)

    random = sample = ranf = random_sample

    def rand(self, *args):
        if not args:
            return self.random_sample()
        return self.random_sample(args)

    def uniform(self, low=0.0, high=1.0, size=None):
        shape = _size_tuple(size)
        lo, hi = _param(low), _param(high)
        span = hi - lo
        if shape is None and not isinstance(span, ndarray):
            return float(lo + span * float(self._doubles(1)[0].item()))
        shape = shape if shape is not None else span.shape
        u = _wrap(self._doubles(_count(shape)).reshape(shape), float64_dtype)
        return lo + span * u

    # ---- normal -------------------------------------------------------
    def _gaussians(self, n):
        """n draws of NumPy's `legacy_gauss` (Marsaglia's polar method) as a float64 tensor."""
        parts = []
        if n and self._gauss is not None:
            parts.append(torch.tensor([self._gauss], dtype=torch.float64))
            self._gauss = None
            n -= 1
        if n > 0:
            pairs = (n + 1) // 2
            trial = int(pairs * 1.3) + 8
            while True:
                words = self._words.peek(4 * trial)
                u = _doubles_from(words)
                x1 = 2.0 * u[0::2] - 1.0
                x2 = 2.0 * u[1::2] - 1.0
                r2 = x1 * x1 + x2 * x2
                ok = (r2 < 1.0) & (r2 != 0.0)
                accepted = ok.nonzero().cpu().reshape(-1)
                if accepted.shape[0] >= pairs:
                    break
                trial *= 2
            last = int(accepted[pairs - 1].item())
            self._words.advance(4 * (last + 1))
            use = accepted[:pairs]
            x1, x2, r2 = x1[use], x2[use], r2[use]
            f = (-2.0 * r2.log() / r2).sqrt()
            both = torch.stack([f * x2, f * x1], 1).reshape(-1)
            if n % 2:
                self._gauss = float(both[-1].item())
                both = both[:-1]
            parts.append(both)
        if not parts:
            return torch.zeros((0,), dtype=torch.float64)
        return parts[0] if len(parts) == 1 else torch.cat(parts)

    def standard_normal(self, size=None):
        shape = _size_tuple(size)
        if shape is None:
            return float(self._gaussians(1)[0].item())
        return _wrap(self._gaussians(_count(shape)).reshape(shape), float64_dtype)

    def randn(self, *args):
        if not args:
            return self.standard_normal()
        return self.standard_normal(args)

    def normal(self, loc=0.0, scale=1.0, size=None):
        shape = _size_tuple(size)
        loc, scale = _param(loc), _param(scale)
        if not isinstance(scale, ndarray) and scale < 0:
            raise ValueError("scale < 0")
        if shape is None and not isinstance(loc, ndarray) and not isinstance(scale, ndarray):
            return float(loc + scale * float(self._gaussians(1)[0].item()))
        if shape is None:
            from .._shaping import broadcast_arrays
            from .._creation import asarray

            shape = broadcast_arrays(asarray(loc), asarray(scale))[0].shape
        g = _wrap(self._gaussians(_count(shape)).reshape(shape), float64_dtype)
        return loc + scale * g

    # ---- integers -----------------------------------------------------
    def _bounded(self, rng, n):
        """n draws in [0, rng] by NumPy's masked rejection, as an int64 tensor."""
        if rng == 0:
            return torch.zeros((n,), dtype=torch.int64)
        if rng == 0xFFFFFFFF:
            return self._words.take(n)
        mask = _mask_of(rng)
        if rng < 0xFFFFFFFF:
            per, want = 1, n
        else:
            per, want = 2, n
        out = []
        while want > 0:
            trial = max(int(want * 2.05) + 8, 16)
            words = self._words.peek(per * trial)
            if per == 2:
                hi = words[0::2]
                lo = words[1::2]
                values = _low_bits(hi, mask >> 32) * (1 << 32) + lo
            else:
                values = _low_bits(words, mask)
            ok = (values <= rng).nonzero().cpu().reshape(-1)
            got = min(ok.shape[0], want)
            if got:
                last = int(ok[got - 1].item())
                out.append(values[ok[:got]])
                self._words.advance(per * (last + 1))
            else:
                self._words.advance(per * trial)
            want -= got
        return out[0] if len(out) == 1 else torch.cat(out)

    def randint(self, low, high=None, size=None, dtype=int):
        dt = _as_dtype(dtype)
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high)
        if low >= high:
            raise ValueError("low >= high" if size is None else "high <= 0" if low == 0 else "low >= high")
        shape = _size_tuple(size)
        n = 1 if shape is None else _count(shape)
        t = self._bounded(high - 1 - low, n) + low
        if shape is None:
            value = int(t[0].item())
            return value if dtype is int else dt.type(value)
        return _wrap(t.reshape(shape), dt) if dt.kind == "i" else _wrap(t.reshape(shape).to(dt._torch), dt)

    def random_integers(self, low, high=None, size=None):
        if high is None:
            low, high = 1, low
        return self.randint(low, high + 1, size)

    def _fisher_yates(self, n):
        """The swaps of NumPy's legacy shuffle of n items: [(i, j), ...]."""
        swaps = []
        words = self._words.peek(max(2 * n, 16)).tolist()
        pos = 0
        for i in range(n - 1, 0, -1):
            mask = _mask_of(i)
            while True:
                if pos >= len(words):
                    words += self._words.peek(len(words) * 2).tolist()[len(words):]
                value = words[pos] & mask
                pos += 1
                if value <= i:
                    break
            swaps.append((i, value))
        self._words.advance(pos)
        return swaps

    def shuffle(self, x):
        n = len(x)
        swaps = self._fisher_yates(n)
        if isinstance(x, ndarray):
            order = list(range(n))
            for i, j in swaps:
                order[i], order[j] = order[j], order[i]
            x[...] = x[order]
            return None
        for i, j in swaps:
            x[i], x[j] = x[j], x[i]
        return None

    def permutation(self, x):
        from .._creation import arange, asarray

        if isinstance(x, int) or (hasattr(type(x), "_np_dtype") and type(x)._np_dtype.kind == "i"):
            arr = arange(int(x))
            self.shuffle(arr)
            return arr
        arr = asarray(x)
        if arr.ndim < 1:
            raise IndexError("x must be an integer or at least 1-dimensional")
        if arr.ndim == 1:
            arr = arr.copy()
            self.shuffle(arr)
            return arr
        idx = arange(arr.shape[0])
        self.shuffle(idx)
        return arr[idx]

    def choice(self, a, size=None, replace=True, p=None):
        from .._creation import asarray

        if isinstance(a, int) or (hasattr(type(a), "_np_dtype") and type(a)._np_dtype.kind == "i"):
            pop = int(a)
            if pop <= 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
            values = None
        else:
            values = asarray(a)
            if values.ndim != 1:
                raise ValueError("a must be 1-dimensional")
            pop = values.shape[0]
            if pop == 0:
                raise ValueError("'a' cannot be empty unless no samples are taken")
        shape = _size_tuple(size)
        n = 1 if shape is None else _count(shape)
        if p is not None:
            probs = asarray(p, dtype=float64_dtype)
            if probs.shape[0] != pop:
                raise ValueError("'a' and 'p' must have same size")
        if replace:
            if p is not None:
                cdf = probs._t.cumsum(0)
                cdf = cdf / cdf[-1]
                u = self._doubles(n)
                idx = torch.searchsorted(cdf, u, right=True)
            else:
                idx = self._bounded(pop - 1, n)
        else:
            if n > pop:
                raise ValueError("Cannot take a larger sample than population when 'replace=False'")
            if p is not None:
                raise NotImplementedError("gradscope's numpy has no choice(replace=False, p=...)")
            idx = self.permutation(pop)._t[:n]
        if shape is None:
            i = int(idx[0].item())
            return i if values is None else values[i]
        idx = idx.reshape(shape)
        if values is None:
            return _wrap(idx, int64_dtype)
        return _wrap(values._t[idx], values._dtype)

    def exponential(self, scale=1.0, size=None):
        shape = _size_tuple(size)
        n = 1 if shape is None else _count(shape)
        u = self._doubles(n)
        t = -(-u).log1p() * scale
        if shape is None:
            return float(t[0].item())
        return _wrap(t.reshape(shape), float64_dtype)

    def _next_double(self):
        return float(self._doubles(1)[0].item())

    def _ints(self, size, draw):
        shape = _size_tuple(size)
        if shape is None:
            return draw()
        return _wrap(torch.tensor([draw() for _ in range(_count(shape))], dtype=torch.int64).reshape(shape),
                     int64_dtype)

    def _floats(self, size, draw):
        shape = _size_tuple(size)
        if shape is None:
            return draw()
        return _wrap(torch.tensor([draw() for _ in range(_count(shape))], dtype=torch.float64).reshape(shape),
                     float64_dtype)

    def binomial(self, n, p, size=None):
        """`np.random.binomial`: NumPy's inversion (n * min(p, 1 - p) <= 30) over MT19937."""
        from ._generator import binomial_draw

        n, p = int(n), float(p)
        if n < 0:
            raise ValueError("n < 0")
        if not 0.0 <= p <= 1.0:
            raise ValueError("p < 0, p > 1 or p is NaN")
        return self._ints(size, lambda: binomial_draw(self._next_double, n, p))

    def poisson(self, lam=1.0, size=None):
        """`np.random.poisson`: NumPy's random_poisson over MT19937."""
        from ._generator import poisson_draw

        lam = float(lam)
        if lam < 0 or lam != lam:
            raise ValueError("lam < 0 or lam is NaN")
        return self._ints(size, lambda: poisson_draw(self._next_double, lam))

    def laplace(self, loc=0.0, scale=1.0, size=None):
        """`np.random.laplace`: NumPy's random_laplace over MT19937."""
        from ._generator import laplace_draw

        loc, scale = float(loc), float(scale)
        if scale < 0:
            raise ValueError("scale < 0")
        return self._floats(size, lambda: laplace_draw(self._next_double, loc, scale))

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        """`np.random.lognormal`: exp of the legacy normal."""
        import math

        mean, sigma = float(mean), float(sigma)
        if sigma < 0:
            raise ValueError("sigma < 0")
        shape = _size_tuple(size)
        if shape is None:
            return math.exp(mean + sigma * float(self._gaussians(1)[0].item()))
        g = self._gaussians(_count(shape)).reshape(shape)
        return _wrap(_exp_each(mean + sigma * g), float64_dtype)


def _exp_each(t):
    """exp of each element by Python's math.exp (C's exp, as NumPy's legacy lognormal)."""
    import math

    return torch.tensor([math.exp(v) for v in t.reshape(-1).tolist()], dtype=torch.float64).reshape(tuple(t.shape))


def _param(x):
    if isinstance(x, (list, tuple)):
        from .._creation import asarray

        return asarray(x, dtype=float64_dtype)
    if isinstance(x, ndarray):
        return x
    return float(x)


_rand = RandomState()

seed = _rand.seed
get_state = _rand.get_state


def _global(name):
    def function(*args, **kwargs):
        return getattr(_rand, name)(*args, **kwargs)

    function.__name__ = name
    return function


for _name in ("random_sample", "random", "sample", "ranf", "rand", "uniform", "standard_normal",
              "randn", "normal", "randint", "random_integers", "shuffle", "permutation", "choice",
              "exponential", "binomial", "poisson", "laplace", "lognormal"):
    globals()[_name] = _global(_name)


def seed(seed=None):
    """`np.random.seed`: reseeds the global RandomState."""
    _rand.seed(seed)
