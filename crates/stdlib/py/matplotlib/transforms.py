"""The few transforms pieces programs and our layout use: `Bbox` and
`nonsingular` (matplotlib.transforms)."""

import math

_FLOAT_TINY = 2.2250738585072014e-308


class Bbox:
    """A rectangle as two corners, (x0, y0) and (x1, y1)."""

    def __init__(self, points):
        (x0, y0), (x1, y1) = points
        self.x0, self.y0, self.x1, self.y1 = float(x0), float(y0), float(x1), float(y1)

    @staticmethod
    def from_bounds(x0, y0, width, height):
        return Bbox([[x0, y0], [x0 + width, y0 + height]])

    @staticmethod
    def from_extents(x0, y0, x1, y1):
        return Bbox([[x0, y0], [x1, y1]])

    @staticmethod
    def unit():
        return Bbox([[0, 0], [1, 1]])

    @property
    def width(self):
        return self.x1 - self.x0

    @property
    def height(self):
        return self.y1 - self.y0

    @property
    def bounds(self):
        return (self.x0, self.y0, self.width, self.height)

    @property
    def extents(self):
        return (self.x0, self.y0, self.x1, self.y1)

    @property
    def xmin(self):
        return min(self.x0, self.x1)

    @property
    def xmax(self):
        return max(self.x0, self.x1)

    @property
    def ymin(self):
        return min(self.y0, self.y1)

    @property
    def ymax(self):
        return max(self.y0, self.y1)

    @property
    def intervalx(self):
        return (self.x0, self.x1)

    @property
    def intervaly(self):
        return (self.y0, self.y1)

    @property
    def p0(self):
        return (self.x0, self.y0)

    @property
    def p1(self):
        return (self.x1, self.y1)

    def get_points(self):
        return [[self.x0, self.y0], [self.x1, self.y1]]

    def overlaps(self, other):
        ax1, ay1, ax2, ay2 = self.xmin, self.ymin, self.xmax, self.ymax
        bx1, by1, bx2, by2 = other.xmin, other.ymin, other.xmax, other.ymax
        return ax1 <= bx2 and bx1 <= ax2 and ay1 <= by2 and by1 <= ay2

    def contains(self, x, y):
        return self.xmin <= x <= self.xmax and self.ymin <= y <= self.ymax

    def padded(self, w, h=None):
        h = w if h is None else h
        return Bbox([[self.x0 - w, self.y0 - h], [self.x1 + w, self.y1 + h]])

    def translated(self, tx, ty):
        return Bbox([[self.x0 + tx, self.y0 + ty], [self.x1 + tx, self.y1 + ty]])

    @staticmethod
    def union(bboxes):
        bboxes = list(bboxes)
        return Bbox([[min(b.xmin for b in bboxes), min(b.ymin for b in bboxes)],
                     [max(b.xmax for b in bboxes), max(b.ymax for b in bboxes)]])

    def __repr__(self):
        return "Bbox([[%r, %r], [%r, %r]])" % (self.x0, self.y0, self.x1, self.y1)

    __str__ = __repr__

    def __iter__(self):
        return iter([[self.x0, self.y0], [self.x1, self.y1]])


def nonsingular(vmin, vmax, expander=0.001, tiny=1e-15, increasing=True):
    """Widens a range too small to draw, as matplotlib's `nonsingular`."""
    if not (math.isfinite(vmin) and math.isfinite(vmax)):
        return -expander, expander
    swapped = False
    if vmax < vmin:
        vmin, vmax = vmax, vmin
        swapped = True
    vmin, vmax = float(vmin), float(vmax)
    maxabsvalue = max(abs(vmin), abs(vmax))
    if maxabsvalue < (1e6 / tiny) * _FLOAT_TINY:
        vmin = -expander
        vmax = expander
    elif vmax - vmin <= maxabsvalue * tiny:
        if vmax == 0 and vmin == 0:
            vmin = -expander
            vmax = expander
        else:
            vmin -= expander * abs(vmin)
            vmax += expander * abs(vmax)
    if swapped and not increasing:
        vmin, vmax = vmax, vmin
    return vmin, vmax


_nonsingular = nonsingular
