"""`Line2D`: lines and markers, and pyplot's format strings (`"r--"`, `"o-"`)."""

from . import rcParams
from .colors import to_rgba

LINESTYLES = {"-": "solid", "--": "dashed", "-.": "dashdot", ":": "dotted",
              "None": "None", " ": "None", "": "None", "none": "None",
              "solid": "solid", "dashed": "dashed", "dashdot": "dashdot", "dotted": "dotted"}
MARKERS = set(".,ov^<>12348spP*hH+xXDd|_")
_COLOR_LETTERS = set("bgrcmykw")


def parse_fmt(fmt):
    """(linestyle, marker, color) from a format string, as matplotlib reads it."""
    linestyle = marker = color = None
    i = 0
    if fmt in ("-", "--", "-.", ":"):
        return fmt, None, None
    while i < len(fmt):
        c = fmt[i]
        two = fmt[i:i + 2]
        if two in ("--", "-."):
            if linestyle is not None:
                raise ValueError(f"{fmt!r} is not a valid format string (two linestyle symbols)")
            linestyle = two
            i += 2
        elif c in "-:":
            if linestyle is not None:
                raise ValueError(f"{fmt!r} is not a valid format string (two linestyle symbols)")
            linestyle = c
            i += 1
        elif c in MARKERS:
            if marker is not None:
                raise ValueError(f"{fmt!r} is not a valid format string (two marker symbols)")
            marker = c
            i += 1
        elif c in _COLOR_LETTERS:
            if color is not None:
                raise ValueError(f"{fmt!r} is not a valid format string (two color symbols)")
            color = c
            i += 1
        elif c == "C" and i + 1 < len(fmt) and fmt[i + 1].isdigit():
            color = "C" + fmt[i + 1]
            i += 2
        else:
            raise ValueError(f"{fmt!r} is not a valid format string "
                             f"(unrecognized character {c!r})")
    if linestyle is None and marker is not None:
        linestyle = "None"
    return linestyle, marker, color


class Artist:
    """What every drawn thing has: a label, visibility, alpha, z-order."""

    zorder = 0

    def __init__(self):
        self._label = ""
        self._visible = True
        self._alpha = None
        self.axes = None
        self.figure = None
        self.sticky_x = []
        self.sticky_y = []

    def get_label(self):
        return self._label

    def set_label(self, s):
        self._label = "" if s is None else str(s)

    def get_visible(self):
        return self._visible

    def set_visible(self, b):
        self._visible = bool(b)

    def get_alpha(self):
        return self._alpha

    def set_alpha(self, a):
        self._alpha = None if a is None else float(a)

    def get_zorder(self):
        return self.zorder

    def set_zorder(self, z):
        self.zorder = z

    def set(self, **kwargs):
        for k, v in kwargs.items():
            setter = getattr(self, "set_" + k, None)
            if setter is None:
                raise AttributeError(f"{type(self).__name__}.set() got an unexpected "
                                     f"keyword argument '{k}'")
            setter(v)

    def remove(self):
        if self.axes is not None:
            self.axes._remove_artist(self)

    @property
    def sticky_edges(self):
        return _Sticky(self)


class _Sticky:
    def __init__(self, artist):
        self.x = artist.sticky_x
        self.y = artist.sticky_y


class Line2D(Artist):
    """A polyline through (xdata, ydata), with optional markers."""

    zorder = 2

    def __init__(self, xdata, ydata, *, linewidth=None, linestyle=None, color=None,
                 marker=None, markersize=None, markeredgewidth=None, markeredgecolor=None,
                 markerfacecolor=None, label=None, alpha=None, zorder=None, **kwargs):
        super().__init__()
        aliases = {"lw": "linewidth", "ls": "linestyle", "c": "color", "ms": "markersize",
                   "mec": "markeredgecolor", "mfc": "markerfacecolor", "mew": "markeredgewidth"}
        for short, long in aliases.items():
            if short in kwargs:
                value = kwargs.pop(short)
                if long == "linewidth":
                    linewidth = value
                elif long == "linestyle":
                    linestyle = value
                elif long == "color":
                    color = value
                elif long == "markersize":
                    markersize = value
                elif long == "markeredgecolor":
                    markeredgecolor = value
                elif long == "markerfacecolor":
                    markerfacecolor = value
                else:
                    markeredgewidth = value
        for ignored in ("solid_capstyle", "dash_capstyle", "solid_joinstyle",
                        "dash_joinstyle", "antialiased", "drawstyle", "fillstyle",
                        "markevery", "clip_on", "rasterized", "gid", "dashes", "transform",
                        "scalex", "scaley", "data", "path_effects", "snap"):
            kwargs.pop(ignored, None)
        if kwargs:
            key = next(iter(kwargs))
            raise AttributeError(f"Line2D.set() got an unexpected keyword argument '{key}'")
        self._x = list(xdata)
        self._y = list(ydata)
        self._linewidth = float(linewidth if linewidth is not None else rcParams["lines.linewidth"])
        self._linestyle = LINESTYLES.get(linestyle if linestyle is not None else "-", linestyle)
        self._color = color if color is not None else rcParams["lines.color"]
        self._marker = None if marker in (None, "None", "none", "", " ") else marker
        self._markersize = float(markersize if markersize is not None
                                 else rcParams["lines.markersize"])
        self._mew = float(markeredgewidth if markeredgewidth is not None
                          else rcParams["lines.markeredgewidth"])
        self._mec = markeredgecolor
        self._mfc = markerfacecolor
        self._alpha = alpha
        if zorder is not None:
            self.zorder = zorder
        self._label = "" if label is None else str(label)
        self._axline = None

    def get_xdata(self, orig=True):
        return list(self._x)

    def get_ydata(self, orig=True):
        return list(self._y)

    def get_data(self, orig=True):
        return self.get_xdata(), self.get_ydata()

    def set_xdata(self, x):
        from ._convert import values
        self._x = values(x)
        self._changed()

    def set_ydata(self, y):
        from ._convert import values
        self._y = values(y)
        self._changed()

    def set_data(self, *args):
        x, y = args if len(args) == 2 else args[0]
        self.set_xdata(x)
        self.set_ydata(y)

    def _changed(self):
        if self.axes is not None:
            self.axes._relim_artist(self)

    def get_color(self):
        return self._color

    def set_color(self, c):
        to_rgba(c)
        self._color = c

    def get_linewidth(self):
        return self._linewidth

    def set_linewidth(self, w):
        self._linewidth = float(w)

    get_lw = get_linewidth
    set_lw = set_linewidth

    def get_linestyle(self):
        return {"solid": "-", "dashed": "--", "dashdot": "-.", "dotted": ":"}.get(
            self._linestyle, "None")

    def set_linestyle(self, ls):
        self._linestyle = LINESTYLES.get(ls, ls)

    set_ls = set_linestyle

    def get_marker(self):
        return self._marker if self._marker is not None else "None"

    def set_marker(self, m):
        self._marker = None if m in (None, "None", "none", "", " ") else m

    def get_markersize(self):
        return self._markersize

    def set_markersize(self, s):
        self._markersize = float(s)

    def set_markerfacecolor(self, c):
        self._mfc = c

    def set_markeredgecolor(self, c):
        self._mec = c

    def set_markeredgewidth(self, w):
        self._mew = float(w)

    def set_dashes(self, seq):
        pass

    def set_drawstyle(self, ds):
        pass

    def get_path_points(self):
        return list(zip(self._x, self._y))

    def __str__(self):
        if self._label != "":
            return f"Line2D({self._label})"
        if len(self._x) > 3:
            return "Line2D(({:g},{:g}),({:g},{:g}),...,({:g},{:g}))".format(
                self._x[0], self._y[0], self._x[1], self._y[1], self._x[-1], self._y[-1])
        return "Line2D(%s)" % ",".join("({:g},{:g})".format(x, y) for x, y in zip(self._x, self._y))
