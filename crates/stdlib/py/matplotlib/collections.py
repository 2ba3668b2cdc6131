"""Collections: scatter's points (`PathCollection`), `fill_between`'s
polygons (`PolyCollection`), errorbar's bars (`LineCollection`) and
pcolormesh's cells (`QuadMesh`)."""

from .lines import Artist


class Collection(Artist):
    zorder = 1

    def __init__(self, *, facecolors=None, edgecolors=None, linewidths=None, alpha=None,
                 label=None, zorder=None):
        super().__init__()
        self._facecolors = facecolors if facecolors is not None else []
        self._edgecolors = edgecolors if edgecolors is not None else []
        self._linewidths = linewidths if linewidths is not None else [1.0]
        self._alpha = alpha
        self._label = "" if label is None else str(label)
        if zorder is not None:
            self.zorder = zorder
        self._mappable = None

    def get_facecolor(self):
        return list(self._facecolors)

    get_facecolors = get_facecolor

    def get_edgecolor(self):
        return list(self._edgecolors)

    get_edgecolors = get_edgecolor

    def set_facecolor(self, c):
        from .colors import to_rgba_array
        self._facecolors = to_rgba_array(c)

    def set_edgecolor(self, c):
        from .colors import to_rgba_array
        self._edgecolors = to_rgba_array(c)

    def set_color(self, c):
        self.set_facecolor(c)
        self.set_edgecolor(c)

    def set_linewidth(self, w):
        self._linewidths = [float(w)] if isinstance(w, (int, float)) else [float(v) for v in w]

    def get_linewidth(self):
        return list(self._linewidths)

    # ScalarMappable's interface, for colorbar and set_clim on scatter.
    def get_array(self):
        return self._mappable.get_array() if self._mappable else None

    def set_clim(self, vmin=None, vmax=None):
        if self._mappable:
            self._mappable.set_clim(vmin, vmax)
            self._recolor()

    def get_cmap(self):
        return self._mappable.cmap if self._mappable else None

    def set_cmap(self, cmap):
        if self._mappable:
            self._mappable.set_cmap(cmap)
            self._recolor()

    @property
    def norm(self):
        return self._mappable.norm if self._mappable else None

    @property
    def cmap(self):
        return self.get_cmap()

    def _recolor(self):
        pass


class PathCollection(Collection):
    """Markers at offsets, each of its own size (points squared) and colour."""

    def __init__(self, offsets, sizes, marker="o", **kwargs):
        super().__init__(**kwargs)
        self._offsets = offsets
        self._sizes = sizes
        self._marker = marker
        self._values = None

    def get_offsets(self):
        return [list(p) for p in self._offsets]

    def set_offsets(self, offsets):
        from ._convert import tolist
        self._offsets = [(float(x), float(y)) for x, y in tolist(offsets)]
        if self.axes is not None:
            self.axes._relim_artist(self)

    def get_sizes(self):
        return list(self._sizes)

    def set_sizes(self, sizes):
        self._sizes = [float(s) for s in sizes]

    def _recolor(self):
        if self._mappable is not None and self._values is not None:
            self._facecolors = self._mappable.to_rgba(self._values, alpha=self._alpha)


class PolyCollection(Collection):
    def __init__(self, verts, **kwargs):
        super().__init__(**kwargs)
        self._verts = verts

    def get_paths(self):
        return self._verts


FillBetweenPolyCollection = PolyCollection


class LineCollection(Collection):
    def __init__(self, segments, **kwargs):
        super().__init__(**kwargs)
        self._segments = segments

    def get_segments(self):
        return [list(s) for s in self._segments]

    def set_segments(self, segments):
        self._segments = segments


class QuadMesh(Collection):
    """pcolormesh's cells between `xedges` and `yedges`, coloured from
    `image` (an `AxesImage` of the values, rows from the bottom): drawn as
    that image when the edges are evenly spaced, else a rectangle a cell."""

    def __init__(self, xedges, yedges, image, **kwargs):
        super().__init__(**kwargs)
        self._xedges, self._yedges = list(xedges), list(yedges)
        self._image = image
        self._mappable = image._mappable
        x0, x1, y0, y1 = xedges[0], xedges[-1], yedges[0], yedges[-1]
        self.sticky_x = [min(x0, x1), max(x0, x1)]
        self.sticky_y = [min(y0, y1), max(y0, y1)]

    def _limit_points(self):
        return [(self._xedges[0], self._yedges[0]), (self._xedges[-1], self._yedges[-1])]

    def _uniform(self):
        def even(edges):
            step = (edges[-1] - edges[0]) / (len(edges) - 1)
            return all(abs(b - a - step) <= 1e-9 * abs(step) for a, b in zip(edges, edges[1:]))
        return even(self._xedges) and even(self._yedges)

    def get_array(self):
        return self._image.get_array()

    def set_clim(self, vmin=None, vmax=None):
        self._image.set_clim(vmin, vmax)

    def get_clim(self):
        return self._image.get_clim()

    def set_cmap(self, cmap):
        self._image.set_cmap(cmap)
