"""An Axes' x or y axis: scale, locators and formatters, tick labels, the
axis label and the offset text; categories when the data are strings."""

import math

from . import rcParams, ticker
from .text import Text, font_size


class Axis:
    def __init__(self, axes, name):
        self.axes = axes
        self.axis_name = name
        self._scale = "linear"
        self._visible = True
        self._label_visible = [True, False]  # label1 (bottom/left), label2 (top/right)
        self._tick_visible = [True, False]
        self._labelsize = font_size(rcParams[name + "tick.labelsize"])
        self._label_rotation = 0.0
        self._label_ha = None
        self._tick_color = rcParams[name + "tick.color"]
        self._label_color = rcParams[name + "tick.color"]
        self._tick_length = rcParams[name + "tick.major.size"]
        self._tick_width = rcParams[name + "tick.major.width"]
        self._tick_direction = rcParams[name + "tick.direction"]
        self._pad = rcParams[name + "tick.major.pad"]
        self._grid = rcParams["axes.grid"] and rcParams["axes.grid.axis"] in ("both", name)
        # Grid lines take the settings in force when the axis is made, as
        # matplotlib's ticks do (a later style change does not restyle them).
        self._grid_kw = {"color": rcParams["grid.color"], "linewidth": rcParams["grid.linewidth"],
                         "linestyle": rcParams["grid.linestyle"], "alpha": rcParams["grid.alpha"]}
        self._categories = None
        self.label = Text(0, 0, "", fontsize=rcParams["axes.labelsize"],
                          color=rcParams["axes.labelcolor"])
        self.labelpad = rcParams["axes.labelpad"]
        self.offsetText = Text(0, 0, "", fontsize=rcParams[name + "tick.labelsize"])
        self.callbacks = None
        self._set_linear()

    def _set_linear(self):
        self.set_major_locator(ticker.AutoLocator())
        self.set_major_formatter(ticker.ScalarFormatter())
        self.set_minor_locator(ticker.NullLocator())
        self.set_minor_formatter(ticker.NullFormatter())

    def _set_scale(self, value, **kwargs):
        if value not in ("linear", "log", "symlog", "logit"):
            raise ValueError(f"{value!r} is not a valid value for scale; supported values "
                             "are 'asinh', 'function', 'functionlog', 'linear', 'log', "
                             "'logit', 'mercator', 'symlog'")
        if value in ("symlog", "logit"):
            value = "linear" if value == "logit" else "log"
        self._scale = value
        if value == "log":
            base = kwargs.get("base", 10)
            self.set_major_locator(ticker.LogLocator(base))
            self.set_major_formatter(ticker.LogFormatterSciNotation(base))
            self.set_minor_locator(ticker.LogLocator(base, "auto"))
            self.set_minor_formatter(ticker.LogFormatterSciNotation(base, labelOnlyBase=True))
        else:
            self._set_linear()

    def get_scale(self):
        return self._scale

    # Locators and formatters.

    def set_major_locator(self, locator):
        locator.set_axis(self)
        self._major_locator = locator

    def set_minor_locator(self, locator):
        locator.set_axis(self)
        self._minor_locator = locator

    def set_major_formatter(self, formatter):
        formatter = _as_formatter(formatter)
        formatter.set_axis(self)
        self._major_formatter = formatter

    def set_minor_formatter(self, formatter):
        formatter = _as_formatter(formatter)
        formatter.set_axis(self)
        self._minor_formatter = formatter

    def get_major_locator(self):
        return self._major_locator

    def get_minor_locator(self):
        return self._minor_locator

    def get_major_formatter(self):
        return self._major_formatter

    def get_minor_formatter(self):
        return self._minor_formatter

    # What locators ask.

    def get_view_interval(self):
        return self.axes._get_lim(self.axis_name)

    def get_data_interval(self):
        return tuple(self.axes._datalim[self.axis_name][:2])

    def get_minpos(self):
        return self.axes._minpos(self.axis_name)

    def get_tick_space(self):
        pos = self.axes.get_position()
        w, h = self.axes.figure.get_size_inches()
        if self.axis_name == "x":
            length = pos.width * w * 72
            size = self._labelsize * 3
        else:
            length = pos.height * h * 72
            size = self._labelsize * 2
        return int(math.floor(length / size)) if size > 0 else 2 ** 31 - 1

    def get_transform_name(self):
        return self._scale

    # Ticks.

    def get_majorticklocs(self):
        return [float(v) for v in self._major_locator()]

    def get_minorticklocs(self):
        major = set(self.get_majorticklocs())
        return [float(v) for v in self._minor_locator() if v not in major]

    def get_ticklocs(self, *, minor=False):
        return self.get_minorticklocs() if minor else self.get_majorticklocs()

    def _major_labels(self):
        locs = self.get_majorticklocs()
        return locs, self._major_formatter.format_ticks(locs)

    def get_majorticklabels(self):
        locs, labels = self._major_labels()
        if not (self._label_visible[0] or self._label_visible[1]):
            return []
        return [self._tick_text(loc, s) for loc, s in zip(locs, labels)]

    def get_minorticklabels(self):
        locs = self.get_minorticklocs()
        labels = self._minor_formatter.format_ticks(locs)
        if not (self._label_visible[0] or self._label_visible[1]):
            return []
        return [self._tick_text(loc, s) for loc, s in zip(locs, labels)]

    def get_ticklabels(self, minor=False, which=None):
        if minor or which == "minor":
            return self.get_minorticklabels()
        return self.get_majorticklabels()

    def _tick_text(self, loc, s):
        if self.axis_name == "x":
            t = Text(loc, 0, s, fontsize=self._labelsize, ha=self._label_ha or "center",
                     va="top", rotation=self._label_rotation, color=self._label_color)
        else:
            t = Text(0, loc, s, fontsize=self._labelsize, ha=self._label_ha or "right",
                     va="center_baseline", rotation=self._label_rotation,
                     color=self._label_color)
        return t

    def get_offset_text(self):
        self._major_labels()
        self.offsetText.set_text(self._major_formatter.get_offset())
        return self.offsetText

    def set_ticks(self, ticks, labels=None, *, minor=False, **kwargs):
        ticks = self.convert_units(ticks)
        locator = ticker.FixedLocator(ticks)
        if minor:
            self.set_minor_locator(locator)
        else:
            self.set_major_locator(locator)
            lo, hi = self.axes._get_lim(self.axis_name)
            if ticks:
                # Setting ticks widens the view to include them, as matplotlib does.
                lo2, hi2 = min(lo, hi, min(ticks)), max(lo, hi, max(ticks))
                if (lo2, hi2) != (min(lo, hi), max(lo, hi)):
                    self.axes._set_lim(self.axis_name, lo2, hi2, keep_auto=True)
        if labels is not None:
            self.set_ticklabels(labels, minor=minor, **kwargs)
        elif kwargs:
            self._tick_kwargs(kwargs)
        return ticks

    def set_ticklabels(self, labels, *, minor=False, fontdict=None, **kwargs):
        if isinstance(labels, ticker.Formatter) or callable(labels):
            formatter = _as_formatter(labels)
        else:
            labels = [s.get_text() if isinstance(s, Text) else str(s) for s in labels]
            locator = self._minor_locator if minor else self._major_locator
            if isinstance(locator, ticker.FixedLocator):
                # Passing [] is how programs remove all labels; other lengths
                # must match the ticks.
                if len(locator.locs) != len(labels) and len(labels) != 0:
                    raise ValueError(
                        "The number of FixedLocator locations "
                        f"({len(locator.locs)}), usually from a call to set_ticks, "
                        f"does not match the number of labels ({len(labels)}).")
                table = dict(zip(locator.locs, labels))
                formatter = ticker.FuncFormatter(lambda x, pos=None: table.get(x, ""))
            else:
                from ._api import warn_external
                warn_external("set_ticklabels() should only be used with a fixed number of "
                              "ticks, i.e. after set_ticks() or using a FixedLocator. "
                              "Otherwise, ticks may be mislabeled.")
                formatter = ticker.FixedFormatter(labels)
        if minor:
            self.set_minor_formatter(formatter)
        else:
            self.set_major_formatter(formatter)
        if fontdict:
            kwargs.update(fontdict)
        self._tick_kwargs(kwargs)
        return self.get_ticklabels(minor=minor)

    def _tick_kwargs(self, kwargs):
        if "rotation" in kwargs:
            r = kwargs.pop("rotation")
            self._label_rotation = 90.0 if r == "vertical" else (0.0 if r == "horizontal" else float(r))
        for key in ("fontsize", "size"):
            if key in kwargs:
                self._labelsize = font_size(kwargs.pop(key))
        for key in ("ha", "horizontalalignment"):
            if key in kwargs:
                self._label_ha = kwargs.pop(key)
        for key in ("color", "c"):
            if key in kwargs:
                self._label_color = kwargs.pop(key)

    def set_tick_params(self, which="major", reset=False, **kw):
        if "labelsize" in kw:
            self._labelsize = font_size(kw["labelsize"])
        if "labelrotation" in kw:
            self._label_rotation = float(kw["labelrotation"])
        if "rotation" in kw:
            self._label_rotation = float(kw["rotation"])
        if "colors" in kw:
            self._tick_color = self._label_color = kw["colors"]
        if "labelcolor" in kw:
            self._label_color = kw["labelcolor"]
        if "color" in kw:
            self._tick_color = kw["color"]
        if "length" in kw:
            self._tick_length = float(kw["length"])
        if "width" in kw:
            self._tick_width = float(kw["width"])
        if "direction" in kw:
            self._tick_direction = kw["direction"]
        if "pad" in kw:
            self._pad = float(kw["pad"])
        first, second = ("bottom", "top") if self.axis_name == "x" else ("left", "right")
        if "label" + first in kw:
            self._label_visible[0] = bool(kw["label" + first])
        if "label" + second in kw:
            self._label_visible[1] = bool(kw["label" + second])
        if first in kw:
            self._tick_visible[0] = bool(kw[first])
        if second in kw:
            self._tick_visible[1] = bool(kw[second])

    def set_label_text(self, label, fontdict=None, **kwargs):
        self.label.set_text(label)
        if fontdict:
            kwargs.update(fontdict)
        if "labelpad" in kwargs:
            lp = kwargs.pop("labelpad")
            if lp is not None:
                self.labelpad = lp
        for key in ("fontsize", "size"):
            if key in kwargs:
                self.label.set_fontsize(kwargs.pop(key))
        for key in ("color", "c"):
            if key in kwargs:
                self.label.set_color(kwargs.pop(key))
        for key in ("fontweight", "weight"):
            if key in kwargs:
                self.label.set_fontweight(kwargs.pop(key))
        if "rotation" in kwargs:
            self.label.set_rotation(kwargs.pop("rotation"))
        kwargs.pop("loc", None)
        return self.label

    def get_label_text(self):
        return self.label.get_text()

    def get_label(self):
        return self.label

    def set_label_position(self, position):
        pass

    def set_ticks_position(self, position):
        pass

    def tick_top(self):
        self._tick_visible = [False, True]
        self._label_visible = [False, True]

    def tick_bottom(self):
        self._tick_visible = [True, False]
        self._label_visible = [True, False]

    tick_left = tick_bottom
    tick_right = tick_top

    def set_visible(self, b):
        self._visible = bool(b)

    def get_visible(self):
        return self._visible

    def grid(self, visible=None, which="major", **kwargs):
        if kwargs and visible is None:
            visible = True
        self._grid = (not self._grid) if visible is None else bool(visible)
        aliases = {"c": "color", "lw": "linewidth", "ls": "linestyle"}
        for key, value in kwargs.items():
            self._grid_kw[aliases.get(key, key)] = value

    def set_inverted(self, inverted):
        lo, hi = self.get_view_interval()
        if (lo > hi) != bool(inverted):
            self.axes._set_lim(self.axis_name, hi, lo, keep_auto=True)

    def get_inverted(self):
        lo, hi = self.get_view_interval()
        return hi < lo

    def set_units(self, u):
        pass

    # Categories: strings plotted on an axis become 0, 1, 2, ...

    def update_units(self, data):
        if data and all(isinstance(v, str) for v in data):
            if self._categories is None:
                self._categories = {}
                self.set_major_locator(_CategoryLocator(self._categories))
                self.set_major_formatter(_CategoryFormatter(self._categories))
            for v in data:
                if v not in self._categories:
                    self._categories[v] = len(self._categories)
            return True
        return False

    def convert_units(self, data):
        if self._categories is not None and data and isinstance(data, list) and \
                all(isinstance(v, str) for v in data):
            return [float(self._categories[v]) for v in data]
        if isinstance(data, str) and self._categories is not None:
            return float(self._categories[data])
        from ._convert import flat
        return flat(data)

    def axis_date(self, tz=None):
        pass


class _CategoryLocator(ticker.Locator):
    def __init__(self, mapping):
        self._mapping = mapping

    def __call__(self):
        return [float(v) for v in self._mapping.values()]

    def tick_values(self, vmin, vmax):
        return self()


class _CategoryFormatter(ticker.Formatter):
    def __init__(self, mapping):
        self._mapping = mapping

    def __call__(self, x, pos=None):
        for k, v in self._mapping.items():
            if v == round(x):
                return k
        return ""

    def format_ticks(self, values):
        return [self(v) for v in values]


def _as_formatter(f):
    if isinstance(f, str):
        return ticker.StrMethodFormatter(f)
    if callable(f) and not isinstance(f, ticker.Formatter):
        return ticker.FuncFormatter(f)
    return f


class XAxis(Axis):
    def __init__(self, axes):
        super().__init__(axes, "x")


class YAxis(Axis):
    def __init__(self, axes):
        super().__init__(axes, "y")
