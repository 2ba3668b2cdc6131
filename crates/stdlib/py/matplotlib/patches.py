"""Patches: `Rectangle` (bars, histograms), `Polygon`, `Circle`, `Wedge`
(pie), and
`Patch`, which programs make for legend handles."""

from . import rcParams
from .lines import Artist


class Patch(Artist):
    zorder = 1

    def __init__(self, *, color=None, facecolor=None, edgecolor=None, linewidth=None,
                 linestyle=None, alpha=None, label=None, fill=True, hatch=None, zorder=None,
                 **kwargs):
        super().__init__()
        kwargs.pop("antialiased", None)
        kwargs.pop("clip_on", None)
        kwargs.pop("joinstyle", None)
        kwargs.pop("capstyle", None)
        kwargs.pop("transform", None)
        if "fc" in kwargs:
            facecolor = kwargs.pop("fc")
        if "ec" in kwargs:
            edgecolor = kwargs.pop("ec")
        if "lw" in kwargs:
            linewidth = kwargs.pop("lw")
        if "ls" in kwargs:
            linestyle = kwargs.pop("ls")
        if kwargs:
            key = next(iter(kwargs))
            raise AttributeError(f"{type(self).__name__}.set() got an unexpected "
                                 f"keyword argument '{key}'")
        if color is not None:
            facecolor = facecolor if facecolor is not None else color
            edgecolor = edgecolor if edgecolor is not None else color
        self._facecolor = facecolor if facecolor is not None else rcParams["patch.facecolor"]
        self._edgecolor = edgecolor if edgecolor is not None else "none"
        self._linewidth = float(linewidth) if linewidth is not None else rcParams["patch.linewidth"]
        self._linestyle = linestyle or "-"
        self._alpha = alpha
        self._fill = fill
        self._label = "" if label is None else str(label)
        if zorder is not None:
            self.zorder = zorder

    def get_facecolor(self):
        from .colors import to_rgba
        return to_rgba(self._facecolor, self._alpha)

    def set_facecolor(self, c):
        self._facecolor = c

    def get_edgecolor(self):
        from .colors import to_rgba
        return to_rgba(self._edgecolor, self._alpha)

    def set_edgecolor(self, c):
        self._edgecolor = c

    def set_color(self, c):
        self._facecolor = c
        self._edgecolor = c

    def set_linewidth(self, w):
        self._linewidth = float(w)

    def set_hatch(self, h):
        pass

    def set_fill(self, b):
        self._fill = bool(b)


class Rectangle(Patch):
    def __init__(self, xy, width, height, *, angle=0.0, rotation_point="xy", **kwargs):
        super().__init__(**kwargs)
        self._x0, self._y0 = float(xy[0]), float(xy[1])
        self._width, self._height = float(width), float(height)

    def get_x(self):
        return self._x0

    def get_y(self):
        return self._y0

    def get_xy(self):
        return (self._x0, self._y0)

    def get_width(self):
        return self._width

    def get_height(self):
        return self._height

    def set_height(self, h):
        self._height = float(h)
        if self.axes is not None:
            self.axes._relim_artist(self)

    def set_width(self, w):
        self._width = float(w)

    def set_x(self, x):
        self._x0 = float(x)

    def set_y(self, y):
        self._y0 = float(y)

    def get_corners(self):
        x0, y0, x1, y1 = self._x0, self._y0, self._x0 + self._width, self._y0 + self._height
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


class Polygon(Patch):
    def __init__(self, xy, *, closed=True, **kwargs):
        super().__init__(**kwargs)
        self._xy = [(float(x), float(y)) for x, y in xy]
        self._closed = closed

    def get_xy(self):
        return list(self._xy)

    def get_corners(self):
        return list(self._xy)


class Circle(Patch):
    def __init__(self, xy, radius=5, **kwargs):
        super().__init__(**kwargs)
        self.center = (float(xy[0]), float(xy[1]))
        self.radius = float(radius)

    def get_corners(self):
        import math
        cx, cy = self.center
        return [(cx + self.radius * math.cos(2 * math.pi * k / 32),
                 cy + self.radius * math.sin(2 * math.pi * k / 32)) for k in range(32)]


class Wedge(Patch):
    """A slice of a disc from angle `theta1` to `theta2` (degrees,
    counter-clockwise), a ring's when `width` is given: pie's wedges."""

    def __init__(self, center, r, theta1, theta2, *, width=None, **kwargs):
        super().__init__(**kwargs)
        self.center = (float(center[0]), float(center[1]))
        self.r = float(r)
        self.theta1, self.theta2 = float(theta1), float(theta2)
        self.width = width

    def set_width(self, width):
        self.width = width

    def set_radius(self, r):
        self.r = float(r)

    def set_center(self, center):
        self.center = (float(center[0]), float(center[1]))

    def _arc(self, r, reverse=False):
        import math
        t1, t2 = self.theta1, self.theta2
        steps = max(2, int(abs(t2 - t1) / 2) + 1)
        angles = [math.radians(t1 + (t2 - t1) * k / steps) for k in range(steps + 1)]
        if reverse:
            angles.reverse()
        cx, cy = self.center
        return [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in angles]

    def get_corners(self):
        outer = self._arc(self.r)
        if self.width is not None:
            return outer + self._arc(self.r - float(self.width), reverse=True)
        if abs(self.theta2 - self.theta1) >= 360:
            return outer
        return [self.center] + outer


class FancyBboxPatch(Rectangle):
    pass
