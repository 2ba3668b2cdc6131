"""Arrows (`quiver`) as matplotlib draws them: each arrow an 8-point
polygon in units of the shaft's width, its length scaled so that the mean
arrow is about a tenth of the axes (`scale=None`), or as the program says
(`scale`, `scale_units`, `angles='xy'` for arrows in data units). The
arrows' sizes depend on the axes' size and, for 'xy', on its limits, so
they are made when the figure is drawn; the data limits hold only the
arrows' tails."""

import math

from ._convert import tolist
from .collections import Collection
from .colors import Normalize, to_rgba

_PIVOTS = ("tail", "middle", "tip")


def _flat(v):
    v = tolist(v)
    if not isinstance(v, list):
        return [float(v)]
    out = []
    for row in v:
        if isinstance(row, list):
            out.extend(float(x) for x in row)
        else:
            out.append(float(row))
    return out


def _cols(v):
    v = tolist(v)
    if isinstance(v, list) and v and isinstance(v[0], list):
        return len(v), len(v[0])
    return 1, len(v) if isinstance(v, list) else 1


def _parse(args):
    n = len(args)
    if n not in (2, 3, 4, 5):
        raise TypeError(f"quiver() takes from 2 to 5 positional arguments but {n} were given")
    X = Y = C = None
    if n == 2:
        U, V = args
    elif n == 3:
        U, V, C = args
    elif n == 4:
        X, Y, U, V = args
    else:
        X, Y, U, V, C = args
    nr, nc = _cols(U)
    if X is not None:
        xs, ys = _flat(X), _flat(Y)
        if len(xs) == nc and len(ys) == nr:
            xs, ys = [x for _ in ys for x in xs], [y for y in ys for _ in range(nc)]
        elif len(xs) != len(ys):
            raise ValueError(f"X and Y must be the same size, but X.size is {len(xs)} "
                             f"and Y.size is {len(ys)}.")
    else:
        xs = [float(j) for _ in range(nr) for j in range(nc)]
        ys = [float(i) for i in range(nr) for _ in range(nc)]
    return xs, ys, _flat(U), _flat(V), None if C is None else _flat(C)


class Quiver(Collection):
    """What `quiver` returns: arrows at (X, Y) along (U, V)."""

    def __init__(self, ax, *args, scale=None, headwidth=3, headlength=5, headaxislength=4.5,
                 minshaft=1, minlength=1, units="width", scale_units=None, angles="uv",
                 width=None, color="k", pivot="tail", cmap=None, norm=None, clim=None,
                 alpha=None, label=None, zorder=None, facecolor=None, facecolors=None,
                 edgecolor=None, edgecolors=None, linewidth=None, linewidths=None, **kwargs):
        from .cm import ScalarMappable
        xs, ys, us, vs, cs = _parse(args)
        n = len(xs)
        for name, var in (("U", us), ("V", vs), ("C", cs)):
            if var is not None and len(var) not in (n, 1):
                raise ValueError(f"Argument {name} has a size {len(var)} which does not "
                                 f"match {n}, the number of arrow positions")
        us = us * n if len(us) == 1 else us
        vs = vs * n if len(vs) == 1 else vs
        pivot = "middle" if pivot.lower() == "mid" else pivot.lower()
        if pivot not in _PIVOTS:
            raise ValueError(f"{pivot!r} is not a valid value for pivot; supported values "
                             "are 'tail', 'middle', 'tip'")
        face = facecolors if facecolors is not None else facecolor
        if face is None:
            face = color
        super().__init__(facecolors=[to_rgba(face, alpha)], alpha=alpha, label=label,
                         zorder=zorder)
        self.axes = ax
        self.X, self.Y, self.U, self.V = xs, ys, us, vs
        self.N = n
        self.scale = scale
        self.headwidth = float(headwidth)
        self.headlength = float(headlength)
        self.headaxislength = float(headaxislength)
        self.minshaft = float(minshaft)
        self.minlength = float(minlength)
        self.units = units
        self.scale_units = scale_units
        self.angles = angles
        self.width = width
        self.pivot = pivot
        edge = edgecolors if edgecolors is not None else edgecolor
        self._edgecolors = [to_rgba(edge, alpha)] if edge is not None else []
        lw = linewidths if linewidths is not None else linewidth
        self._linewidths = [float(lw)] if isinstance(lw, (int, float)) else [0.0]
        self._values = None
        if cs is not None:
            sm = ScalarMappable(norm if norm is not None else Normalize(), cmap)
            sm.set_array(cs)
            sm.norm.autoscale_None(cs)
            if clim is not None:
                sm.set_clim(*clim)
            self._mappable = sm
            self._values = cs
            self._facecolors = sm.to_rgba(cs, alpha=alpha)

    def _recolor(self):
        if self._mappable is not None and self._values is not None:
            self._facecolors = self._mappable.to_rgba(self._values, alpha=self._alpha)

    def get_offsets(self):
        return [[x, y] for x, y in zip(self.X, self.Y)]

    def set_UVC(self, U, V, C=None):
        self.U, self.V = _flat(U), _flat(V)
        if C is not None and self._mappable is not None:
            self._values = _flat(C)
            self._mappable.set_array(self._values)
            self._recolor()

    def _limit_points(self):
        return list(zip(self.X, self.Y))

    def _dots_per_unit(self, units, ext, view):
        (vx0, vx1), (vy0, vy1) = view
        table = {"x": ext.width / abs(vx1 - vx0), "y": ext.height / abs(vy1 - vy0),
                 "xy": math.hypot(ext.width, ext.height) / math.hypot(vx1 - vx0, vy1 - vy0),
                 "width": ext.width, "height": ext.height, "dots": 1.0,
                 "inches": self.axes.figure.dpi}
        if units not in table:
            raise ValueError(f"{units!r} is not a valid value for units; supported values are "
                             + ", ".join(repr(k) for k in table))
        return table[units]

    def _polygons(self, t, ext):
        """Each arrow as display-pixel points, given the axes' data-to-display
        map `t` and its extent."""
        ax = self.axes
        view = (ax.get_xlim(), ax.get_ylim())
        dx = self._dots_per_unit(self.units, ext, view)
        span = ext.width / dx
        width = self.width
        if width is None:
            width = 0.06 * span / min(max(math.sqrt(self.N), 8), 25)
        str_angles = self.angles if isinstance(self.angles, str) else ""
        if str_angles == "xy" or self.scale_units == "xy":
            eps = 1.0 if (str_angles == "xy" and self.scale_units == "xy") else \
                max(abs(v) for v in (*view[0], *view[1])) * 0.001 or 1.0
            angles, lengths = [], []
            for x, y, u, v in zip(self.X, self.Y, self.U, self.V):
                p0, p1 = t(x, y), t(x + eps * u, y + eps * v)
                angles.append(math.atan2(p1[1] - p0[1], p1[0] - p0[0]))
                lengths.append(math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / eps)
        if str_angles and self.scale_units == "xy":
            a = lengths
        else:
            a = [math.hypot(u, v) for u, v in zip(self.U, self.V)]
        scale = self.scale
        if scale is None:
            sn = max(10, math.sqrt(self.N))
            amean = sum(a) / len(a) if a else 0.0
            auto = 1.8 * amean * sn / span
        if self.scale_units is None:
            widthu_per_lenu = 1.0
            if scale is None:
                scale = auto
        else:
            per = 1.0 if self.scale_units == "xy" else \
                self._dots_per_unit(self.scale_units, ext, view)
            widthu_per_lenu = per / dx
            if scale is None:
                scale = auto * widthu_per_lenu
        out = []
        for k in range(self.N):
            length = a[k] * (widthu_per_lenu / (scale * width)) if scale else 0.0
            if str_angles == "xy":
                theta = angles[k]
            elif str_angles == "uv":
                theta = math.atan2(self.V[k], self.U[k])
            else:
                angle = tolist(self.angles)
                angle = angle[k] if isinstance(angle, list) else angle
                theta = math.radians(float(angle)) if math.isfinite(float(angle)) else 0.0
            xs, ys = self._arrow(length)
            c, s = math.cos(theta), math.sin(theta)
            ox, oy = t(self.X[k], self.Y[k])
            out.append([(ox + (x * c - y * s) * width * dx, oy + (x * s + y * c) * width * dx)
                        for x, y in zip(xs, ys)])
        return out

    def _arrow(self, length):
        """matplotlib's _h_arrows for one arrow, in shaft widths."""
        hl, hal, hw = self.headlength, self.headaxislength, self.headwidth
        minsh = self.minshaft * hl
        length = min(max(length, 0.0), 2.0 ** 16)
        ii = [0, 1, 2, 3, 2, 1, 0, 0]
        x = [0.0, -hal + length, -hl + length, length]
        y = [0.5, 0.5, 0.5 * hw, 0.0]
        X = [x[i] for i in ii]
        Y = [y[i] for i in ii]
        if length < minsh:
            x0 = [0.0, minsh - hal, minsh - hl, minsh]
            shrink = length / minsh if minsh != 0 else 0.0
            X = [shrink * x0[i] for i in ii]
            Y = [shrink * y[i] for i in ii]
        Y = Y[:3] + [-v for v in Y[3:-1]] + Y[-1:]
        if self.pivot == "middle":
            X = [v - 0.5 * X[3] for v in X]
        elif self.pivot == "tip":
            X = [v - X[3] for v in X]
        if length < self.minlength:
            th = [k * math.pi / 3.0 for k in range(8)]
            X = [math.cos(a) * self.minlength * 0.5 for a in th]
            Y = [math.sin(a) * self.minlength * 0.5 for a in th]
        return X, Y
