"""Tick locating and formatting, as matplotlib.ticker: `AutoLocator`
(MaxNLocator with nbins='auto' and steps 1, 2, 2.5, 5, 10) and
`ScalarFormatter` on linear axes, `LogLocator` and
`LogFormatterSciNotation` on log axes, and the fixed, multiple, null,
function and format-string variants programs set by hand."""

import itertools
import math

from . import rcParams
from .transforms import nonsingular as _nonsingular

__all__ = ["Locator", "MaxNLocator", "AutoLocator", "LogLocator", "FixedLocator",
           "NullLocator", "MultipleLocator", "LinearLocator", "AutoMinorLocator",
           "IndexLocator", "Formatter", "ScalarFormatter", "LogFormatter",
           "LogFormatterMathtext", "LogFormatterSciNotation", "FixedFormatter",
           "NullFormatter", "FuncFormatter", "FormatStrFormatter",
           "StrMethodFormatter", "PercentFormatter", "scale_range"]


def _np_round(x, decimals):
    """NumPy's `round`: scale, round half to even, unscale."""
    if decimals >= 0:
        scale = 10.0 ** decimals
        return round(x * scale) / scale
    scale = 10.0 ** -decimals
    return round(x / scale) * scale


def _is_close_to_int(x):
    return math.isclose(x, round(x), rel_tol=1e-09, abs_tol=1e-8) if math.isfinite(x) else False


class _DummyAxis:
    """Stands in for an axis when a locator or formatter is used alone."""

    def __init__(self, minpos=0):
        self._view = (-math.inf, math.inf)
        self._minpos = minpos

    def get_view_interval(self):
        return self._view

    def set_view_interval(self, vmin, vmax):
        self._view = (vmin, vmax)

    def get_minpos(self):
        return self._minpos

    def get_tick_space(self):
        return 9


class TickHelper:
    axis = None

    def set_axis(self, axis):
        self.axis = axis

    def create_dummy_axis(self, **kwargs):
        if self.axis is None:
            self.axis = _DummyAxis(**kwargs)


class Locator(TickHelper):
    MAXTICKS = 1000

    def tick_values(self, vmin, vmax):
        raise NotImplementedError("Derived must override")

    def set_params(self, **kwargs):
        pass

    def __call__(self):
        vmin, vmax = self.axis.get_view_interval()
        return self.tick_values(vmin, vmax)

    def raise_if_exceeds(self, locs):
        return locs

    def nonsingular(self, v0, v1):
        return _nonsingular(v0, v1, expander=0.05)

    def view_limits(self, vmin, vmax):
        return _nonsingular(vmin, vmax)


class _EdgeInteger:
    """Tick multiples of a step, with slack for floating point (`_Edge_integer`)."""

    def __init__(self, step, offset):
        if step <= 0:
            raise ValueError("'step' must be positive")
        self.step = step
        self._offset = abs(offset)

    def closeto(self, ms, edge):
        if self._offset > 0:
            digits = math.log10(self._offset / self.step)
            tol = max(1e-10, 10 ** (digits - 12))
            tol = min(0.4999, tol)
        else:
            tol = 1e-10
        return abs(ms - edge) < tol

    def le(self, x):
        d, m = divmod(x, self.step)
        if self.closeto(m / self.step, 1):
            return d + 1
        return d

    def ge(self, x):
        d, m = divmod(x, self.step)
        if self.closeto(m / self.step, 0):
            return d
        return d + 1


def scale_range(vmin, vmax, n=1, threshold=100):
    dv = abs(vmax - vmin)
    meanv = (vmax + vmin) / 2
    if abs(meanv) / dv < threshold:
        offset = 0
    else:
        offset = math.copysign(10 ** (math.log10(abs(meanv)) // 1), meanv)
    scale = 10 ** (math.log10(dv / n) // 1)
    return scale, offset


class MaxNLocator(Locator):
    """At most nbins + 1 evenly spaced ticks at nice multiples."""

    default_params = dict(nbins=10, steps=None, integer=False, symmetric=False,
                          prune=None, min_n_ticks=2)

    def __init__(self, nbins=None, **kwargs):
        if nbins is not None:
            kwargs["nbins"] = nbins
        self.set_params(**{**self.default_params, **kwargs})

    @staticmethod
    def _validate_steps(steps):
        steps = [float(s) for s in steps]
        if any(b - a <= 0 for a, b in zip(steps, steps[1:])) or steps[-1] > 10 or steps[0] < 1:
            raise ValueError("steps argument must be an increasing sequence "
                             "of numbers between 1 and 10 inclusive")
        if steps[0] != 1:
            steps = [1.0] + steps
        if steps[-1] != 10:
            steps = steps + [10.0]
        return steps

    @staticmethod
    def _staircase(steps):
        return [0.1 * s for s in steps[:-1]] + list(steps) + [10 * steps[1]]

    def set_params(self, **kwargs):
        if "nbins" in kwargs:
            self._nbins = kwargs.pop("nbins")
            if self._nbins != "auto":
                self._nbins = int(self._nbins)
        if "symmetric" in kwargs:
            self._symmetric = kwargs.pop("symmetric")
        if "prune" in kwargs:
            self._prune = kwargs.pop("prune")
        if "min_n_ticks" in kwargs:
            self._min_n_ticks = max(1, kwargs.pop("min_n_ticks"))
        if "steps" in kwargs:
            steps = kwargs.pop("steps")
            if steps is None:
                self._steps = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]
            else:
                self._steps = self._validate_steps(steps)
            self._extended_steps = self._staircase(self._steps)
        if "integer" in kwargs:
            self._integer = kwargs.pop("integer")
        if kwargs:
            key = next(iter(kwargs))
            raise TypeError(f"set_params() got an unexpected keyword argument '{key}'")

    def _raw_ticks(self, vmin, vmax):
        if self._nbins == "auto":
            if self.axis is not None:
                nbins = min(max(self.axis.get_tick_space(), max(1, self._min_n_ticks - 1)), 9)
            else:
                nbins = 9
        else:
            nbins = self._nbins
        scale, offset = scale_range(vmin, vmax, nbins)
        _vmin = vmin - offset
        _vmax = vmax - offset
        steps = [s * scale for s in self._extended_steps]
        if self._integer:
            steps = [s for s in steps if s < 1 or abs(s - round(s)) < 0.001]
        raw_step = (_vmax - _vmin) / nbins
        large = [s >= raw_step for s in steps]
        if rcParams["axes.autolimit_mode"] == "round_numbers":
            large = [ok and (_vmin // s) * s + s * nbins >= _vmax for ok, s in zip(large, steps)]
        istep = large.index(True) if any(large) else len(steps) - 1
        ticks = []
        for step in steps[:istep + 1][::-1]:
            if self._integer and math.floor(_vmax) - math.ceil(_vmin) >= self._min_n_ticks - 1:
                step = max(1, step)
            best_vmin = (_vmin // step) * step
            edge = _EdgeInteger(step, offset)
            low = edge.le(_vmin - best_vmin)
            high = edge.ge(_vmax - best_vmin)
            ticks = [k * step + best_vmin for k in _arange(low, high + 1)]
            nticks = sum(1 for t in ticks if _vmin <= t <= _vmax)
            if nticks >= self._min_n_ticks:
                break
        return [t + offset for t in ticks]

    def tick_values(self, vmin, vmax):
        if self._symmetric:
            vmax = max(abs(vmin), abs(vmax))
            vmin = -vmax
        vmin, vmax = _nonsingular(vmin, vmax, expander=1e-13, tiny=1e-14)
        locs = self._raw_ticks(vmin, vmax)
        if self._prune == "lower":
            locs = locs[1:]
        elif self._prune == "upper":
            locs = locs[:-1]
        elif self._prune == "both":
            locs = locs[1:-1]
        return locs

    def view_limits(self, dmin, dmax):
        if self._symmetric:
            dmax = max(abs(dmin), abs(dmax))
            dmin = -dmax
        dmin, dmax = _nonsingular(dmin, dmax, expander=1e-12, tiny=1e-13)
        if rcParams["axes.autolimit_mode"] == "round_numbers":
            ticks = self._raw_ticks(dmin, dmax)
            return ticks[0], ticks[-1]
        return dmin, dmax


def _arange(start, stop):
    """`np.arange(start, stop)` for float bounds: the floats start, start + 1, ..."""
    n = int(math.ceil(stop - start))
    return [start + i for i in range(max(n, 0))]


class AutoLocator(MaxNLocator):
    """matplotlib's default locator on linear axes."""

    def __init__(self):
        if rcParams["_internal.classic_mode"]:
            nbins, steps = 9, [1, 2, 5, 10]
        else:
            nbins, steps = "auto", [1, 2, 2.5, 5, 10]
        super().__init__(nbins=nbins, steps=steps)


class FixedLocator(Locator):
    """Ticks at the given positions (thinned to at most nbins + 1 if nbins)."""

    def __init__(self, locs, nbins=None):
        self.locs = [float(v) for v in locs]
        self.nbins = max(nbins, 2) if nbins is not None else None

    def set_params(self, nbins=None):
        if nbins is not None:
            self.nbins = nbins

    def tick_values(self, vmin, vmax):
        if self.nbins is None:
            return list(self.locs)
        step = max(int(math.ceil(len(self.locs) / self.nbins)), 1)
        ticks = self.locs[::step]
        for i in range(1, step):
            ticks1 = self.locs[i::step]
            if min(abs(t) for t in ticks1) < min(abs(t) for t in ticks):
                ticks = ticks1
        return ticks

    def __call__(self):
        return self.tick_values(None, None)


class NullLocator(Locator):
    def __call__(self):
        return []

    def tick_values(self, vmin, vmax):
        return []


class MultipleLocator(Locator):
    """Ticks at every integer multiple of `base` (plus `offset`)."""

    def __init__(self, base=1.0, offset=0.0):
        self._edge = _EdgeInteger(base, 0)
        self._offset = offset

    def set_params(self, base=None, offset=None):
        if base is not None:
            self._edge = _EdgeInteger(base, 0)
        if offset is not None:
            self._offset = offset

    def tick_values(self, vmin, vmax):
        if vmax < vmin:
            vmin, vmax = vmax, vmin
        step = self._edge.step
        vmin -= self._offset
        vmax -= self._offset
        vmin = self._edge.ge(vmin) * step
        n = (vmax - vmin + 0.001 * step) // step
        return [vmin - step + i * step + self._offset for i in range(int(n) + 3)]

    def view_limits(self, dmin, dmax):
        if rcParams["axes.autolimit_mode"] == "round_numbers":
            step = self._edge.step
            vmin = self._edge.le(dmin - self._offset) * step + self._offset
            vmax = self._edge.ge(dmax - self._offset) * step + self._offset
            if vmin == vmax:
                vmin -= 1
                vmax += 1
        else:
            vmin, vmax = dmin, dmax
        return _nonsingular(vmin, vmax)


class LinearLocator(Locator):
    def __init__(self, numticks=None, presets=None):
        self.numticks = numticks
        self.presets = presets or {}

    def tick_values(self, vmin, vmax):
        vmin, vmax = _nonsingular(vmin, vmax, expander=0.05)
        if vmax < vmin:
            vmin, vmax = vmax, vmin
        n = 11 if self.numticks is None else self.numticks
        if n == 0:
            return []
        if n == 1:
            return [vmin]
        return [vmin + (vmax - vmin) * i / (n - 1) for i in range(n)]


class IndexLocator(Locator):
    def __init__(self, base, offset):
        self._base = base
        self.offset = offset

    def tick_values(self, vmin, vmax):
        start = vmin + self.offset
        out = []
        v = start
        while v <= vmax + 0.001 * self._base:
            out.append(v)
            v += self._base
        return out


class AutoMinorLocator(Locator):
    """Accepted; minor ticks are not drawn on linear axes."""

    def __init__(self, n=None):
        self.ndivs = n

    def __call__(self):
        return []

    def tick_values(self, vmin, vmax):
        return []


def _decade_less_equal(x, base):
    return (x if x == 0 else
            -_decade_greater_equal(-x, base) if x < 0 else
            base ** math.floor(math.log(x, base)))


def _decade_greater_equal(x, base):
    return (x if x == 0 else
            -_decade_less_equal(-x, base) if x < 0 else
            base ** math.ceil(math.log(x, base)))


def _decade_less(x, base):
    if x < 0:
        return -_decade_greater(-x, base)
    less = _decade_less_equal(x, base)
    if less == x:
        less /= base
    return less


def _decade_greater(x, base):
    if x < 0:
        return -_decade_less(-x, base)
    greater = _decade_greater_equal(x, base)
    if greater == x:
        greater *= base
    return greater


class LogLocator(Locator):
    """Ticks at powers of `base` (and at `subs` multiples for minor ticks)."""

    def __init__(self, base=10.0, subs=(1.0,), *, numticks=None):
        if numticks is None:
            numticks = 15 if rcParams["_internal.classic_mode"] else "auto"
        self._base = float(base)
        self._set_subs(subs)
        self.numticks = numticks

    def set_params(self, base=None, subs=None, *, numticks=None):
        if base is not None:
            self._base = float(base)
        if subs is not None:
            self._set_subs(subs)
        if numticks is not None:
            self.numticks = numticks

    def _set_subs(self, subs):
        if subs is None:
            self._subs = "auto"
        elif isinstance(subs, str):
            self._subs = subs
        else:
            self._subs = [float(s) for s in subs]

    def _log_b(self, x):
        return math.log(x) / math.log(self._base)

    def tick_values(self, vmin, vmax):
        if self.numticks == "auto":
            n_request = (min(max(self.axis.get_tick_space(), 2), 9)
                         if self.axis is not None else 9)
        else:
            n_request = self.numticks
        b = self._base
        if vmin <= 0.0:
            if self.axis is not None:
                vmin = self.axis.get_minpos()
            if vmin <= 0.0 or not math.isfinite(vmin):
                raise ValueError("Data cannot be log-scaled because all values are <= 0.")
        if vmax < vmin:
            vmin, vmax = vmax, vmin
        efmin, efmax = self._log_b(vmin), self._log_b(vmax)
        emin = math.ceil(efmin)
        emax = math.floor(efmax)
        n_avail = emax - emin + 1
        if isinstance(self._subs, str):
            if n_avail >= 10 or b < 3:
                if self._subs == "auto":
                    return []
                subs = [1.0]
            else:
                first = 2.0 if self._subs == "auto" else 1.0
                subs = [float(s) for s in range(int(first), int(b))]
        else:
            subs = self._subs
        stride = n_avail // (n_request + 1) + 1
        nr = math.ceil(n_avail / stride)
        if nr <= n_request:
            n_request = nr
        if n_request == 0:
            decades = [emin - 1, emax + 1]
            stride = decades[1] - decades[0]
        elif n_request == 1:
            mid = round((efmin + efmax) / 2)
            stride = max(mid - (emin - 1), (emax + 1) - mid)
            decades = [mid - stride, mid, mid + stride]
        else:
            stride = (n_avail - 1) // (n_request - 1)
            if stride < n_avail / n_request:
                stride = n_avail // n_request
            olo = max(n_avail - stride * n_request, 0)
            ohi = min(n_avail - stride * (n_request - 1), stride)
            offset = (-emin) % stride
            if not olo <= offset < ohi:
                offset = olo
            decades = list(range(emin + offset - stride, emax + stride + 1, stride))
        is_minor = len(subs) > 1 or (len(subs) == 1 and subs[0] != 1.0)
        if is_minor:
            if stride == 1 or n_avail <= 1:
                ticklocs = [s * b ** d for d in range(emin - 1, emax + 1) for s in subs]
            else:
                ticklocs = []
        else:
            ticklocs = [b ** d for d in decades]
        if (len(subs) > 1 and stride == 1
                and len(decades) - 2 + sum(1 for t in ticklocs if vmin <= t <= vmax) <= 1):
            return AutoLocator().tick_values(vmin, vmax)
        return ticklocs

    def view_limits(self, vmin, vmax):
        b = self._base
        vmin, vmax = self.nonsingular(vmin, vmax)
        if rcParams["axes.autolimit_mode"] == "round_numbers":
            vmin = _decade_less_equal(vmin, b)
            vmax = _decade_greater_equal(vmax, b)
        return vmin, vmax

    def nonsingular(self, vmin, vmax):
        if vmin > vmax:
            vmin, vmax = vmax, vmin
        if not math.isfinite(vmin) or not math.isfinite(vmax):
            vmin, vmax = 1, 10
        elif vmax <= 0:
            from ._api import warn_external
            warn_external("Data has no positive values, and therefore cannot be log-scaled.")
            vmin, vmax = 1, 10
        else:
            minpos = self.axis.get_minpos() if self.axis is not None else 1e-300
            if not math.isfinite(minpos):
                minpos = 1e-300
            if vmin <= 0:
                vmin = minpos
            if vmin == vmax:
                vmin = _decade_less(vmin, self._base)
                vmax = _decade_greater(vmax, self._base)
        return vmin, vmax


class Formatter(TickHelper):
    locs = []

    def __call__(self, x, pos=None):
        raise NotImplementedError("Derived must override")

    def format_ticks(self, values):
        self.set_locs(values)
        return [self(value, i) for i, value in enumerate(values)]

    def format_data(self, value):
        return self.__call__(value)

    def format_data_short(self, value):
        return self.format_data(value)

    def get_offset(self):
        return ""

    def set_locs(self, locs):
        self.locs = locs

    @staticmethod
    def fix_minus(s):
        return s.replace("-", "\N{MINUS SIGN}") if rcParams["axes.unicode_minus"] else s


class NullFormatter(Formatter):
    def __call__(self, x, pos=None):
        return ""


class FixedFormatter(Formatter):
    def __init__(self, seq):
        self.seq = list(seq)
        self.offset_string = ""

    def __call__(self, x, pos=None):
        if pos is None or pos >= len(self.seq):
            return ""
        return str(self.seq[pos])

    def get_offset(self):
        return self.offset_string

    def set_offset_string(self, ofs):
        self.offset_string = ofs


class FuncFormatter(Formatter):
    def __init__(self, func):
        self.func = func
        self.offset_string = ""

    def __call__(self, x, pos=None):
        return self.func(x, pos)

    def get_offset(self):
        return self.offset_string

    def set_offset_string(self, ofs):
        self.offset_string = ofs


class FormatStrFormatter(Formatter):
    def __init__(self, fmt):
        self.fmt = fmt

    def __call__(self, x, pos=None):
        return self.fmt % x


class StrMethodFormatter(Formatter):
    def __init__(self, fmt):
        self.fmt = fmt

    def __call__(self, x, pos=None):
        return self.fmt.format(x=x, pos=pos)


class PercentFormatter(Formatter):
    def __init__(self, xmax=100, decimals=None, symbol="%", is_latex=False):
        self.xmax = xmax + 0.0
        self.decimals = decimals
        self._symbol = symbol

    def __call__(self, x, pos=None):
        vmin, vmax = self.axis.get_view_interval() if self.axis else (0, 100)
        display_range = abs(vmax - vmin) * 100.0 / self.xmax
        x = x * 100.0 / self.xmax
        if self.decimals is None:
            scaled_range = display_range
            if scaled_range <= 0:
                decimals = 0
            else:
                decimals = math.ceil(2.0 - math.log10(2.0 * scaled_range))
                decimals = 5 if decimals > 5 else max(decimals, 0)
        else:
            decimals = self.decimals
        return self.fix_minus("{x:0.{decimals}f}".format(x=x, decimals=decimals)) + self._symbol


class ScalarFormatter(Formatter):
    """Tick labels with the fewest decimals that tell ticks apart, with an
    offset (`+1e3`) or a power of ten (`1e-5`) shown at the axis end."""

    def __init__(self, useOffset=None, useMathText=None, useLocale=None, *, usetex=None):
        if useOffset is None:
            useOffset = rcParams["axes.formatter.useoffset"]
        self._offset_threshold = rcParams["axes.formatter.offset_threshold"]
        self.set_useOffset(useOffset)
        self._useMathText = bool(useMathText) if useMathText is not None else \
            rcParams["axes.formatter.use_mathtext"]
        self._usetex = False
        self.orderOfMagnitude = 0
        self._orderOfMagnitude = 0
        self.format = ""
        self._format = ""
        self._scientific = True
        self._powerlimits = rcParams["axes.formatter.limits"]
        self._locs = []

    def get_useOffset(self):
        return self._useOffset

    def set_useOffset(self, val):
        if isinstance(val, bool):
            self.offset = 0
            self._useOffset = val
        else:
            self._useOffset = False
            self.offset = val

    useOffset = property(fset=set_useOffset, fget=get_useOffset)

    def get_useMathText(self):
        return self._useMathText

    def set_useMathText(self, val):
        self._useMathText = bool(val)

    def set_scientific(self, b):
        self._scientific = bool(b)

    def set_powerlimits(self, lims):
        if len(lims) != 2:
            raise ValueError("'lims' must be a sequence of length 2")
        self._powerlimits = lims

    def _fmt(self, fmt, arg):
        return self.fix_minus(fmt % arg)

    def __call__(self, x, pos=None):
        if len(self._locs) == 0:
            return ""
        xp = (x - self.offset) / (10. ** self._orderOfMagnitude)
        if abs(xp) < 1e-8:
            xp = 0
        return self._fmt(self._format, xp)

    def format_data(self, value):
        e = math.floor(math.log10(abs(value)))
        s = round(value / 10 ** e, 10)
        significand = self._fmt("%d" if s % 1 == 0 else "%1.10g", s)
        if e == 0:
            return significand
        exponent = self._fmt("%d", e)
        if self._useMathText:
            exponent = "10^{%s}" % exponent
            return exponent if s == 1 else rf"{significand} \times {exponent}"
        return f"{significand}e{exponent}"

    def get_offset(self):
        if len(self._locs) == 0:
            return ""
        if self._orderOfMagnitude or self.offset:
            offset_str = ""
            sci_str = ""
            if self.offset:
                offset_str = self.format_data(self.offset)
                if self.offset > 0:
                    offset_str = "+" + offset_str
            if self._orderOfMagnitude:
                if self._useMathText:
                    sci_str = self.format_data(10 ** self._orderOfMagnitude)
                else:
                    sci_str = "1e%d" % self._orderOfMagnitude
            if self._useMathText:
                if sci_str != "":
                    sci_str = r"\times\mathdefault{%s}" % sci_str
                s = fr"${sci_str}\mathdefault{{{offset_str}}}$"
            else:
                s = "".join((sci_str, offset_str))
            return self.fix_minus(s)
        return ""

    def set_locs(self, locs):
        self._locs = list(locs)
        if len(self._locs) > 0:
            if self._useOffset:
                self._compute_offset()
            self._set_order_of_magnitude()
            self._set_format()

    def _view_locs(self):
        vmin, vmax = sorted(self.axis.get_view_interval())
        return [v for v in self._locs if vmin <= v <= vmax], vmin, vmax

    def _compute_offset(self):
        locs, vmin, vmax = self._view_locs()
        if not locs:
            self.offset = 0
            return
        lmin, lmax = min(locs), max(locs)
        if lmin == lmax or lmin <= 0 <= lmax:
            self.offset = 0
            return
        abs_min, abs_max = sorted([abs(float(lmin)), abs(float(lmax))])
        sign = math.copysign(1, lmin)
        oom_max = math.ceil(math.log10(abs_max))
        oom = 1 + next(oom for oom in itertools.count(oom_max, -1)
                       if abs_min // 10 ** oom != abs_max // 10 ** oom)
        if (abs_max - abs_min) / 10 ** oom <= 1e-2:
            oom = 1 + next(oom for oom in itertools.count(oom_max, -1)
                           if abs_max // 10 ** oom - abs_min // 10 ** oom > 1)
        n = self._offset_threshold - 1
        self.offset = (sign * (abs_max // 10 ** oom) * 10 ** oom
                       if abs_max // 10 ** oom >= 10 ** n else 0)

    def _set_order_of_magnitude(self):
        if not self._scientific:
            self._orderOfMagnitude = 0
            return
        if self._powerlimits[0] == self._powerlimits[1] != 0:
            self._orderOfMagnitude = self._powerlimits[0]
            return
        locs, vmin, vmax = self._view_locs()
        locs = [abs(v) for v in locs]
        if not locs:
            self._orderOfMagnitude = 0
            return
        if self.offset:
            oom = math.floor(math.log10(vmax - vmin))
        else:
            val = max(locs)
            oom = 0 if val == 0 else math.floor(math.log10(val))
        if oom <= self._powerlimits[0] or oom >= self._powerlimits[1]:
            self._orderOfMagnitude = oom
        else:
            self._orderOfMagnitude = 0

    def _set_format(self):
        if len(self._locs) < 2:
            raw = [*self._locs, *self.axis.get_view_interval()]
        else:
            raw = self._locs
        locs = [(v - self.offset) / 10. ** self._orderOfMagnitude for v in raw]
        loc_range = max(locs) - min(locs)
        if loc_range == 0:
            loc_range = max(abs(v) for v in locs)
        if loc_range == 0:
            loc_range = 1
        if len(self._locs) < 2:
            locs = locs[:-2]
        loc_range_oom = int(math.floor(math.log10(loc_range)))
        sigfigs = max(0, 3 - loc_range_oom)
        thresh = 1e-3 * 10 ** loc_range_oom
        while sigfigs >= 0:
            if max([abs(v - _np_round(v, sigfigs)) for v in locs] or [0]) < thresh:
                sigfigs -= 1
            else:
                break
        sigfigs += 1
        self._format = f"%1.{sigfigs}f"
        if self._useMathText:
            self._format = r"$\mathdefault{%s}$" % self._format


class LogFormatter(Formatter):
    def __init__(self, base=10.0, labelOnlyBase=False, minor_thresholds=None, linthresh=None):
        self._base = float(base)
        self.labelOnlyBase = labelOnlyBase
        self._sublabels = None

    def set_base(self, base):
        self._base = float(base)

    def set_label_minor(self, labelOnlyBase):
        self.labelOnlyBase = labelOnlyBase

    def set_locs(self, locs=None):
        pass

    def __call__(self, x, pos=None):
        if x == 0.0:
            return "0"
        x = abs(x)
        fx = math.log(x) / math.log(self._base)
        if self.labelOnlyBase and not _is_close_to_int(fx):
            return ""
        return self.fix_minus("%g" % x)


class LogFormatterMathtext(LogFormatter):
    def _non_decade_format(self, sign_string, base, fx, usetex):
        return r"$\mathdefault{%s%s^{%.2f}}$" % (sign_string, base, fx)

    def __call__(self, x, pos=None):
        if x == 0:
            return r"$\mathdefault{0}$"
        sign_string = "-" if x < 0 else ""
        x = abs(x)
        b = self._base
        fx = math.log(x) / math.log(b)
        is_x_decade = _is_close_to_int(fx)
        exponent = round(fx) if is_x_decade else math.floor(fx)
        coeff = round(b ** (fx - exponent))
        if self.labelOnlyBase and not is_x_decade:
            return ""
        if self._sublabels is not None and coeff not in self._sublabels:
            return ""
        if is_x_decade:
            fx = round(fx)
        base = "%d" % b if b % 1 == 0.0 else "%s" % b
        if abs(fx) < rcParams["axes.formatter.min_exponent"]:
            return r"$\mathdefault{%s%g}$" % (sign_string, x)
        if not is_x_decade:
            return self._non_decade_format(sign_string, base, fx, False)
        return r"$\mathdefault{%s%s^{%d}}$" % (sign_string, base, fx)


class LogFormatterSciNotation(LogFormatterMathtext):
    def _non_decade_format(self, sign_string, base, fx, usetex):
        b = float(base)
        exponent = math.floor(fx)
        coeff = b ** (fx - exponent)
        if _is_close_to_int(coeff):
            coeff = round(coeff)
        return r"$\mathdefault{%s%g\times%s^{%d}}$" % (sign_string, coeff, base, exponent)
