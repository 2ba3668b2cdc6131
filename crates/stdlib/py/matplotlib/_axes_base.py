"""The Axes' state: position in the figure, view limits with matplotlib's
autoscaling (data limits, 5% margins, sticky edges, the locator's view
limits, shared axes), aspect, titles, labels, ticks and scales."""

import math

from . import rcParams
from .axis import XAxis, YAxis
from .text import Text
from .transforms import Bbox


class _Lim:
    """One view interval, shared by the axes of a sharex/sharey group."""

    def __init__(self, axes):
        self.axes = [axes]
        self.auto = True
        self.lim = None
        self.inverted = False


class _Spine:
    def __init__(self):
        self._visible = True
        self._color = rcParams["axes.edgecolor"]
        self._linewidth = rcParams["axes.linewidth"]

    def set_visible(self, b):
        self._visible = bool(b)

    def get_visible(self):
        return self._visible

    def set_color(self, c):
        self._color = c

    set_edgecolor = set_color

    def set_linewidth(self, w):
        self._linewidth = float(w)

    def set_position(self, pos):
        pass

    def set_bounds(self, low=None, high=None):
        pass

    def set_alpha(self, a):
        pass

    def set_linestyle(self, ls):
        pass


class _Spines(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        if isinstance(key, (list, tuple)):
            return _SpineGroup([dict.__getitem__(self, k) for k in key])
        if isinstance(key, slice):
            return _SpineGroup(list(self.values()))
        return dict.__getitem__(self, key)


class _SpineGroup:
    def __init__(self, spines):
        self._spines = spines

    def __getattr__(self, name):
        def call(*args, **kwargs):
            for s in self._spines:
                getattr(s, name)(*args, **kwargs)
        return call


class _Patch:
    def __init__(self):
        self._facecolor = rcParams["axes.facecolor"]

    def set_facecolor(self, c):
        self._facecolor = c

    def get_facecolor(self):
        from .colors import to_rgba
        return to_rgba(self._facecolor)

    def set_alpha(self, a):
        pass

    def set_visible(self, b):
        pass


class AxesBase:
    name = "rectilinear"

    def __init__(self, fig, rect=None, *, sharex=None, sharey=None, spec=None, label=""):
        self.figure = fig
        self._spec = spec
        if rect is None:
            rect = [0.125, 0.11, 0.775, 0.77]
        self._original = Bbox.from_bounds(*rect) if not isinstance(rect, Bbox) else rect
        self._aspect = "auto"
        self._adjustable = "box"
        self._anchor = "C"
        self._children = []
        self.containers = []
        self._lims = {"x": _Lim(self), "y": _Lim(self)}
        if sharex is not None:
            self._share("x", sharex)
        if sharey is not None:
            self._share("y", sharey)
        self._margins = {"x": rcParams["axes.xmargin"], "y": rcParams["axes.ymargin"]}
        self._tight = False
        self._datalim_cache = None
        self.xaxis = XAxis(self)
        self.yaxis = YAxis(self)
        self._titles = {loc: Text(0, 0, "", fontsize=rcParams["axes.titlesize"])
                        for loc in ("left", "center", "right")}
        self.title = self._titles["center"]
        self.legend_ = None
        self._axis_on = True
        self._frame_on = True
        self.spines = _Spines(left=_Spine(), right=_Spine(), bottom=_Spine(), top=_Spine())
        for side in ("left", "right", "bottom", "top"):
            self.spines[side]._visible = rcParams["axes.spines." + side]
        self.patch = _Patch()
        self._line_cycle = 0
        self._patch_cycle = 0
        self._label = label
        self._colorbars = []
        self._twin_of = None

    def _share(self, name, other):
        lim = other._lims[name]
        lim.axes.append(self)
        self._lims[name] = lim

    # Colour cycles: lines and patches each keep their own place, as in matplotlib.

    def _cycle_colors(self):
        return rcParams["axes.prop_cycle"].by_key().get("color", ["#1f77b4"])

    def _next_line_color(self):
        colors = self._cycle_colors()
        c = colors[self._line_cycle % len(colors)]
        self._line_cycle += 1
        return c

    def _next_patch_color(self):
        colors = self._cycle_colors()
        c = colors[self._patch_cycle % len(colors)]
        self._patch_cycle += 1
        return c

    def set_prop_cycle(self, *args, **kwargs):
        self._line_cycle = 0
        self._patch_cycle = 0

    # Children.

    def _add(self, artist):
        artist.axes = self
        artist.figure = self.figure
        if not isinstance(artist, Text) and not artist.get_label():
            artist.set_label(f"_child{len(self._children)}")
        self._children.append(artist)
        self._stale()
        return artist

    def _remove_artist(self, artist):
        if artist in self._children:
            self._children.remove(artist)
        self._stale()

    def _relim_artist(self, artist):
        self._stale()

    def _stale(self):
        for name in ("x", "y"):
            for ax in self._lims[name].axes:
                ax._datalim_cache = None

    @property
    def lines(self):
        from .lines import Line2D
        return [a for a in self._children if isinstance(a, Line2D)]

    @property
    def patches(self):
        from .patches import Patch
        return [a for a in self._children if isinstance(a, Patch)]

    @property
    def collections(self):
        from .collections import Collection
        return [a for a in self._children if isinstance(a, Collection)]

    @property
    def images(self):
        from .image import AxesImage
        return [a for a in self._children if isinstance(a, AxesImage)]

    @property
    def texts(self):
        return [a for a in self._children if isinstance(a, Text)]

    @property
    def artists(self):
        return []

    def get_children(self):
        return list(self._children)

    def get_lines(self):
        return self.lines

    def get_images(self):
        return self.images

    def has_data(self):
        return any(not isinstance(a, Text) for a in self._children)

    # Data limits.

    def _artist_points(self, artist):
        """The (x, y) points an artist adds to the data limits, and its sticky edges."""
        name = type(artist).__name__
        if name == "Line2D":
            if artist._axline == "h":
                return [(None, v) for v in artist._y[:1]]
            if artist._axline == "v":
                return [(v, None) for v in artist._x[:1]]
            # boxplot's medians also hold half a unit either side of their box.
            return list(zip(artist._x, artist._y)) + \
                [(v, None) for v in getattr(artist, "_extra_x", ())] + \
                [(None, v) for v in getattr(artist, "_extra_y", ())]
        if name in ("Rectangle", "Polygon", "Circle", "FancyBboxPatch", "Wedge"):
            return artist.get_corners()
        if name in ("ContourSet", "Quiver", "QuadMesh"):
            return artist._limit_points()
        if name == "PathCollection":
            return list(artist._offsets)
        if name in ("PolyCollection", "FillBetweenPolyCollection"):
            return [p for poly in artist._verts for p in poly]
        if name == "LineCollection":
            return [p for seg in artist._segments for p in seg]
        if name == "AxesImage":
            l, r, b, t = artist._extent
            return [(l, b), (r, t)]
        return []

    def _datalim(self):
        if self._datalim_cache is None:
            xs, ys = [], []
            xmin_pos = ymin_pos = math.inf
            for artist in self._children:
                if isinstance(artist, Text) or not artist.get_visible():
                    continue
                for x, y in self._artist_points(artist):
                    if x is not None and math.isfinite(x):
                        xs.append(x)
                        if 0 < x < xmin_pos:
                            xmin_pos = x
                    if y is not None and math.isfinite(y):
                        ys.append(y)
                        if 0 < y < ymin_pos:
                            ymin_pos = y
            self._datalim_cache = {
                "x": (min(xs), max(xs), xmin_pos) if xs else None,
                "y": (min(ys), max(ys), ymin_pos) if ys else None,
            }
        return self._datalim_cache

    def _minpos(self, name):
        lims = [ax._datalim()[name] for ax in self._lims[name].axes]
        vals = [d[2] for d in lims if d is not None]
        return min(vals) if vals else math.inf

    def _stickies(self, name):
        out = []
        for ax in self._lims[name].axes:
            for artist in ax._children:
                out.extend(getattr(artist, "sticky_" + name, []))
        return sorted(out)

    def _autoscale(self, name):
        state = self._lims[name]
        axis = self.xaxis if name == "x" else self.yaxis
        values = []
        for ax in state.axes:
            d = ax._datalim()[name]
            if d is not None:
                values.extend(d[:2])
        if values:
            x0, x1 = min(values), max(values)
        else:
            x0, x1 = -math.inf, math.inf
        locator = axis.get_major_locator()
        x0, x1 = locator.nonsingular(x0, x1)
        stickies = self._stickies(name)
        log = axis.get_scale() == "log"
        if log:
            stickies = [s for s in stickies if s > 0]
        x0bound = x1bound = None
        if stickies:
            tol = 1e-5 * abs(x1 - x0)
            below = [s for s in stickies if s < x0 + tol]
            above = [s for s in stickies if s >= x1 - tol]
            x0bound = below[-1] if below else None
            x1bound = above[0] if above else None
        margin = self._margins[name]
        if log:
            minpos = self._minpos(name)
            if x0 <= 0:
                x0 = minpos if math.isfinite(minpos) else 1e-300
            if x1 <= 0:
                x1 = minpos if math.isfinite(minpos) else 1e-300
            t0, t1 = math.log10(x0), math.log10(x1)
            delta = (t1 - t0) * margin
            if not math.isfinite(delta):
                delta = 0
            x0, x1 = 10 ** (t0 - delta), 10 ** (t1 + delta)
        else:
            delta = (x1 - x0) * margin
            if not math.isfinite(delta):
                delta = 0
            x0, x1 = x0 - delta, x1 + delta
        if x0bound is not None:
            x0 = max(x0, x0bound)
        if x1bound is not None:
            x1 = min(x1, x1bound)
        if not self._tight:
            x0, x1 = locator.view_limits(x0, x1)
        return x0, x1

    def _get_lim(self, name):
        state = self._lims[name]
        if state.auto or state.lim is None:
            lo, hi = self._autoscale(name)
            if state.lim is None or state.auto:
                state.lim = (lo, hi)
        lo, hi = state.lim
        if state.inverted:
            return (max(lo, hi), min(lo, hi))
        return (lo, hi)

    def _set_lim(self, name, lo, hi, keep_auto=False):
        state = self._lims[name]
        old = self._get_lim(name)
        lo = old[0] if lo is None else lo
        hi = old[1] if hi is None else hi
        axis = self.xaxis if name == "x" else self.yaxis
        if axis.get_scale() == "log" and (lo <= 0 or hi <= 0):
            from ._api import warn_external
            warn_external(f"Attempt to set non-positive {name}lim on a log-scaled axis "
                          "will be ignored.")
            lo = old[0] if lo <= 0 else lo
            hi = old[1] if hi <= 0 else hi
        if lo == hi:
            from ._api import warn_external
            warn_external(f"Attempting to set identical low and high {name}lims makes "
                          f"transformation singular; automatically expanding.")
            lo, hi = axis.get_major_locator().nonsingular(lo, hi)
        state.inverted = hi < lo
        state.lim = (min(lo, hi), max(lo, hi))
        if not keep_auto:
            state.auto = False
        return self._get_lim(name)

    def _limits_call(self, name, left, right, emit, auto, kwargs):
        lo_key, hi_key = ("xmin", "xmax") if name == "x" else ("ymin", "ymax")
        alt_lo, alt_hi = ("left", "right") if name == "x" else ("bottom", "top")
        if lo_key in kwargs:
            left = kwargs.pop(lo_key)
        if hi_key in kwargs:
            right = kwargs.pop(hi_key)
        if alt_lo in kwargs:
            left = kwargs.pop(alt_lo)
        if alt_hi in kwargs:
            right = kwargs.pop(alt_hi)
        if right is None and isinstance(left, (list, tuple)):
            left, right = left
        from ._convert import tolist
        left = tolist(left) if left is not None else None
        right = tolist(right) if right is not None else None
        if isinstance(left, list):
            left, right = left
        return self._set_lim(name, None if left is None else float(left),
                             None if right is None else float(right))

    def set_xlim(self, left=None, right=None, *, emit=True, auto=False, **kwargs):
        return self._limits_call("x", left, right, emit, auto, kwargs)

    def set_ylim(self, bottom=None, top=None, *, emit=True, auto=False, **kwargs):
        return self._limits_call("y", bottom, top, emit, auto, kwargs)

    def get_xlim(self):
        return self._get_lim("x")

    def get_ylim(self):
        return self._get_lim("y")

    def set_xbound(self, lower=None, upper=None):
        self.set_xlim(lower, upper)

    def set_ybound(self, lower=None, upper=None):
        self.set_ylim(lower, upper)

    def get_xbound(self):
        lo, hi = self.get_xlim()
        return (min(lo, hi), max(lo, hi))

    def get_ybound(self):
        lo, hi = self.get_ylim()
        return (min(lo, hi), max(lo, hi))

    def invert_xaxis(self):
        self._lims["x"].inverted = not self._lims["x"].inverted

    def invert_yaxis(self):
        self._lims["y"].inverted = not self._lims["y"].inverted

    def xaxis_inverted(self):
        return self._lims["x"].inverted

    def yaxis_inverted(self):
        return self._lims["y"].inverted

    def autoscale(self, enable=True, axis="both", tight=None):
        names = ("x", "y") if axis == "both" else (axis,)
        for name in names:
            self._lims[name].auto = bool(enable) if enable is not None else True
            if tight:
                self._margins[name] = 0.0
        if tight is not None:
            self._tight = bool(tight)
        self._stale()

    def autoscale_view(self, tight=None, scalex=True, scaley=True):
        if tight is not None:
            self._tight = bool(tight)

    def relim(self, visible_only=False):
        self._stale()

    def margins(self, *margins, x=None, y=None, tight=True):
        if margins and (x is not None or y is not None):
            raise TypeError("Cannot pass both positional and keyword arguments for x and/or y.")
        if len(margins) == 1:
            x = y = margins[0]
        elif len(margins) == 2:
            x, y = margins
        if x is None and y is None:
            return (self._margins["x"], self._margins["y"])
        if x is not None:
            self.set_xmargin(x)
        if y is not None:
            self.set_ymargin(y)
        if tight is not None:
            self._tight = bool(tight)

    def set_xmargin(self, m):
        if m <= -0.5:
            raise ValueError("margin must be greater than -0.5")
        self._margins["x"] = float(m)
        self._lims["x"].auto = True if self._lims["x"].auto else False

    def set_ymargin(self, m):
        if m <= -0.5:
            raise ValueError("margin must be greater than -0.5")
        self._margins["y"] = float(m)

    def get_xmargin(self):
        return self._margins["x"]

    def get_ymargin(self):
        return self._margins["y"]

    def use_sticky_edges(self):
        return True

    # Scales.

    def set_xscale(self, value, **kwargs):
        self.xaxis._set_scale(value, **kwargs)
        self._lims["x"].auto = self._lims["x"].auto or self._lims["x"].lim is None

    def set_yscale(self, value, **kwargs):
        self.yaxis._set_scale(value, **kwargs)

    def get_xscale(self):
        return self.xaxis.get_scale()

    def get_yscale(self):
        return self.yaxis.get_scale()

    # Ticks.

    def get_xticks(self, *, minor=False):
        return self.xaxis.get_ticklocs(minor=minor)

    def get_yticks(self, *, minor=False):
        return self.yaxis.get_ticklocs(minor=minor)

    def set_xticks(self, ticks, labels=None, *, minor=False, **kwargs):
        return self.xaxis.set_ticks(ticks, labels, minor=minor, **kwargs)

    def set_yticks(self, ticks, labels=None, *, minor=False, **kwargs):
        return self.yaxis.set_ticks(ticks, labels, minor=minor, **kwargs)

    def get_xticklabels(self, minor=False, which=None):
        return self.xaxis.get_ticklabels(minor=minor, which=which)

    def get_yticklabels(self, minor=False, which=None):
        return self.yaxis.get_ticklabels(minor=minor, which=which)

    def set_xticklabels(self, labels, *, fontdict=None, minor=False, **kwargs):
        return self.xaxis.set_ticklabels(labels, minor=minor, fontdict=fontdict, **kwargs)

    def set_yticklabels(self, labels, *, fontdict=None, minor=False, **kwargs):
        return self.yaxis.set_ticklabels(labels, minor=minor, fontdict=fontdict, **kwargs)

    def tick_params(self, axis="both", **kwargs):
        if axis in ("x", "both"):
            self.xaxis.set_tick_params(**kwargs)
        if axis in ("y", "both"):
            self.yaxis.set_tick_params(**kwargs)

    def minorticks_on(self):
        pass

    def minorticks_off(self):
        pass

    def locator_params(self, axis="both", tight=None, **kwargs):
        for a in ((self.xaxis, self.yaxis) if axis == "both" else
                  (self.xaxis,) if axis == "x" else (self.yaxis,)):
            a.get_major_locator().set_params(**kwargs)

    def ticklabel_format(self, *, axis="both", style=None, scilimits=None, useOffset=None,
                         useLocale=None, useMathText=None):
        from .ticker import ScalarFormatter
        for a in ((self.xaxis, self.yaxis) if axis == "both" else
                  (self.xaxis,) if axis == "x" else (self.yaxis,)):
            f = a.get_major_formatter()
            if not isinstance(f, ScalarFormatter):
                continue
            if style is not None:
                f.set_scientific(style in ("sci", "scientific"))
            if scilimits is not None:
                f.set_powerlimits(scilimits)
            if useOffset is not None:
                f.set_useOffset(useOffset)
            if useMathText is not None:
                f.set_useMathText(useMathText)

    # Titles and labels.

    def set_title(self, label, fontdict=None, loc=None, pad=None, *, y=None, **kwargs):
        loc = loc or rcParams["axes.titlelocation"]
        title = self._titles[loc]
        title.set_text(label)
        if fontdict:
            kwargs.update(fontdict)
        for key in ("fontsize", "size"):
            if key in kwargs:
                title.set_fontsize(kwargs.pop(key))
        for key in ("color", "c"):
            if key in kwargs:
                title.set_color(kwargs.pop(key))
        for key in ("fontweight", "weight"):
            if key in kwargs:
                title.set_fontweight(kwargs.pop(key))
        return title

    def get_title(self, loc="center"):
        return self._titles[loc].get_text()

    def set_xlabel(self, xlabel, fontdict=None, labelpad=None, *, loc=None, **kwargs):
        return self.xaxis.set_label_text(xlabel, fontdict, labelpad=labelpad, **kwargs)

    def set_ylabel(self, ylabel, fontdict=None, labelpad=None, *, loc=None, **kwargs):
        return self.yaxis.set_label_text(ylabel, fontdict, labelpad=labelpad, **kwargs)

    def get_xlabel(self):
        return self.xaxis.get_label_text()

    def get_ylabel(self):
        return self.yaxis.get_label_text()

    def get_xaxis(self):
        return self.xaxis

    def get_yaxis(self):
        return self.yaxis

    def grid(self, visible=None, which="major", axis="both", **kwargs):
        if isinstance(visible, str):
            # plt.grid('minor') and the like: a non-empty string is true.
            visible = True
        if axis in ("x", "both"):
            self.xaxis.grid(visible, which, **kwargs)
        if axis in ("y", "both"):
            self.yaxis.grid(visible, which, **kwargs)

    def set_axis_off(self):
        self._axis_on = False

    def set_axis_on(self):
        self._axis_on = True

    def axison(self):
        return self._axis_on

    def set_frame_on(self, b):
        self._frame_on = bool(b)

    def get_frame_on(self):
        return self._frame_on

    def set_facecolor(self, color):
        self.patch.set_facecolor(color)

    def get_facecolor(self):
        return self.patch.get_facecolor()

    def set_axisbelow(self, b):
        pass

    def label_outer(self, remove_inner_ticks=False):
        spec = self._spec
        if spec is None:
            return
        if not spec.is_last_row():
            self.xaxis._label_visible = [False, False]
            self.xaxis.offsetText.set_visible(False)
            self.xaxis.label.set_text("")
        if not spec.is_first_col():
            self.yaxis._label_visible = [False, False]
            self.yaxis.offsetText.set_visible(False)
            self.yaxis.label.set_text("")

    def axis(self, arg=None, /, *, emit=True, **kwargs):
        if isinstance(arg, str):
            arg = arg.lower()
            if arg == "off":
                self.set_axis_off()
            elif arg == "on":
                self.set_axis_on()
            elif arg in ("equal", "scaled", "image", "square"):
                self.set_aspect("equal", adjustable="datalim" if arg == "equal" else "box")
                if arg == "image":
                    self._tight = True
            elif arg == "tight":
                self._tight = True
                self._lims["x"].auto = self._lims["y"].auto = True
            elif arg == "auto":
                self.set_aspect("auto")
            else:
                raise ValueError(f"Unrecognized string {arg!r} to axis; try 'on' or 'off'")
        elif arg is not None:
            from ._convert import flat
            x0, x1, y0, y1 = flat(arg)
            self.set_xlim(x0, x1)
            self.set_ylim(y0, y1)
        for key in ("xmin", "xmax"):
            if key in kwargs:
                self.set_xlim(**{key: kwargs.pop(key)})
        for key in ("ymin", "ymax"):
            if key in kwargs:
                self.set_ylim(**{key: kwargs.pop(key)})
        return (*self.get_xlim(), *self.get_ylim())

    # Position and aspect.

    def set_aspect(self, aspect, adjustable=None, anchor=None, share=False):
        if isinstance(aspect, str) and aspect not in ("auto", "equal"):
            raise ValueError(f"aspect must be finite and positive, got {aspect!r}")
        self._aspect = 1.0 if aspect == "equal" else aspect
        if adjustable is not None:
            self._adjustable = adjustable
        if anchor is not None:
            self._anchor = anchor

    def get_aspect(self):
        return self._aspect

    def set_box_aspect(self, aspect=None):
        pass

    def set_anchor(self, anchor, share=False):
        self._anchor = anchor

    def set_position(self, pos, which="both"):
        self._original = Bbox.from_bounds(*pos) if not isinstance(pos, Bbox) else pos
        self._spec = None

    def _layout_position(self):
        """The position before aspect: the subplot cell, or the rect given."""
        if self._spec is not None:
            return self._spec.get_position(self.figure)
        return self._original

    def get_position(self, original=False):
        pos = self._layout_position()
        if original or self._aspect == "auto" or self._adjustable != "box":
            return pos
        return self._apply_aspect(pos)

    def _apply_aspect(self, pb):
        fig_w, fig_h = self.figure.get_size_inches()
        fig_aspect = fig_h / fig_w
        x0, x1 = self.get_xbound()
        y0, y1 = self.get_ybound()
        if self.get_xscale() == "log":
            x0, x1 = math.log10(x0), math.log10(x1)
        if self.get_yscale() == "log":
            y0, y1 = math.log10(y0), math.log10(y1)
        xsize = max(abs(x1 - x0), 1e-30)
        ysize = max(abs(y1 - y0), 1e-30)
        box_aspect = float(self._aspect) * ysize / xsize
        w, h = pb.width, pb.height
        H = w * box_aspect / fig_aspect
        if H <= h:
            W = w
        else:
            W = h * fig_aspect / box_aspect
            H = h
        anchor = self._anchor if isinstance(self._anchor, str) else "C"
        cx = {"W": 0.0, "SW": 0.0, "NW": 0.0, "E": 1.0, "SE": 1.0, "NE": 1.0}.get(anchor, 0.5)
        cy = {"S": 0.0, "SW": 0.0, "SE": 0.0, "N": 1.0, "NW": 1.0, "NE": 1.0}.get(anchor, 0.5)
        x = pb.x0 + (pb.width - W) * cx
        y = pb.y0 + (pb.height - H) * cy
        return Bbox.from_bounds(x, y, W, H)

    def get_window_extent(self, renderer=None):
        pos = self.get_position()
        w, h = self.figure.get_size_inches()
        dpi = self.figure.dpi
        return Bbox.from_extents(pos.x0 * w * dpi, pos.y0 * h * dpi,
                                 pos.x1 * w * dpi, pos.y1 * h * dpi)

    def get_subplotspec(self):
        return self._spec

    def get_gridspec(self):
        return self._spec.gridspec if self._spec is not None else None

    # Coordinates: data to display pixels, as matplotlib's transData.

    def _scaler(self, name):
        axis = self.xaxis if name == "x" else self.yaxis
        lo, hi = self._get_lim(name)
        if axis.get_scale() == "log":
            lo = math.log10(lo) if lo > 0 else -300
            hi = math.log10(hi) if hi > 0 else -300

            def f(v):
                t = math.log10(v) if v > 0 else -1000.0
                return (t - lo) / (hi - lo) if hi != lo else 0.5
        else:
            def f(v):
                return (v - lo) / (hi - lo) if hi != lo else 0.5
        return f

    def _to_display(self):
        """A function from data (x, y) to display pixels (origin bottom left)."""
        ext = self.get_window_extent()
        fx, fy = self._scaler("x"), self._scaler("y")

        def t(x, y):
            return (ext.x0 + fx(x) * ext.width, ext.y0 + fy(y) * ext.height)
        return t

    def __str__(self):
        return "{0}({1[0]:g},{1[1]:g};{1[2]:g}x{1[3]:g})".format(
            type(self).__name__, self._layout_position().bounds)

    def get_label(self):
        return self._label

    def set_label(self, s):
        self._label = str(s)

    def __repr__(self):
        fields = []
        if self._label:
            fields.append(f"label={self._label!r}")
        titles = {k: t.get_text() for k, t in self._titles.items() if t.get_text()}
        if titles:
            fields.append(f"title={titles}")
        for name, axis in (("x", self.xaxis), ("y", self.yaxis)):
            if axis.label.get_text():
                fields.append(f"{name}label={axis.label.get_text()!r}")
        return f"<{type(self).__name__}: " + ", ".join(fields) + ">"
