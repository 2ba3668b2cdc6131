"""`AxesImage`: imshow's pixels, colour-mapped or RGB(A), with extent and origin."""

from .lines import Artist


class AxesImage(Artist):
    zorder = 0

    def __init__(self, data, extent, origin, mappable, alpha=None, interpolation=None):
        super().__init__()
        self._data = data
        self._extent = extent
        self.origin = origin
        self._mappable = mappable
        self._alpha = alpha
        self.colorbar = None

    def __str__(self):
        return "AxesImage(shape=(%d, %d))" % (len(self._data), len(self._data[0]))

    def get_extent(self):
        return self._extent

    def set_extent(self, extent):
        self._extent = tuple(float(v) for v in extent)

    def get_array(self):
        return self._data

    def set_data(self, A):
        from ._convert import grid
        self._data = grid(A)

    set_array = set_data

    def get_cmap(self):
        return self._mappable.cmap

    def set_cmap(self, cmap):
        self._mappable.set_cmap(cmap)

    @property
    def cmap(self):
        return self._mappable.cmap

    @property
    def norm(self):
        return self._mappable.norm

    def get_clim(self):
        return self._mappable.get_clim()

    def set_clim(self, vmin=None, vmax=None):
        self._mappable.set_clim(vmin, vmax)

    def set_interpolation(self, s):
        pass

    def get_size(self):
        return (len(self._data), len(self._data[0]))

    def rgba_rows(self, warn=False):
        """The pixels as rows of RGBA tuples, top row first as drawn. RGB(A)
        data are clipped to [0, 1] (floats) or [0, 255] (integers), with
        matplotlib's message on stderr when drawing for `savefig`."""
        rows = []
        if self._data and self._data[0] and isinstance(self._data[0][0], list):
            flat = [v for row in self._data for px in row for v in px]
            integer = all(isinstance(v, int) for v in flat)
            high = 255 if integer else 1
            lo, hi = min(flat), max(flat)
            if warn and (lo < 0 or hi > high):
                import sys
                sys.stderr.write(
                    "Clipping input data to the valid range for imshow with RGB data "
                    "([0..1] for floats or [0..255] for integers). Got range "
                    f"[{_short(lo)}..{_short(hi)}].\n")
            for row in self._data:
                out = []
                for px in row:
                    vals = [min(max(float(v), 0.0), high) / high for v in px]
                    if len(vals) == 3:
                        vals.append(1.0)
                    out.append(tuple(vals))
                rows.append(out)
        else:
            for row in self._data:
                rows.append(self._mappable.to_rgba([float(v) for v in row]))
        if self.origin == "lower":
            rows = rows[::-1]
        return rows


def _short(v):
    """A value as NumPy prints it: float32 values (from tensors) in their
    shortest float32 form."""
    if isinstance(v, int):
        return str(v)
    import struct
    try:
        f32 = struct.unpack("f", struct.pack("f", v))[0]
    except OverflowError:
        return repr(v)
    if f32 != v:
        return repr(v)
    for digits in range(1, 10):
        s = "%.*g" % (digits, v)
        if struct.unpack("f", struct.pack("f", float(s)))[0] == f32:
            if "." not in s and "e" not in s and "n" not in s:
                s += ".0"
            return s
    return repr(v)
