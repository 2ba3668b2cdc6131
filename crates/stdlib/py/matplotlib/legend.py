"""`Legend`: sized from the text widths, placed at a named location or, for
loc="best" (the default), at the first of matplotlib's candidate places
that covers the fewest data points, line crossings and patches."""

from . import rcParams
from .text import Text, font_size, text_extent
from .transforms import Bbox

CODES = {"best": 0, "upper right": 1, "upper left": 2, "lower left": 3, "lower right": 4,
         "right": 5, "center left": 6, "center right": 7, "lower center": 8,
         "upper center": 9, "center": 10}

# Where each location puts the box in its container: (fx, fy) of the free space.
_ANCHOR = {1: (1.0, 1.0), 2: (0.0, 1.0), 3: (0.0, 0.0), 4: (1.0, 0.0), 5: (1.0, 0.5),
           6: (0.0, 0.5), 7: (1.0, 0.5), 8: (0.5, 0.0), 9: (0.5, 1.0), 10: (0.5, 0.5)}


def _loc_code(loc):
    if loc is None:
        loc = rcParams["legend.loc"]
    if isinstance(loc, str):
        if loc not in CODES:
            valid = ", ".join(repr(k) for k in CODES)
            raise ValueError(f"{loc!r} is not a valid value for loc; supported values are {valid}")
        return CODES[loc]
    if isinstance(loc, int):
        return loc
    return tuple(float(v) for v in loc)


class Legend:
    def __init__(self, parent, handles, labels, loc=None, *, fontsize=None, frameon=None,
                 ncol=1, ncols=None, title=None, title_fontsize=None, bbox_to_anchor=None,
                 framealpha=None, fancybox=None, shadow=None, facecolor=None, edgecolor=None,
                 markerscale=None, borderpad=None, labelspacing=None, handlelength=None,
                 handletextpad=None, borderaxespad=None, columnspacing=None, prop=None,
                 numpoints=None, scatterpoints=None, labelcolor=None, alignment="center",
                 mode=None, **kwargs):
        self.parent = parent
        self.axes = parent
        self.figure = parent.figure
        self.legend_handles = handles
        self.legendHandles = handles
        if prop is not None and fontsize is None:
            fontsize = prop.get("size") if isinstance(prop, dict) else None
        self._fontsize = font_size(fontsize if fontsize is not None else rcParams["legend.fontsize"])
        self.texts = [Text(0, 0, s, fontsize=self._fontsize,
                           color=labelcolor if isinstance(labelcolor, str) and
                           labelcolor not in ("linecolor", "markerfacecolor") else None)
                      for s in labels]
        self._loc = _loc_code(loc)
        self._ncols = int(ncols if ncols is not None else ncol)
        self._title = Text(0, 0, title or "", fontsize=title_fontsize or self._fontsize)
        self._frameon = rcParams["legend.frameon"] if frameon is None else frameon
        self._framealpha = rcParams["legend.framealpha"] if framealpha is None else framealpha
        self._facecolor = facecolor or "white"
        self._edgecolor = edgecolor or rcParams["legend.edgecolor"]
        self._fancybox = rcParams["legend.fancybox"] if fancybox is None else fancybox
        self._pad = {
            "borderpad": rcParams["legend.borderpad"] if borderpad is None else borderpad,
            "labelspacing": rcParams["legend.labelspacing"] if labelspacing is None else labelspacing,
            "handlelength": rcParams["legend.handlelength"] if handlelength is None else handlelength,
            "handletextpad": rcParams["legend.handletextpad"] if handletextpad is None else handletextpad,
            "borderaxespad": rcParams["legend.borderaxespad"] if borderaxespad is None else borderaxespad,
            "columnspacing": rcParams["legend.columnspacing"] if columnspacing is None else columnspacing,
        }
        self._handleheight = rcParams["legend.handleheight"]
        self._bbox_to_anchor = bbox_to_anchor
        self._visible = True

    def __str__(self):
        return "Legend"

    def get_texts(self):
        return list(self.texts)

    def get_title(self):
        return self._title

    def set_title(self, title, prop=None):
        self._title.set_text(title)

    def get_lines(self):
        from .lines import Line2D
        return [h for h in self.legend_handles if isinstance(h, Line2D)]

    def get_frame(self):
        return self

    def set_visible(self, b):
        self._visible = bool(b)

    def get_visible(self):
        return self._visible

    def set_draggable(self, state, *args, **kwargs):
        pass

    def set_alpha(self, a):
        self._framealpha = a

    def set_facecolor(self, c):
        self._facecolor = c

    def set_edgecolor(self, c):
        self._edgecolor = c

    def set_linewidth(self, w):
        pass

    def remove(self):
        if self.parent.legend_ is self:
            self.parent.legend_ = None

    # Layout, in display pixels.

    def _px(self, em):
        return em * self._fontsize * self.figure.dpi / 72.0

    def _layout(self):
        """Column widths and the box size (width, height) in pixels."""
        dpi = self.figure.dpi
        fs = self._fontsize
        n = len(self.texts)
        ncols = max(1, min(self._ncols, n)) if n else 1
        rows = (n + ncols - 1) // ncols if n else 0
        text_w = [text_extent(t.get_text(), fs)[0] * dpi / 72 for t in self.texts]
        text_h = text_extent("lp", fs)[1] * dpi / 72
        row_h = max(text_h, self._px(self._handleheight))
        handle_w = self._px(self._pad["handlelength"])
        pad_w = self._px(self._pad["handletextpad"])
        cols = []
        for c in range(ncols):
            idx = [i for i in range(n) if i // rows == c] if rows else []
            cols.append(max([text_w[i] for i in idx] or [0.0]))
        width = sum(handle_w + pad_w + w for w in cols) + \
            self._px(self._pad["columnspacing"]) * (ncols - 1)
        height = rows * row_h + max(rows - 1, 0) * self._px(self._pad["labelspacing"])
        if self._title.get_text():
            tw, th, _ = text_extent(self._title.get_text(), self._title.get_fontsize())
            width = max(width, tw * dpi / 72)
            height += th * dpi / 72 + self._px(self._pad["labelspacing"])
        border = self._px(self._pad["borderpad"])
        return width + 2 * border, height + 2 * border, row_h, cols, rows, ncols

    def _container(self):
        ax = self.parent.get_window_extent()
        pad = self._px(self._pad["borderaxespad"])
        anchor = self._bbox_to_anchor
        if anchor is not None:
            vals = [float(v) for v in anchor]
            if len(vals) == 2:
                x, y = ax.x0 + vals[0] * ax.width, ax.y0 + vals[1] * ax.height
                return Bbox.from_extents(x, y, x, y).padded(pad)
            x0, y0 = ax.x0 + vals[0] * ax.width, ax.y0 + vals[1] * ax.height
            return Bbox.from_bounds(x0, y0, vals[2] * ax.width, vals[3] * ax.height).padded(-pad)
        return ax.padded(-pad)

    def _anchored(self, code, w, h, container):
        fx, fy = _ANCHOR[code]
        return (container.x0 + (container.width - w) * fx,
                container.y0 + (container.height - h) * fy)

    def get_window_extent(self, renderer=None):
        w, h = self._layout()[:2]
        loc = self._loc
        container = self._container()
        if isinstance(loc, tuple):
            ax = self.parent.get_window_extent()
            x, y = ax.x0 + loc[0] * ax.width, ax.y0 + loc[1] * ax.height
            return Bbox.from_bounds(x, y, w, h)
        if loc == 0:
            x, y = self._best(w, h, container)
        else:
            x, y = self._anchored(loc, w, h, container)
        return Bbox.from_bounds(x, y, w, h)

    get_tightbbox = get_window_extent

    def _best(self, w, h, container):
        bboxes, lines, offsets = self._auto_data()
        candidates = []
        for code in range(1, 11):
            x, y = self._anchored(code, w, h, container)
            box = (x, y, x + w, y + h)
            badness = sum(_count_inside(box, line) for line in lines)
            badness += _count_inside(box, offsets)
            badness += sum(1 for b in bboxes if _overlaps(box, b))
            badness += sum(1 for line in lines if _path_hits(box, line))
            candidates.append((badness, code, (x, y)))
            if badness == 0:
                break
        return min(candidates)[2]

    def _auto_data(self):
        from .collections import Collection, PolyCollection
        from .lines import Line2D
        from .patches import Patch, Rectangle
        ax = self.parent
        t = ax._to_display()
        ext = ax.get_window_extent()
        bboxes, lines, offsets = [], [], []
        for artist in ax._children:
            if isinstance(artist, Line2D):
                if artist._axline == "h":
                    y = t(0, artist._y[0])[1]
                    lines.append([(ext.x0 + artist._x[0] * ext.width, y),
                                  (ext.x0 + artist._x[1] * ext.width, y)])
                elif artist._axline == "v":
                    x = t(artist._x[0], 1)[0]
                    lines.append([(x, ext.y0 + artist._y[0] * ext.height),
                                  (x, ext.y0 + artist._y[1] * ext.height)])
                else:
                    lines.append([t(x, y) for x, y in zip(artist._x, artist._y)])
            elif isinstance(artist, Rectangle):
                (x0, y0), (x1, y1) = t(artist._x0, artist._y0), \
                    t(artist._x0 + artist._width, artist._y0 + artist._height)
                bboxes.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
            elif isinstance(artist, Patch):
                lines.append([t(x, y) for x, y in artist.get_corners()])
            elif isinstance(artist, PolyCollection):
                for poly in artist._verts:
                    lines.append([t(x, y) for x, y in poly] + [t(*poly[0])])
            elif isinstance(artist, Collection):
                if hasattr(artist, "_offsets"):
                    offsets.extend(t(x, y) for x, y in artist._offsets)
            elif isinstance(artist, Text):
                tw, th, _ = artist.extent()
                dpi = self.figure.dpi
                x, y = t(artist._x, artist._y) if artist._coords == "data" else \
                    (ext.x0 + artist._x * ext.width, ext.y0 + artist._y * ext.height)
                bboxes.append((x, y, x + tw * dpi / 72, y + th * dpi / 72))
        return bboxes, lines, offsets


def _count_inside(box, points):
    x0, y0, x1, y1 = box
    return sum(1 for x, y in points if x0 < x < x1 and y0 < y < y1)


def _overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _path_hits(box, points):
    """Whether the polyline crosses or enters the box (`intersects_bbox`, unfilled)."""
    x0, y0, x1, y1 = box
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
            continue
        if (x0 <= ax <= x1 and y0 <= ay <= y1) or (x0 <= bx <= x1 and y0 <= by <= y1):
            return True
        edges = [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)),
                 ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
        for p, q in edges:
            if _segments_cross((ax, ay), (bx, by), p, q):
                return True
    return False


def _segments_cross(p1, p2, p3, p4):
    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 0) - (v < 0)
    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return d1 != d2 and d3 != d4
