"""`np.random.default_rng`: NumPy's `Generator` over PCG64, seeded by `SeedSequence`.

PCG64 (XSL-RR 128/64) and SeedSequence's hashing are written over Python
integers, exactly as numpy/random/_pcg64 and bit_generator define them, so
`random`, `integers` (Lemire's bounded method), `choice` and `permutation`
give NumPy's numbers. `normal` is NumPy's 256-box ziggurat: the box
widths, which scale every draw, are NumPy's (`_ziggurat.py`, read back
from NumPy's own draws); the thresholds and heights, which only decide
rare rejections, come from Marsaglia and Tsang's recurrence. Draws run
one at a time on the host: this generator suits the small draws programs
make, not millions of numbers.
"""

import math as _math
import operator as _operator

from .._cpu import torch

from .._dtype import float64_dtype, int64_dtype, _as_dtype
from .._ndarray import ndarray, _wrap

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF
_M128 = (1 << 128) - 1
_MULT = (2549297995355413924 << 64) + 4865540595714422341


class SeedSequence:
    """`np.random.SeedSequence` for integer entropy (no spawn keys)."""

    __module__ = "numpy.random"

    def __init__(self, entropy=None):
        if entropy is None:
            import random as _random

            entropy = _random.getrandbits(128)
        self.entropy = entropy
        words = []
        e = int(entropy)
        if e < 0:
            raise ValueError("expected non-negative integer")
        while e > 0:
            words.append(e & _M32)
            e >>= 32
        words = words or [0]
        self.pool = self._mix(words)

    @staticmethod
    def _mix(entropy):
        hash_const = [0x43B0D7E5]

        def hashmix(value):
            value ^= hash_const[0]
            hash_const[0] = (hash_const[0] * 0x931E8875) & _M32
            value = (value * hash_const[0]) & _M32
            return value ^ (value >> 16)

        def mix(x, y):
            result = (0xCA01F9DD * x - 0x4973F715 * y) & _M32
            return result ^ (result >> 16)

        pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(4)]
        for src in range(4):
            for dst in range(4):
                if src != dst:
                    pool[dst] = mix(pool[dst], hashmix(pool[src]))
        for src in range(4, len(entropy)):
            for dst in range(4):
                pool[dst] = mix(pool[dst], hashmix(entropy[src]))
        return pool

    def generate_state(self, n_words, dtype=None):
        wide = dtype is not None and "64" in str(getattr(dtype, "name", dtype))
        count = n_words * 2 if wide else n_words
        out = []
        hash_const = 0x8B51F9DD
        for i in range(count):
            value = self.pool[i % 4] ^ hash_const
            hash_const = (hash_const * 0x58F38DED) & _M32
            value = (value * hash_const) & _M32
            out.append(value ^ (value >> 16))
        if wide:
            return [out[2 * i] | (out[2 * i + 1] << 32) for i in range(n_words)]
        return out


class PCG64:
    """`np.random.PCG64`."""

    __module__ = "numpy.random"

    def __init__(self, seed=None):
        seq = seed if isinstance(seed, SeedSequence) else SeedSequence(seed)
        v = seq.generate_state(4, "uint64")
        initstate = (v[0] << 64) | v[1]
        initseq = (v[2] << 64) | v[3]
        self._inc = ((initseq << 1) | 1) & _M128
        self._state = 0
        self._step()
        self._state = (self._state + initstate) & _M128
        self._step()
        self._has32 = False
        self._word32 = 0

    def _step(self):
        self._state = (self._state * _MULT + self._inc) & _M128

    def next64(self):
        self._state = (self._state * _MULT + self._inc) & _M128
        s = self._state
        x = ((s >> 64) ^ s) & _M64
        r = s >> 122
        return ((x >> r) | (x << ((64 - r) & 63))) & _M64

    def next32(self):
        if self._has32:
            self._has32 = False
            return self._word32
        value = self.next64()
        self._has32 = True
        self._word32 = value >> 32
        return value & _M32

    def next_double(self):
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)


def _ziggurat_tables():
    from ._ziggurat import WIDTHS

    r = 3.6541528853610088
    v = 0.004928673233974652
    m1 = 2.0 ** 52
    dn = tn = r
    q = v / _math.exp(-0.5 * dn * dn)
    ki = [0] * 256
    wi = [0.0] * 256
    fi = [0.0] * 256
    ki[0] = int((dn / q) * m1)
    wi[0] = q / m1
    wi[255] = dn / m1
    fi[0] = 1.0
    fi[255] = _math.exp(-0.5 * dn * dn)
    for i in range(254, 0, -1):
        dn = _math.sqrt(-2.0 * _math.log(v / dn + _math.exp(-0.5 * dn * dn)))
        ki[i + 1] = int((dn / tn) * m1)
        tn = dn
        fi[i] = _math.exp(-0.5 * dn * dn)
        wi[i] = dn / m1
    return ki, list(WIDTHS), fi


_TABLES = None
_EXP_TABLES = None
_ZIG_EXP_R = 7.69711747013104972


def _exp_tables():
    """(ke, we, fe) of NumPy's exponential ziggurat: the widths read back
    from NumPy's draws (`_ziggurat.py`), thresholds and heights from Marsaglia
    and Tsang's recurrence, as for the normal's."""
    from ._ziggurat import EXP_WIDTHS

    de, ve, m2 = 7.697117470131487, 3.949659822581572e-3, 2.0 ** 53
    q = ve / _math.exp(-de)
    ke, fe = [0] * 256, [0.0] * 256
    ke[0], fe[0], fe[255] = int((de / q) * m2), 1.0, _math.exp(-de)
    te = de
    for i in range(254, 0, -1):
        de = -_math.log(ve / de + _math.exp(-de))
        ke[i + 1] = int((de / te) * m2)
        te = de
        fe[i] = _math.exp(-de)
    return ke, list(EXP_WIDTHS), fe
_ZIG_R = 3.6541528853610088
_ZIG_INV_R = 0.27366123732975828


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


class Generator:
    """`np.random.Generator`."""

    __module__ = "numpy.random"

    def __init__(self, bit_generator):
        self.bit_generator = bit_generator

    def __repr__(self):
        return "Generator(PCG64)"

    def _fill(self, shape, draw, dtype):
        if shape is None:
            return draw()
        values = [draw() for _ in range(_count(shape))]
        return _wrap(torch.tensor(values, dtype=dtype._torch).reshape(shape), dtype)

    def random(self, size=None, dtype=float64_dtype, out=None):
        bg = self.bit_generator
        dt = _as_dtype(dtype)
        if dt.name == "float32":
            # NumPy's next_float: the top 24 bits of a 32-bit draw.
            draw = lambda: (bg.next32() >> 8) * (1.0 / 16777216.0)  # noqa: E731
            shape = _size_tuple(size)
            if shape is None:
                return draw()  # a Python float, as NumPy returns
            return self._fill(shape, draw, dt)
        if dt is not float64_dtype:
            raise TypeError(f"Unsupported dtype {dt!r} for random")
        return self._fill(_size_tuple(size), bg.next_double, float64_dtype)

    def _poisson(self, lam):
        return poisson_draw(self.bit_generator.next_double, lam)

    def poisson(self, lam=1.0, size=None):
        """`Generator.poisson`, NumPy's draws for the same seed."""
        lam = float(lam)
        if lam < 0 or lam != lam:
            raise ValueError("lam < 0 or lam is NaN")
        shape = _size_tuple(size)
        if shape is None:
            return self._poisson(lam)
        return self._fill(shape, lambda: self._poisson(lam), int64_dtype)

    def _binomial(self, n, p):
        return binomial_draw(self.bit_generator.next_double, n, p)

    def binomial(self, n, p, size=None):
        """`Generator.binomial`, NumPy's draws for the same seed where
        n * min(p, 1 - p) <= 30 (NumPy's inversion)."""
        n, p = int(n), float(p)
        if n < 0:
            raise ValueError("n < 0")
        if not 0.0 <= p <= 1.0:
            raise ValueError("p < 0, p > 1 or p is NaN")
        shape = _size_tuple(size)
        if shape is None:
            return self._binomial(n, p)
        return self._fill(shape, lambda: self._binomial(n, p), int64_dtype)

    def _lemire(self, rng):
        """One draw in [0, rng] by Lemire's method, as NumPy's bounded integers."""
        bg = self.bit_generator
        if rng == 0:
            return 0
        if rng <= _M32:
            if rng == _M32:
                return bg.next32()
            excl = rng + 1
            m = bg.next32() * excl
            leftover = m & _M32
            if leftover < excl:
                threshold = (_M32 - rng) % excl
                while leftover < threshold:
                    m = bg.next32() * excl
                    leftover = m & _M32
            return m >> 32
        if rng == _M64:
            return bg.next64()
        excl = rng + 1
        m = bg.next64() * excl
        leftover = m & _M64
        if leftover < excl:
            threshold = (_M64 - rng) % excl
            while leftover < threshold:
                m = bg.next64() * excl
                leftover = m & _M64
        return m >> 64

    def integers(self, low, high=None, size=None, dtype=int64_dtype, endpoint=False):
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high)
        if not endpoint:
            high -= 1
        if low > high:
            raise ValueError("low >= high" if not endpoint else "low > high")
        rng = high - low
        dt = _as_dtype(dtype)
        shape = _size_tuple(size)
        if shape is None:
            return dt.type(low + self._lemire(rng))
        return self._fill(shape, lambda: low + self._lemire(rng), dt)

    def standard_normal(self, size=None, dtype=float64_dtype, out=None):
        return self._fill(_size_tuple(size), self._gauss, float64_dtype)

    def normal(self, loc=0.0, scale=1.0, size=None):
        shape = _size_tuple(size)
        if shape is None and not isinstance(loc, ndarray) and not isinstance(scale, ndarray):
            return float(loc) + float(scale) * self._gauss()
        g = self.standard_normal(shape)
        return loc + scale * g

    def _gauss(self):
        global _TABLES
        if _TABLES is None:
            _TABLES = _ziggurat_tables()
        ki, wi, fi = _TABLES
        bg = self.bit_generator
        while True:
            r = bg.next64()
            idx = r & 0xFF
            r >>= 8
            sign = r & 1
            rabs = (r >> 1) & 0x000FFFFFFFFFFFFF
            x = rabs * wi[idx]
            if sign:
                x = -x
            if rabs < ki[idx]:
                return x
            if idx == 0:
                while True:
                    xx = -_ZIG_INV_R * _math.log1p(-bg.next_double())
                    yy = -_math.log1p(-bg.next_double())
                    if yy + yy > xx * xx:
                        return -(_ZIG_R + xx) if (rabs >> 8) & 1 else _ZIG_R + xx
            elif (fi[idx - 1] - fi[idx]) * bg.next_double() + fi[idx] < _math.exp(-0.5 * x * x):
                return x

    def _exponential(self):
        global _EXP_TABLES
        if _EXP_TABLES is None:
            _EXP_TABLES = _exp_tables()
        ke, we, fe = _EXP_TABLES
        bg = self.bit_generator
        while True:
            ri = bg.next64() >> 3
            idx = ri & 0xFF
            ri >>= 8
            x = ri * we[idx]
            if ri < ke[idx]:
                return x
            if idx == 0:
                return _ZIG_EXP_R - _math.log1p(-bg.next_double())
            if (fe[idx - 1] - fe[idx]) * bg.next_double() + fe[idx] < _math.exp(-x):
                return x

    def standard_exponential(self, size=None, dtype=float64_dtype, method="zig", out=None):
        """`Generator.standard_exponential`: NumPy's 256-box ziggurat."""
        if _as_dtype(dtype) is not float64_dtype:
            raise NotImplementedError("gradscope's numpy draws float64 exponentials only")
        return self._fill(_size_tuple(size), self._exponential, float64_dtype)

    def exponential(self, scale=1.0, size=None):
        """`Generator.exponential`: scale times a standard exponential draw."""
        if isinstance(scale, ndarray) or isinstance(scale, (list, tuple)):
            from .._creation import asarray

            scale = asarray(scale, dtype=float64_dtype)
            if bool((scale < 0).any()):
                raise ValueError("scale < 0")
            shape = _size_tuple(size) or tuple(scale.shape)
            return scale * self.standard_exponential(shape)
        scale = float(scale)
        if scale < 0:
            raise ValueError("scale < 0")
        shape = _size_tuple(size)
        if shape is None:
            return scale * self._exponential()
        return _wrap(self.standard_exponential(shape)._t * scale, float64_dtype)

    def _standard_gamma(self, shape):
        """NumPy's random_standard_gamma: Marsaglia and Tsang above 1,
        Johnk-style rejection with an exponential below."""
        bg = self.bit_generator
        if shape == 1.0:
            return self._exponential()
        if shape == 0.0:
            return 0.0
        if shape < 1.0:
            while True:
                u = bg.next_double()
                v = self._exponential()
                if u <= 1.0 - shape:
                    x = u ** (1.0 / shape)
                    if x <= v:
                        return x
                else:
                    y = -_math.log((1 - u) / shape)
                    x = (1.0 - shape + shape * y) ** (1.0 / shape)
                    if x <= v + y:
                        return x
        b = shape - 1.0 / 3.0
        c = 1.0 / _math.sqrt(9 * b)
        while True:
            while True:
                x = self._gauss()
                v = 1.0 + c * x
                if v > 0.0:
                    break
            v = v * v * v
            u = bg.next_double()
            if u < 1.0 - 0.0331 * (x * x) * (x * x):
                return b * v
            if (_math.log(u) if u > 0 else -_math.inf) < 0.5 * x * x + b * (1.0 - v + _math.log(v)):
                return b * v

    def _draws(self, size, draw):
        shape = _size_tuple(size)
        if shape is None:
            return draw()
        return self._fill(shape, draw, float64_dtype)

    def standard_gamma(self, shape, size=None, dtype=float64_dtype, out=None):
        """`Generator.standard_gamma`, NumPy's draws for the same seed."""
        shape = float(shape)
        if shape < 0:
            raise ValueError("shape < 0")
        return self._draws(size, lambda: self._standard_gamma(shape))

    def gamma(self, shape, scale=1.0, size=None):
        """`Generator.gamma`: scale times a standard gamma draw."""
        shape, scale = float(shape), float(scale)
        if shape < 0:
            raise ValueError("shape < 0")
        if scale < 0:
            raise ValueError("scale < 0")
        return self._draws(size, lambda: scale * self._standard_gamma(shape))

    def chisquare(self, df, size=None):
        """`Generator.chisquare`: 2 * standard_gamma(df / 2)."""
        df = float(df)
        if df <= 0:
            raise ValueError("df <= 0")
        return self._draws(size, lambda: 2.0 * self._standard_gamma(df / 2.0))

    def _beta(self, a, b):
        bg = self.bit_generator
        if a <= 1.0 and b <= 1.0:
            while True:
                u, v = bg.next_double(), bg.next_double()
                x, y = u ** (1.0 / a), v ** (1.0 / b)
                xpy = x + y
                if xpy <= 1.0 and u + v > 0.0:
                    if xpy > 0:
                        return x / xpy
                    log_x, log_y = _math.log(u) / a, _math.log(v) / b
                    log_m = max(log_x, log_y)
                    log_x, log_y = log_x - log_m, log_y - log_m
                    return _math.exp(log_x - _math.log(_math.exp(log_x) + _math.exp(log_y)))
        ga = self._standard_gamma(a)
        gb = self._standard_gamma(b)
        return ga / (ga + gb)

    def beta(self, a, b, size=None):
        """`Generator.beta`: Johnk's method when both are at most 1, else two gammas."""
        a, b = float(a), float(b)
        if a <= 0:
            raise ValueError("a <= 0")
        if b <= 0:
            raise ValueError("b <= 0")
        return self._draws(size, lambda: self._beta(a, b))

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        """`Generator.lognormal`: exp of a normal draw."""
        mean, sigma = float(mean), float(sigma)
        if sigma < 0:
            raise ValueError("sigma < 0")
        return self._draws(size, lambda: _math.exp(mean + sigma * self._gauss()))

    def laplace(self, loc=0.0, scale=1.0, size=None):
        """`Generator.laplace`, NumPy's inversion of one uniform draw."""
        loc, scale = float(loc), float(scale)
        if scale < 0:
            raise ValueError("scale < 0")
        bg = self.bit_generator

        def draw():
            return laplace_draw(bg.next_double, loc, scale)

        return self._draws(size, draw)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """`Generator.logistic`: loc + scale * log(u / (1 - u))."""
        loc, scale = float(loc), float(scale)
        if scale < 0:
            raise ValueError("scale < 0")
        bg = self.bit_generator

        def draw():
            u = bg.next_double()
            while u <= 0.0:
                u = bg.next_double()
            return loc + scale * _math.log(u / (1.0 - u))

        return self._draws(size, draw)

    def geometric(self, p, size=None):
        """`Generator.geometric`: NumPy's search from p >= 1/3, its inversion below."""
        p = float(p)
        if not 0.0 < p <= 1.0:
            raise ValueError("p <= 0, p > 1 or p contains NaNs")
        bg = self.bit_generator

        def draw():
            if p >= 0.333333333333333333333333:
                x, total, prod, q = 1, p, p, 1.0 - p
                u = bg.next_double()
                while u > total:
                    prod *= q
                    total += prod
                    x += 1
                return x
            z = _math.ceil(-self._exponential() / _math.log1p(-p))
            return 9223372036854775807 if z >= 9.223372036854776e18 else int(z)

        shape = _size_tuple(size)
        if shape is None:
            return draw()
        return self._fill(shape, draw, int64_dtype)

    def uniform(self, low=0.0, high=1.0, size=None):
        bg = self.bit_generator
        span = high - low
        return self._fill(_size_tuple(size), lambda: low + span * bg.next_double(), float64_dtype)

    def _interval(self, maximum):
        """NumPy's `random_interval`: a draw in [0, maximum] by masked rejection."""
        if maximum == 0:
            return 0
        mask = maximum
        for shift in (1, 2, 4, 8, 16, 32):
            mask |= mask >> shift
        bg = self.bit_generator
        if maximum <= _M32:
            while True:
                value = bg.next32() & mask
                if value <= maximum:
                    return value
        while True:
            value = bg.next64() & mask
            if value <= maximum:
                return value

    def shuffle(self, x, axis=0):
        n = len(x)
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self._interval(i)
            order[i], order[j] = order[j], order[i]
        if isinstance(x, ndarray):
            x[...] = x[order]
        else:
            items = list(x)
            for i, j in enumerate(order):
                x[i] = items[j]

    def permuted(self, x, *, axis=None, out=None):
        """`Generator.permuted`: a shuffled copy, the whole array flattened
        when axis is None, else each 1-d lane along the axis in C order."""
        from .._creation import asarray
        from .._shaping import moveaxis
        import itertools

        arr = asarray(x).copy() if out is None else out
        if out is not None:
            out[...] = asarray(x)
        if axis is None:
            flat = arr.reshape(-1)
            self.shuffle(flat)
            arr[...] = flat.reshape(arr.shape)
            return arr
        moved = moveaxis(arr, axis, -1)
        for idx in itertools.product(*map(range, moved.shape[:-1])):
            lane = moved[idx].copy()
            self.shuffle(lane)
            moved[idx] = lane
        return arr

    def permutation(self, x, axis=0):
        from .._creation import arange, asarray

        if isinstance(x, int):
            arr = arange(x)
            self.shuffle(arr)
            return arr
        arr = asarray(x).copy()
        self.shuffle(arr)
        return arr

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        from .._creation import asarray, arange

        if isinstance(a, int):
            pop, values = a, None
        else:
            values = asarray(a)
            pop = values.shape[0]
        shape = _size_tuple(size)
        n = 1 if shape is None else _count(shape)
        if p is not None:
            probs = asarray(p, dtype=float64_dtype)._t
            cdf = probs.cumsum(0)
            cdf = cdf / cdf[-1]
            u = torch.tensor([self.bit_generator.next_double() for _ in range(n)], dtype=torch.float64)
            idx = torch.searchsorted(cdf, u, right=True).tolist()
        elif replace:
            idx = [self._lemire(pop - 1) for _ in range(n)]
        else:
            if n > pop:
                raise ValueError("Cannot take a larger sample than population when replace is False")
            if pop > 10000 and n > pop // (50 if shuffle else 20):
                data = list(range(pop))
                for i in range(pop - 1, max(pop - n, 1) - 1, -1):
                    j = self._lemire(i)
                    data[i], data[j] = data[j], data[i]
                idx = data[pop - n:]
            else:
                # Floyd's algorithm, then NumPy's shuffle of the picks.
                seen = set()
                idx = []
                for j in range(pop - n, pop):
                    val = self._lemire(j)
                    if val in seen:
                        val = j
                    seen.add(val)
                    idx.append(val)
                if shuffle:
                    for i in range(n - 1, 0, -1):
                        j = self._lemire(i)
                        idx[i], idx[j] = idx[j], idx[i]
        if shape is None:
            return int64_dtype.type(idx[0]) if values is None else values[idx[0]]
        t = torch.tensor(idx, dtype=torch.int64).reshape(shape)
        if values is None:
            return _wrap(t, int64_dtype)
        return _wrap(values._t[t], values._dtype)


_LOGGAM = (8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04, -5.952380952380952e-04,
           8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03, -2.955065359477124e-02,
           1.796443723688307e-01, -1.39243221690590e00)


def _loggam(x):
    """log(gamma(x)) by NumPy's random_loggam series (Stirling, shifted past 7)."""
    if x in (1.0, 2.0):
        return 0.0
    n = int(7 - x) if x < 7.0 else 0
    x0 = x + n
    x2 = (1.0 / x0) * (1.0 / x0)
    gl0 = _LOGGAM[9]
    for k in range(8, -1, -1):
        gl0 *= x2
        gl0 += _LOGGAM[k]
    gl = gl0 / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * _math.log(x0) - x0
    if x < 7.0:
        for _ in range(n):
            gl -= _math.log(x0 - 1.0)
            x0 -= 1.0
    return gl


def poisson_draw(next_double, lam):
    """NumPy's random_poisson over a stream of doubles (Generator's and, as
    legacy_random_poisson, RandomState's): multiplication below 10, PTRS above."""
    if lam >= 10:
        slam, loglam = _math.sqrt(lam), _math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = next_double() - 0.5
            v = next_double()
            us = 0.5 - abs(u)
            k = int(_math.floor((2 * a / us + b) * u + lam + 0.43))
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            log_v = _math.log(v) if v > 0 else -_math.inf
            if log_v + _math.log(invalpha) - _math.log(a / (us * us) + b) <= -lam + k * loglam - _loggam(k + 1):
                return k
    if lam == 0:
        return 0
    enlam = _math.exp(-lam)
    x, prod = 0, 1.0
    while True:
        prod *= next_double()
        if prod > enlam:
            x += 1
        else:
            return x


def binomial_draw(next_double, n, p):
    """NumPy's random_binomial over a stream of doubles, by its inversion
    (n * min(p, 1 - p) <= 30); its BTPE for larger means is refused."""
    if n == 0 or p == 0.0:
        return 0
    q = p if p <= 0.5 else 1.0 - p
    if q * n > 30.0:
        raise NotImplementedError("gradscope's numpy draws binomials by inversion only (n * min(p, 1 - p) <= 30); "
                                  "NumPy's BTPE for larger means is missing")
    qq = 1.0 - q
    qn = _math.exp(n * _math.log(qq))
    np_ = n * q
    bound = int(min(n, np_ + 10.0 * _math.sqrt(np_ * qq + 1)))
    x, px = 0, qn
    u = next_double()
    while u > px:
        x += 1
        if x > bound:
            x, px = 0, qn
            u = next_double()
        else:
            u -= px
            px = ((n - x + 1) * q * px) / (x * qq)
    return x if p <= 0.5 else n - x


def laplace_draw(next_double, loc, scale):
    """NumPy's random_laplace: the inverse CDF of one double (0.0 redrawn)."""
    while True:
        u = next_double()
        if u >= 0.5:
            return loc - scale * _math.log(2.0 - u - u)
        if u > 0.0:
            return loc + scale * _math.log(u + u)


def default_rng(seed=None):
    """`np.random.default_rng`: a Generator over PCG64."""
    if isinstance(seed, Generator):
        return seed
    return Generator(PCG64(seed))
