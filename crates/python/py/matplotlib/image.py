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

    def rgba_rows(self):
        """The pixels as rows of RGBA tuples, top row first as drawn."""
        rows = []
        for row in self._data:
            if row and isinstance(row[0], list):
                out = []
                for px in row:
                    vals = [float(v) for v in px]
                    if any(v > 1 for v in vals):
                        vals = [v / 255 for v in vals]
                    if len(vals) == 3:
                        vals.append(1.0)
                    vals = [min(max(v, 0.0), 1.0) for v in vals]
                    out.append(tuple(vals))
                rows.append(out)
            else:
                rows.append(self._mappable.to_rgba([float(v) for v in row]))
        if self.origin == "lower":
            rows = rows[::-1]
        return rows
