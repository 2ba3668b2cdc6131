"""Colours as matplotlib.colors understands them: names (CSS4, the base
letters, `tab:` colours), `C0`-`C9` from the property cycle, hex with or
without alpha, grey levels as strings, RGB(A) tuples; and `Normalize`,
`LogNorm` and the colormap classes."""

import math

from . import rcParams
from ._data import COLORS as _NAMED

__all__ = ["to_rgba", "to_rgb", "to_hex", "to_rgba_array", "is_color_like",
           "same_color", "Normalize", "LogNorm", "NoNorm", "CenteredNorm",
           "TwoSlopeNorm", "BoundaryNorm", "Colormap", "ListedColormap",
           "LinearSegmentedColormap", "CSS4_COLORS", "BASE_COLORS", "TABLEAU_COLORS"]

BASE_COLORS = {k: _NAMED[k] for k in "bgrcmykw"}
TABLEAU_COLORS = {k: v for k, v in _NAMED.items() if k.startswith("tab:")}
CSS4_COLORS = {k: v for k, v in _NAMED.items() if len(k) > 1 and not k.startswith("tab:")}

_color_sequences = {"tab10": [_NAMED[k] for k in TABLEAU_COLORS]}


def _is_tensor(c):
    import sys
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(c, torch.Tensor)


def _hex_to_rgba(s):
    s = s[1:]
    if len(s) in (3, 4):
        s = "".join(ch * 2 for ch in s)
    if len(s) not in (6, 8) or any(ch not in "0123456789abcdefABCDEF" for ch in s):
        return None
    vals = [int(s[i:i + 2], 16) / 255 for i in range(0, len(s), 2)]
    if len(vals) == 3:
        vals.append(1.0)
    return tuple(vals)


def _to_rgba_no_alpha(c):
    if isinstance(c, str):
        if c.lower() == "none":
            return (0.0, 0.0, 0.0, 0.0)
        low = c.lower()
        if low in _NAMED:
            return _hex_to_rgba(_NAMED[low])
        if c.startswith("#"):
            out = _hex_to_rgba(c)
            if out is not None:
                return out
        if len(c) >= 2 and c[0] == "C" and c[1:].isdigit():
            cycle = rcParams["axes.prop_cycle"].by_key()["color"]
            return to_rgba(cycle[int(c[1:]) % len(cycle)])
        try:
            grey = float(c)
        except ValueError:
            grey = None
        if grey is not None:
            if not 0 <= grey <= 1:
                raise ValueError(f"Invalid string grayscale value {c!r}. "
                                 "Value must be within 0-1 range")
            return (grey, grey, grey, 1.0)
        raise ValueError(f"{c!r} is not a valid color value.")
    if _is_tensor(c):
        c = c.tolist()
    try:
        vals = [float(v) for v in c]
    except TypeError:
        raise ValueError(f"Invalid RGBA argument: {c!r}") from None
    if len(vals) not in (3, 4):
        raise ValueError("RGBA sequence should have length 3 or 4")
    if any(not 0 <= v <= 1 for v in vals):
        raise ValueError("RGBA values should be within 0-1 range")
    if len(vals) == 3:
        vals.append(1.0)
    return tuple(vals)


def to_rgba(c, alpha=None):
    """The colour `c` as an (r, g, b, a) tuple of floats in [0, 1]."""
    if isinstance(c, tuple) and len(c) == 2 and not isinstance(c[1], (list, tuple)) \
            and not isinstance(c[0], (int, float)):
        if alpha is None:
            c, alpha = c
        else:
            c = c[0]
    rgba = _to_rgba_no_alpha(c)
    if alpha is not None:
        if not 0 <= alpha <= 1:
            raise ValueError("'alpha' must be between 0 and 1, inclusive")
        rgba = rgba[:3] + (float(alpha),)
    return rgba


def to_rgb(c):
    return to_rgba(c)[:3]


def to_hex(c, keep_alpha=False):
    c = to_rgba(c)
    if not keep_alpha:
        c = c[:3]
    return "#" + "".join(format(round(v * 255), "02x") for v in c)


def to_rgba_array(c, alpha=None):
    if isinstance(c, str):
        return [to_rgba(c, alpha)]
    try:
        return [to_rgba(c, alpha)]
    except (ValueError, TypeError):
        return [to_rgba(x, alpha) for x in c]


def is_color_like(c):
    try:
        to_rgba(c)
    except (ValueError, TypeError):
        return False
    return True


def same_color(c1, c2):
    return to_rgba_array(c1) == to_rgba_array(c2)


def rgb2hex(c, keep_alpha=False):
    return to_hex(c, keep_alpha)


def hex2color(c):
    return to_rgb(c)


class ColorConverter:
    colors = _NAMED
    to_rgb = staticmethod(to_rgb)
    to_rgba = staticmethod(to_rgba)
    to_rgba_array = staticmethod(to_rgba_array)


colorConverter = ColorConverter()


class Normalize:
    """Maps [vmin, vmax] linearly onto [0, 1]."""

    def __init__(self, vmin=None, vmax=None, clip=False):
        self.vmin = None if vmin is None else float(vmin)
        self.vmax = None if vmax is None else float(vmax)
        self.clip = clip

    def autoscale(self, values):
        vals = [v for v in values if v == v]
        self.vmin = min(vals) if vals else 0.0
        self.vmax = max(vals) if vals else 1.0

    def autoscale_None(self, values):
        vals = [v for v in values if v == v]
        if self.vmin is None and vals:
            self.vmin = min(vals)
        if self.vmax is None and vals:
            self.vmax = max(vals)

    def scaled(self):
        return self.vmin is not None and self.vmax is not None

    def _forward(self, v):
        return v

    def __call__(self, value, clip=None):
        single = isinstance(value, (int, float))
        values = [value] if single else list(value)
        self.autoscale_None(values)
        vmin, vmax = self._forward(self.vmin), self._forward(self.vmax)
        clip = self.clip if clip is None else clip
        out = []
        for v in values:
            if vmin == vmax:
                r = 0.0
            else:
                r = (self._forward(v) - vmin) / (vmax - vmin)
            if clip:
                r = min(max(r, 0.0), 1.0)
            out.append(r)
        return out[0] if single else out

    def inverse(self, value):
        return self.vmin + value * (self.vmax - self.vmin)


class LogNorm(Normalize):
    def _forward(self, v):
        return math.log10(v) if v > 0 else -math.inf


class NoNorm(Normalize):
    def __call__(self, value, clip=None):
        return value


class CenteredNorm(Normalize):
    def __init__(self, vcenter=0, halfrange=None, clip=False):
        super().__init__(None, None, clip)
        self.vcenter = vcenter
        self.halfrange = halfrange

    def autoscale_None(self, values):
        vals = [v for v in values if v == v]
        if self.halfrange is None:
            self.halfrange = max(abs(v - self.vcenter) for v in vals) if vals else 1.0
        self.vmin = self.vcenter - self.halfrange
        self.vmax = self.vcenter + self.halfrange


class TwoSlopeNorm(Normalize):
    def __init__(self, vcenter, vmin=None, vmax=None):
        super().__init__(vmin, vmax)
        self.vcenter = vcenter

    def __call__(self, value, clip=None):
        single = isinstance(value, (int, float))
        values = [value] if single else list(value)
        self.autoscale_None(values)
        out = []
        for v in values:
            if v < self.vcenter:
                r = 0.5 * (v - self.vmin) / (self.vcenter - self.vmin) if self.vcenter != self.vmin else 0.5
            else:
                r = 0.5 + 0.5 * (v - self.vcenter) / (self.vmax - self.vcenter) if self.vmax != self.vcenter else 0.5
            out.append(r)
        return out[0] if single else out


class BoundaryNorm(Normalize):
    def __init__(self, boundaries, ncolors, clip=False, *, extend="neither"):
        self.boundaries = [float(b) for b in boundaries]
        super().__init__(self.boundaries[0], self.boundaries[-1], clip)
        self.Ncmap = ncolors

    def __call__(self, value, clip=None):
        single = isinstance(value, (int, float))
        values = [value] if single else list(value)
        nb = len(self.boundaries) - 1
        out = []
        for v in values:
            i = sum(1 for b in self.boundaries if b <= v) - 1
            i = min(max(i, 0), nb - 1)
            out.append((i + 0.5) / nb)
        return out[0] if single else out


class Colormap:
    """A lookup table of N colours over [0, 1], with under, over and bad colours."""

    def __init__(self, name, N=256):
        self.name = name
        self.N = int(N)
        self._lut = None
        self._rgba_bad = (0.0, 0.0, 0.0, 0.0)
        self._rgba_under = None
        self._rgba_over = None

    def _init(self):
        raise NotImplementedError

    def _table(self):
        if self._lut is None:
            self._init()
        return self._lut

    def __call__(self, X, alpha=None, bytes=False):
        lut = self._table()
        single = isinstance(X, (int, float))
        values = [X] if single else X
        out = []
        for x in values:
            if isinstance(x, (list, tuple)):
                out.append(self(x, alpha, bytes))
                continue
            if x != x:
                rgba = self._rgba_bad
            else:
                if isinstance(x, float):
                    i = -1 if x < 0 else (self.N if x >= 1.0 and x != 1.0 else
                                          min(int(x * self.N), self.N - 1))
                else:
                    i = int(x)
                if i < 0:
                    rgba = self._rgba_under or lut[0]
                elif i >= self.N:
                    rgba = self._rgba_over or lut[-1]
                else:
                    rgba = lut[i]
            if alpha is not None:
                rgba = rgba[:3] + (float(alpha),)
            if bytes:
                rgba = tuple(int(v * 255) for v in rgba)
            out.append(rgba)
        return out[0] if single else out

    def set_bad(self, color="k", alpha=None):
        self._rgba_bad = to_rgba(color, alpha)

    def set_under(self, color="k", alpha=None):
        self._rgba_under = to_rgba(color, alpha)

    def set_over(self, color="k", alpha=None):
        self._rgba_over = to_rgba(color, alpha)

    def get_bad(self):
        return self._rgba_bad

    def with_extremes(self, *, bad=None, under=None, over=None):
        new = self.copy()
        if bad is not None:
            new.set_bad(bad)
        if under is not None:
            new.set_under(under)
        if over is not None:
            new.set_over(over)
        return new

    def copy(self):
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def reversed(self, name=None):
        lut = list(reversed(self._table()))
        return ListedColormap(lut, name or self.name + "_r")

    def resampled(self, lutsize):
        lut = self._table()
        n = int(lutsize)
        colors = [lut[min(int(i / max(n - 1, 1) * (len(lut) - 1) + 0.5), len(lut) - 1)]
                  for i in range(n)]
        return ListedColormap(colors, self.name)

    def is_gray(self):
        return all(r == g == b for r, g, b, _ in self._table())

    def __eq__(self, other):
        return isinstance(other, Colormap) and self._table() == other._table()

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return f"<matplotlib.colors.{type(self).__name__} object>"


class ListedColormap(Colormap):
    def __init__(self, colors, name="from_list", N=None):
        colors = [to_rgba(c) for c in colors] if not isinstance(colors, str) else [to_rgba(colors)]
        if N is not None:
            colors = [colors[i % len(colors)] for i in range(N)]
        super().__init__(name, len(colors))
        self.colors = colors
        self._lut = list(colors)

    def _init(self):
        self._lut = list(self.colors)


class LinearSegmentedColormap(Colormap):
    def __init__(self, name, segmentdata, N=256, gamma=1.0):
        super().__init__(name, N)
        self._segmentdata = segmentdata

    def _init(self):
        def channel(data, x):
            if callable(data):
                return min(max(data(x), 0.0), 1.0)
            for (x0, _, y0), (x1, y1, _) in zip(data, data[1:]):
                if x0 <= x <= x1:
                    return y0 + (y1 - y0) * ((x - x0) / (x1 - x0) if x1 > x0 else 0)
            return data[-1][1]
        lut = []
        for i in range(self.N):
            x = i / (self.N - 1) if self.N > 1 else 0.0
            rgb = tuple(channel(self._segmentdata[k], x) for k in ("red", "green", "blue"))
            a = channel(self._segmentdata["alpha"], x) if "alpha" in self._segmentdata else 1.0
            lut.append(rgb + (a,))
        self._lut = lut

    @staticmethod
    def from_list(name, colors, N=256, gamma=1.0):
        pairs = []
        colors = list(colors)
        for i, c in enumerate(colors):
            if isinstance(c, tuple) and len(c) == 2 and not isinstance(c[0], str) \
                    and isinstance(c[0], (int, float)) and not isinstance(c[1], (int, float)):
                pairs.append((float(c[0]), to_rgba(c[1])))
            else:
                pairs.append((i / max(len(colors) - 1, 1), to_rgba(c)))
        data = {}
        for k, key in enumerate(("red", "green", "blue", "alpha")):
            data[key] = [(x, rgba[k], rgba[k]) for x, rgba in pairs]
        return LinearSegmentedColormap(name, data, N, gamma)
