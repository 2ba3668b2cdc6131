"""Colormaps by name (matplotlib.cm, `matplotlib.colormaps`), each the
lookup table real matplotlib uses (recorded in `_data`), and
`ScalarMappable`, which maps values through a norm and a colormap."""

from . import rcParams
from ._data import CMAPS as _LUTS
from .colors import Colormap, Normalize

__all__ = ["ScalarMappable", "ColormapRegistry"]


def _lut(hexes):
    return [(int(hexes[i:i + 2], 16) / 255, int(hexes[i + 2:i + 4], 16) / 255,
             int(hexes[i + 4:i + 6], 16) / 255, 1.0) for i in range(0, len(hexes), 6)]


class _TableColormap(Colormap):
    """A colormap whose table is decoded on first use."""

    def __init__(self, name, reverse=False):
        super().__init__(name, len(_LUTS[name.removesuffix("_r") if reverse else name]) // 6)
        self._source = name.removesuffix("_r") if reverse else name
        self._reverse = reverse
        self.name = name

    def _init(self):
        lut = _lut(_LUTS[self._source])
        self._lut = lut[::-1] if self._reverse else lut

    @property
    def colors(self):
        return self._table()


class ColormapRegistry:
    """`matplotlib.colormaps`: colormaps by name; each lookup gives a copy."""

    def __init__(self):
        self._extra = {}

    def _names(self):
        names = list(_LUTS) + [n + "_r" for n in _LUTS] + list(self._extra)
        return sorted(names)

    def __getitem__(self, name):
        if isinstance(name, Colormap):
            return name
        if name in self._extra:
            return self._extra[name].copy()
        if name in _LUTS:
            return _TableColormap(name)
        if name.endswith("_r") and name[:-2] in _LUTS:
            return _TableColormap(name, reverse=True)
        raise KeyError(f"{name!r} is not a known colormap name")

    def __contains__(self, name):
        return name in self._extra or name in _LUTS or (
            isinstance(name, str) and name.endswith("_r") and name[:-2] in _LUTS)

    def __iter__(self):
        return iter(self._names())

    def __len__(self):
        return len(self._names())

    def __call__(self):
        return self._names()

    def register(self, cmap, *, name=None, force=False):
        self._extra[name or cmap.name] = cmap

    def unregister(self, name):
        self._extra.pop(name, None)

    def get_cmap(self, cmap):
        if cmap is None:
            return self[rcParams["image.cmap"]]
        return self[cmap]


_colormaps = ColormapRegistry()


def _resolve(cmap):
    if cmap is None:
        cmap = rcParams["image.cmap"]
    if isinstance(cmap, Colormap):
        return cmap
    if cmap not in _colormaps:
        names = ", ".join(repr(n) for n in _colormaps())
        raise ValueError(f"{cmap!r} is not a valid value for cmap; supported values are {names}")
    return _colormaps[cmap]


def _get_cmap(name=None, lut=None):
    """pyplot.get_cmap (matplotlib 3.9 removed matplotlib.cm.get_cmap)."""
    cmap = _resolve(name)
    return cmap.resampled(lut) if lut is not None else cmap


class ScalarMappable:
    """Values mapped to colours through `norm` and `cmap`."""

    def __init__(self, norm=None, cmap=None):
        self.norm = norm if norm is not None else Normalize()
        self.cmap = _resolve(cmap)
        self._A = None
        self.colorbar = None

    def set_array(self, A):
        self._A = A

    def get_array(self):
        return self._A

    def get_cmap(self):
        return self.cmap

    def set_cmap(self, cmap):
        self.cmap = _resolve(cmap)

    def set_norm(self, norm):
        self.norm = norm

    def get_clim(self):
        return self.norm.vmin, self.norm.vmax

    def set_clim(self, vmin=None, vmax=None):
        if vmax is None and isinstance(vmin, (tuple, list)):
            vmin, vmax = vmin
        if vmin is not None:
            self.norm.vmin = float(vmin)
        if vmax is not None:
            self.norm.vmax = float(vmax)

    def autoscale(self):
        if self._A is not None:
            self.norm.autoscale(_flat(self._A))

    def autoscale_None(self):
        if self._A is not None:
            self.norm.autoscale_None(_flat(self._A))

    def to_rgba(self, x, alpha=None, bytes=False, norm=True):
        vals = self.norm(x) if norm else x
        return self.cmap(vals, alpha=alpha, bytes=bytes)


def _flat(a):
    out = []
    stack = [a]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        else:
            out.append(float(x))
    return out


def __getattr__(name):
    if name in _LUTS or (name.endswith("_r") and name[:-2] in _LUTS):
        return _colormaps[name]
    raise AttributeError(f"module 'matplotlib.cm' has no attribute '{name}'")
