"""Contour lines and filled contours (`contour`, `contourf`) as matplotlib
draws them: levels from `MaxNLocator(N + 1)` over the data's range (7 by
default) trimmed to it, colours from the colormap over the levels (bands
by their midpoints), limits fitted tightly to the grid.

Lines come from marching squares over each grid cell (a saddle split by
the cell's mean, as matplotlib's default algorithm does), joined into
paths; each band from every cell clipped to the band's range, the cells
wholly inside one band joined along their row, so that a 100x100 grid
makes an SVG of a few hundred paths, not ten thousand."""

import math
from bisect import bisect_left

from . import rcParams
from ._convert import tolist
from .collections import Collection
from .colors import Normalize, to_rgba


def _shape(v):
    if not isinstance(v, list):
        return ()
    if v and isinstance(v[0], list):
        return (len(v), len(v[0]))
    return (len(v),)


def _floats(rows):
    return [[float("nan") if v is None else float(v) for v in row] for row in rows]


def _grid(args, origin, extent, name):
    """(x(i, j), y(i, j)) coordinate functions, Z as rows, and the rest of args."""
    n = len(args)
    if n in (1, 2):
        z, rest = tolist(args[0]), args[1:]
        xs = ys = None
    elif n in (3, 4):
        xs, ys, z = (tolist(a) for a in args[:3])
        rest = args[3:]
    else:
        raise TypeError(f"{name}() takes from 1 to 4 positional arguments but {n} were given")
    shape = _shape(z)
    if len(shape) != 2:
        raise TypeError(f"Input z must be 2D, not {len(shape)}D")
    ny, nx = shape
    if ny < 2 or nx < 2:
        raise TypeError(f"Input z must be at least a (2, 2) shaped array, but has shape {shape}")
    z = _floats(z)
    if xs is None:
        if extent is not None:
            x0, x1, y0, y1 = (float(v) for v in extent)
            dx, dy = (x1 - x0) / nx, (y1 - y0) / ny
            xs = [x0 + (j + 0.5) * dx for j in range(nx)]
            ys = [y0 + (i + 0.5) * dy for i in range(ny)]
        else:
            xs = [float(j) for j in range(nx)]
            ys = [float(i) for i in range(ny)]
        if origin == "upper":
            ys = ys[::-1]
    xshape, yshape = _shape(xs), _shape(ys)
    if len(xshape) != len(yshape):
        raise TypeError(f"Number of dimensions of x ({len(xshape)}) and y ({len(yshape)}) "
                        "do not match")
    if len(xshape) == 1:
        if xshape[0] != nx:
            raise TypeError(f"Length of x ({xshape[0]}) must match number of columns in z ({nx})")
        if yshape[0] != ny:
            raise TypeError(f"Length of y ({yshape[0]}) must match number of rows in z ({ny})")
        X = [[float(v) for v in xs]] * ny
        Y = [[float(v)] * nx for v in ys]
    else:
        if xshape != shape:
            raise TypeError(f"Shapes of x {xshape} and z {shape} do not match")
        if yshape != shape:
            raise TypeError(f"Shapes of y {yshape} and z {shape} do not match")
        X, Y = _floats(xs), _floats(ys)
    return X, Y, z, rest


def _cross(a, b, level):
    """Where the value `level` lies on the segment a-b ((x, y, z) each)."""
    t = (level - a[2]) / (b[2] - a[2])
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), level)


def _clip(poly, level, keep_above):
    """Sutherland-Hodgman: the part of `poly` above (or at most) `level`,
    its values taken as linear along each side."""
    out = []
    n = len(poly)
    for k in range(n):
        p, q = poly[k], poly[(k + 1) % n]
        pin = p[2] > level if keep_above else p[2] <= level
        qin = q[2] > level if keep_above else q[2] <= level
        if pin:
            out.append(p)
        if pin != qin:
            out.append(_cross(p, q, level))
    return out


def _lines(X, Y, Z, level):
    """The contour at `level` as polylines, by marching squares."""
    ny, nx = len(Z), len(Z[0])
    points = {}
    ends = {}
    segments = []

    def point(edge):
        got = points.get(edge)
        if got is None:
            kind, i, j = edge
            i2, j2 = (i, j + 1) if kind == 0 else (i + 1, j)
            a = (X[i][j], Y[i][j], Z[i][j])
            b = (X[i2][j2], Y[i2][j2], Z[i2][j2])
            got = points[edge] = _cross(a, b, level)[:2]
        return got

    for i in range(ny - 1):
        row, below = Z[i], Z[i + 1]
        for j in range(nx - 1):
            z0, z1, z2, z3 = row[j], row[j + 1], below[j + 1], below[j]
            if not (z0 == z0 and z1 == z1 and z2 == z2 and z3 == z3):
                continue
            b0, b1, b2, b3 = z0 > level, z1 > level, z2 > level, z3 > level
            if b0 == b1 == b2 == b3:
                continue
            e = [(0, i, j), (1, i, j + 1), (0, i + 1, j), (1, i, j)]
            crossed = [e[0]] if b0 != b1 else []
            if b1 != b2:
                crossed.append(e[1])
            if b2 != b3:
                crossed.append(e[2])
            if b3 != b0:
                crossed.append(e[3])
            if len(crossed) == 2:
                pairs = [crossed]
            elif ((z0 + z1 + z2 + z3) / 4 > level) == b0:
                pairs = [(e[0], e[1]), (e[2], e[3])]
            else:
                pairs = [(e[3], e[0]), (e[1], e[2])]
            for a, b in pairs:
                k = len(segments)
                segments.append((a, b))
                ends.setdefault(a, []).append(k)
                ends.setdefault(b, []).append(k)
    used = [False] * len(segments)
    paths = []

    def walk(start_edge, k):
        path = [point(start_edge)]
        edge = start_edge
        while k is not None and not used[k]:
            used[k] = True
            a, b = segments[k]
            edge = b if a == edge else a
            path.append(point(edge))
            k = next((s for s in ends[edge] if not used[s]), None)
        return path

    # Open paths start at an edge of the grid (one segment ends there).
    for edge, ks in ends.items():
        if len(ks) == 1 and not used[ks[0]]:
            paths.append(walk(edge, ks[0]))
    for k in range(len(segments)):
        if not used[k]:
            paths.append(walk(segments[k][0], k))
    return paths


def _bands(X, Y, Z, lowers, uppers):
    """For each band lowers[k] < z <= uppers[k], its polygons."""
    ny, nx = len(Z), len(Z[0])
    nb = len(uppers)
    polys = [[] for _ in range(nb)]

    def band(v):
        k = bisect_left(uppers, v)
        return k if k < nb and v > lowers[k] else None

    for i in range(ny - 1):
        row, below = Z[i], Z[i + 1]
        run_band, run_start = None, 0
        for j in range(nx):
            full = None
            corners = None
            if j < nx - 1:
                z0, z1, z2, z3 = row[j], row[j + 1], below[j + 1], below[j]
                if z0 == z0 and z1 == z1 and z2 == z2 and z3 == z3:
                    lo, hi = min(z0, z1, z2, z3), max(z0, z1, z2, z3)
                    k0, k1 = band(lo), band(hi)
                    if k0 is not None and k0 == k1:
                        full = k0
                    else:
                        corners = (lo, hi, (z0, z1, z2, z3))
            if full != run_band:
                if run_band is not None:
                    polys[run_band].append(_run(X, Y, i, run_start, j))
                run_band, run_start = full, j
            if corners is None:
                continue
            lo, hi, (z0, z1, z2, z3) = corners
            cell = [(X[i][j], Y[i][j], z0), (X[i][j + 1], Y[i][j + 1], z1),
                    (X[i + 1][j + 1], Y[i + 1][j + 1], z2), (X[i + 1][j], Y[i + 1][j], z3)]
            first = bisect_left(uppers, lo)
            for k in range(first, nb):
                if lowers[k] >= hi:
                    break
                poly = cell
                if lo <= lowers[k]:
                    poly = _clip(poly, lowers[k], True)
                if hi > uppers[k] and poly:
                    poly = _clip(poly, uppers[k], False)
                if len(poly) >= 3:
                    polys[k].append([(p[0], p[1]) for p in poly])
    return polys


def _run(X, Y, i, j0, j1):
    """The outline of cells j0..j1-1 of row i."""
    top = [(X[i][j], Y[i][j]) for j in range(j0, j1 + 1)]
    bottom = [(X[i + 1][j], Y[i + 1][j]) for j in range(j1, j0 - 1, -1)]
    if len(top) > 2 and all(p[1] == top[0][1] for p in top) and \
            all(p[1] == bottom[0][1] for p in bottom):
        top, bottom = [top[0], top[-1]], [bottom[0], bottom[-1]]
    return top + bottom


class ContourSet(Collection):
    """What `contour` and `contourf` return: the levels, and the lines or
    bands drawn for them."""

    def __init__(self, ax, filled, args, levels=None, colors=None, cmap=None, norm=None,
                 vmin=None, vmax=None, alpha=None, linewidths=None, linestyles=None,
                 extend="neither", origin=None, extent=None, locator=None, zorder=None,
                 antialiased=None, nchunk=0, hatches=None, corner_mask=None, algorithm=None,
                 negative_linestyles=None, label=None, **kwargs):
        from .cm import ScalarMappable
        from .ticker import MaxNLocator
        name = "contourf" if filled else "contour"
        if "color" in kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument 'color'")
        if colors is not None and cmap is not None:
            raise ValueError("Either colors or cmap must be None")
        super().__init__(alpha=alpha, zorder=zorder if zorder is not None else
                         (1 if filled else 2), label=label if filled else "_nolegend_")
        self.axes = ax
        self.filled = filled
        self.extend = extend
        X, Y, Z, rest = _grid(args, origin, extent, name)
        finite = [v for row in Z for v in row if math.isfinite(v)]
        self.zmin = min(finite) if finite else 0.0
        self.zmax = max(finite) if finite else 0.0
        if levels is None and rest:
            levels = tolist(rest[0])
        if levels is None or isinstance(levels, int):
            n = 7 if levels is None else levels
            locator = locator or MaxNLocator(n + 1, min_n_ticks=1)
            lev = [float(v) for v in locator.tick_values(self.zmin, self.zmax)]
            under = [k for k, v in enumerate(lev) if v < self.zmin]
            i0 = under[-1] if under else 0
            over = [k for k, v in enumerate(lev) if v > self.zmax]
            i1 = over[0] + 1 if over else len(lev)
            if extend in ("min", "both"):
                i0 += 1
            if extend in ("max", "both"):
                i1 -= 1
            if i1 - i0 < 3:
                i0, i1 = 0, len(lev)
            lev = lev[i0:i1]
        else:
            lev = [float(v) for v in (levels if isinstance(levels, list) else [levels])]
        if filled and len(lev) < 2:
            raise ValueError("Filled contours require at least 2 levels.")
        if len(lev) > 1 and min(b - a for a, b in zip(lev, lev[1:])) <= 0:
            raise ValueError("Contour levels must be increasing")
        self._level_list = lev
        ext = list(lev)
        if extend in ("both", "min"):
            ext.insert(0, -1e250)
        if extend in ("both", "max"):
            ext.append(1e250)
        if filled:
            lowers, uppers = ext[:-1], ext[1:]
            if lowers[0] == self.zmin:
                lowers = [lowers[0] - 1] + lowers[1:]
            cvalues = [0.5 * (a + b) for a, b in zip(ext, ext[1:])]
        else:
            cvalues = list(lev)
        self.layers = cvalues
        # Colours: a list of colours cycled over the layers, or the
        # colormap over the levels' range.
        mono = False
        if colors is not None:
            seq = [colors] if isinstance(colors, str) or (
                isinstance(colors, tuple) and len(colors) in (3, 4) and
                all(isinstance(v, (int, float)) for v in colors)) else list(colors)
            rgba = [to_rgba(seq[k % len(seq)], alpha) for k in range(len(cvalues))]
            mono = len({tuple(c) for c in rgba}) == 1
            self._mappable = None
        else:
            sm = ScalarMappable(norm if norm is not None else Normalize(vmin, vmax), cmap)
            sm.norm.autoscale_None(lev)
            sm.set_array(cvalues)
            self._mappable = sm
            rgba = [tuple(c) for c in sm.to_rgba(cvalues, alpha=alpha)]
        self._rgba = rgba
        self._facecolors = rgba if filled else []
        self._edgecolors = [] if filled else rgba
        if filled:
            self._paths = _bands(X, Y, Z, lowers, uppers)
            self._linewidths = [0.0]
            self._styles = ["solid"] * len(cvalues)
        else:
            self._paths = [_lines(X, Y, Z, v) for v in lev]
            lw = linewidths
            if lw is None:
                lw = rcParams.get("contour.linewidth") or rcParams["lines.linewidth"]
            lws = [float(lw)] if isinstance(lw, (int, float)) else [float(v) for v in lw]
            self._linewidths = [lws[k % len(lws)] for k in range(len(lev))]
            if linestyles is None:
                neg = negative_linestyles or rcParams.get("contour.negative_linestyle",
                                                          "dashed")
                styles = [neg if mono and v < 0 else "solid" for v in lev]
            elif isinstance(linestyles, str):
                styles = [linestyles] * len(lev)
            else:
                styles = [linestyles[k % len(linestyles)] for k in range(len(lev))]
            self._styles = styles
        xs = [v for row in X for v in row if math.isfinite(v)]
        ys = [v for row in Y for v in row if math.isfinite(v)]
        self._mins = [min(xs), min(ys)]
        self._maxs = [max(xs), max(ys)]
        self.sticky_x = [self._mins[0], self._maxs[0]]
        self.sticky_y = [self._mins[1], self._maxs[1]]

    @property
    def levels(self):
        from .axes import _np_array
        return _np_array(list(self._level_list))

    @property
    def allsegs(self):
        if self.filled:
            return [[list(p) for p in polys] for polys in self._paths]
        return [[list(p) for p in paths] for paths in self._paths]

    def get_paths(self):
        return self.allsegs

    def _limit_points(self):
        return [tuple(self._mins), tuple(self._maxs)]

    def legend_elements(self, variable_name="x", str_format=str):
        from .patches import Rectangle
        from .lines import Line2D
        artists, labels = [], []
        lev = self._level_list
        if self.filled:
            for k, color in enumerate(self._rgba):
                artists.append(Rectangle((0, 0), 1, 1, facecolor=color))
                lower = str_format(lev[k]) if k < len(lev) else ""
                upper = str_format(lev[k + 1]) if k + 1 < len(lev) else ""
                labels.append(f"${lower} < {variable_name} \\leq {upper}$")
        else:
            for k, color in enumerate(self._rgba):
                artists.append(Line2D([], [], color=color, linewidth=self._linewidths[k]))
                labels.append(f"${variable_name} = {str_format(lev[k])}$")
        return artists, labels


def clabel(ax, cs, levels=None, *, fontsize=None, inline=True, inline_spacing=5, fmt=None,
           colors=None, use_clabeltext=False, manual=False, rightside_up=True, zorder=None):
    """Labels each contour level halfway along its longest line, turned to
    the line and in its colour, where that line is long enough to hold the
    label; `inline` cuts the line under it (matplotlib also places several
    along a long line, where it is straightest)."""
    from .text import text_extent
    from .ticker import ScalarFormatter
    if cs.filled:
        return []
    lev = cs._level_list
    chosen = lev if levels is None else [float(v) for v in tolist(levels)]
    if fmt is None:
        fmt = ScalarFormatter(useOffset=False)
        fmt.create_dummy_axis()
    size = fontsize if fontsize is not None else rcParams["font.size"]
    t = ax._to_display()
    px_per_pt = ax.figure.dpi / 72.0
    texts = []
    for k, level in enumerate(lev):
        if level not in chosen or not cs._paths[k]:
            continue
        shown = [[t(x, y) for x, y in path] for path in cs._paths[k]]
        lengths = [_arc(pts)[-1] for pts in shown]
        which = max(range(len(shown)), key=lambda i: lengths[i])
        if isinstance(fmt, dict):
            text = fmt.get(level, "%1.3f" % level)
        elif callable(getattr(fmt, "format_ticks", None)):
            text = fmt.format_ticks([v for v in lev if v in chosen] + [level])[-1]
        elif callable(fmt):
            text = fmt(level)
        else:
            text = fmt % level
        width = text_extent(text, size)[0] * px_per_pt
        # As matplotlib: a line shorter than 1.2 labels' widths gets none.
        if lengths[which] < 1.2 * width:
            continue
        path, pts = cs._paths[k][which], shown[which]
        arc = _arc(pts)
        mid = arc[-1] / 2
        x, y, seg = _along(path, arc, mid)
        (ax0, ay0), (ax1, ay1) = pts[seg], pts[seg + 1]
        angle = math.degrees(math.atan2(ay1 - ay0, ax1 - ax0))
        if rightside_up:
            angle = (angle + 90) % 180 - 90
        if inline:
            gap = width / 2 + inline_spacing
            before = [p for p, a in zip(path, arc) if a < mid - gap]
            after = [p for p, a in zip(path, arc) if a > mid + gap]
            if mid - gap > 0:
                before.append(_along(path, arc, mid - gap)[:2])
            if mid + gap < arc[-1]:
                after.insert(0, _along(path, arc, mid + gap)[:2])
            cs._paths[k][which:which + 1] = [p for p in (before, after) if len(p) > 1]
        color = cs._rgba[k] if colors is None else colors
        texts.append(ax.text(x, y, text, ha="center", va="center", color=color, fontsize=size,
                             rotation=angle))
    cs.labelTexts = texts
    return texts


def _arc(pts):
    """Cumulative length along display points, from 0."""
    out = [0.0]
    for a, b in zip(pts, pts[1:]):
        out.append(out[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
    return out


def _along(path, arc, s):
    """The data point at display length `s` along `path`, and its segment."""
    for i in range(len(path) - 1):
        if arc[i + 1] >= s or i == len(path) - 2:
            span = arc[i + 1] - arc[i]
            f = (s - arc[i]) / span if span else 0.0
            (x0, y0), (x1, y1) = path[i], path[i + 1]
            return x0 + f * (x1 - x0), y0 + f * (y1 - y0), i
    return path[0][0], path[0][1], 0
