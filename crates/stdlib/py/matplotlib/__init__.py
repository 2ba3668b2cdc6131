"""matplotlib for the playground: `pyplot` and the pieces programs import
beside it (`ticker`, `colors`, `cm`, `style`), drawn to SVG in Python with
matplotlib's default style, ticks, limits and legend placement (see
tests/fixtures/record_matplotlib.py for what is compared with the real
package). Nothing here loads until a program imports matplotlib."""

__version__ = "3.11.2"

_FIGSIZE = [6.4, 4.8]

_DEFAULTS = {
    "_internal.classic_mode": False,
    "backend": "agg",
    "interactive": False,
    "figure.figsize": list(_FIGSIZE),
    "figure.dpi": 100.0,
    "figure.facecolor": "white",
    "figure.edgecolor": "white",
    "figure.titlesize": "large",
    "figure.titleweight": "normal",
    "figure.max_open_warning": 20,
    "figure.subplot.left": 0.125,
    "figure.subplot.right": 0.9,
    "figure.subplot.bottom": 0.11,
    "figure.subplot.top": 0.88,
    "figure.subplot.wspace": 0.2,
    "figure.subplot.hspace": 0.2,
    "figure.autolayout": False,
    "font.family": ["sans-serif"],
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 10.0,
    "font.weight": "normal",
    "text.color": "black",
    "text.usetex": False,
    "lines.linewidth": 1.5,
    "lines.linestyle": "-",
    "lines.color": "C0",
    "lines.marker": "None",
    "lines.markersize": 6.0,
    "lines.markeredgewidth": 1.0,
    "patch.linewidth": 1.0,
    "patch.facecolor": "C0",
    "patch.edgecolor": "black",
    "patch.force_edgecolor": False,
    "hatch.color": "black",
    "axes.facecolor": "white",
    "axes.edgecolor": "black",
    "axes.linewidth": 0.8,
    "axes.grid": False,
    "axes.grid.axis": "both",
    "axes.grid.which": "major",
    "axes.titlesize": "large",
    "axes.titleweight": "normal",
    "axes.titlepad": 6.0,
    "axes.titlelocation": "center",
    "axes.labelsize": "medium",
    "axes.labelpad": 4.0,
    "axes.labelweight": "normal",
    "axes.labelcolor": "black",
    "axes.axisbelow": "line",
    "axes.formatter.limits": [-5, 6],
    "axes.formatter.use_locale": False,
    "axes.formatter.use_mathtext": False,
    "axes.formatter.min_exponent": 0,
    "axes.formatter.useoffset": True,
    "axes.formatter.offset_threshold": 4,
    "axes.unicode_minus": True,
    "axes.prop_cycle": None,
    "axes.xmargin": 0.05,
    "axes.ymargin": 0.05,
    "axes.zmargin": 0.05,
    "axes.autolimit_mode": "data",
    "axes.spines.left": True,
    "axes.spines.bottom": True,
    "axes.spines.top": True,
    "axes.spines.right": True,
    "xtick.labelsize": "medium",
    "ytick.labelsize": "medium",
    "xtick.major.size": 3.5,
    "ytick.major.size": 3.5,
    "xtick.minor.size": 2.0,
    "ytick.minor.size": 2.0,
    "xtick.major.width": 0.8,
    "ytick.major.width": 0.8,
    "xtick.minor.width": 0.6,
    "ytick.minor.width": 0.6,
    "xtick.major.pad": 3.5,
    "ytick.major.pad": 3.5,
    "xtick.direction": "out",
    "ytick.direction": "out",
    "xtick.color": "black",
    "ytick.color": "black",
    "grid.color": "#b0b0b0",
    "grid.linestyle": "-",
    "grid.linewidth": 0.8,
    "grid.alpha": 1.0,
    "legend.loc": "best",
    "legend.frameon": True,
    "legend.framealpha": 0.8,
    "legend.edgecolor": "0.8",
    "legend.facecolor": "inherit",
    "legend.fancybox": True,
    "legend.fontsize": "medium",
    "legend.title_fontsize": None,
    "legend.borderpad": 0.4,
    "legend.labelspacing": 0.5,
    "legend.handlelength": 2.0,
    "legend.handleheight": 0.7,
    "legend.handletextpad": 0.8,
    "legend.borderaxespad": 0.5,
    "legend.columnspacing": 2.0,
    "legend.markerscale": 1.0,
    "legend.numpoints": 1,
    "legend.scatterpoints": 1,
    "image.cmap": "viridis",
    "image.interpolation": "auto",
    "image.aspect": "equal",
    "image.origin": "upper",
    "scatter.marker": "o",
    "errorbar.capsize": 0.0,
    "hist.bins": 10,
    "savefig.dpi": "figure",
    "savefig.format": "png",
    "savefig.bbox": None,
    "savefig.facecolor": "auto",
    "svg.fonttype": "path",
}

# tab10, which matplotlib 3.11's default cycle holds as RGB tuples.
_CYCLE = [tuple(int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)) for h in (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")]


class Cycler:
    """The property cycle `axes.prop_cycle` holds (cycler.cycler's shape)."""

    def __init__(self, **props):
        self._props = {k: list(v) for k, v in props.items()}

    @property
    def keys(self):
        return set(self._props)

    def by_key(self):
        return {k: list(v) for k, v in self._props.items()}

    def __iter__(self):
        n = min(len(v) for v in self._props.values()) if self._props else 0
        for i in range(n):
            yield {k: v[i] for k, v in self._props.items()}

    def __len__(self):
        return min(len(v) for v in self._props.values()) if self._props else 0

    def __repr__(self):
        return "cycler(%s)" % ", ".join("%r, %r" % (k, v) for k, v in self._props.items())


def cycler(*args, **kwargs):
    if args:
        if len(args) == 2:
            return Cycler(**{args[0]: args[1]})
        return args[0]
    return Cycler(**kwargs)


_DEFAULTS["axes.prop_cycle"] = Cycler(color=_CYCLE)


def _known(key):
    from ._data import RC_DEFAULTS
    return key in _DEFAULTS or key in RC_DEFAULTS


def _invalid_key(key):
    """matplotlib's message for an unknown setting, with its suggestions."""
    from ._data import RC_DEFAULTS
    suggestion = ""
    if isinstance(key, str):
        import difflib
        best = difflib.get_close_matches(key, list(RC_DEFAULTS), cutoff=0.5)
        if len(best) == 1:
            suggestion = f" Did you mean: {best[0]!r}?"
        elif best:
            suggestion = f" Did you mean one of: {', '.join(map(repr, best))}?"
    return f"{key!r} is not a valid value for rcParam.{suggestion}"


class RcParams(dict):
    """matplotlib's settings: a dict whose keys are matplotlib's settings.
    Every setting is accepted; those the playground's drawing reads are in
    `_DEFAULTS`, the rest keep their values for programs that read them."""

    def __setitem__(self, key, value):
        if not _known(key):
            raise KeyError(_invalid_key(key))
        if key == "axes.prop_cycle" and not isinstance(value, Cycler):
            value = Cycler(color=list(value))
        if key == "figure.figsize":
            value = [float(v) for v in value]
        from ._data import RC_DEFAULTS
        default = _DEFAULTS.get(key, RC_DEFAULTS.get(key))
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            # matplotlib's validators make numbers floats where the default is one.
            value = float(value)
        dict.__setitem__(self, key, value)

    def __getitem__(self, key):
        if not dict.__contains__(self, key):
            if not _known(key):
                raise KeyError(f"{key} is not a valid rc parameter (see rcParams.keys() "
                               "for a list of valid parameters)")
            from ._data import RC_DEFAULTS
            return RC_DEFAULTS[key]
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        return dict.__contains__(self, key) or _known(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def copy(self):
        out = RcParams()
        dict.update(out, self)
        return out

    def find_all(self, pattern):
        return RcParams({k: v for k, v in self.items() if pattern in k})


rcParams = RcParams()
dict.update(rcParams, _DEFAULTS)
rcParamsDefault = RcParams()
dict.update(rcParamsDefault, _DEFAULTS)
defaultParams = rcParamsDefault


def rcdefaults():
    dict.clear(rcParams)
    dict.update(rcParams, _DEFAULTS)


def rc(group, **kwargs):
    aliases = {"lw": "linewidth", "ls": "linestyle", "c": "color", "fc": "facecolor",
               "ec": "edgecolor", "mew": "markeredgewidth", "aa": "antialiased"}
    groups = (group,) if isinstance(group, str) else group
    for g in groups:
        for k, v in kwargs.items():
            rcParams[f"{g}.{aliases.get(k, k)}"] = v


class rc_context:
    def __init__(self, rc=None, fname=None):
        self._rc = rc or {}

    def __enter__(self):
        self._saved = rcParams.copy()
        rcParams.update(self._rc)
        return self

    def __exit__(self, *exc):
        dict.clear(rcParams)
        dict.update(rcParams, self._saved)
        return False

    def __call__(self, func):
        def wrapped(*args, **kwargs):
            with rc_context(self._rc):
                return func(*args, **kwargs)
        return wrapped


def use(backend, *, force=True):
    """Accepted: the playground has one backend, which draws SVG."""
    dict.__setitem__(rcParams, "backend", str(backend).lower())


def get_backend(*, auto_select=True):
    return rcParams["backend"]


def interactive(b):
    dict.__setitem__(rcParams, "interactive", bool(b))


def is_interactive():
    return rcParams["interactive"]


def get_cachedir():
    return "/tmp/matplotlib"


def get_configdir():
    return "/tmp/matplotlib"


def __getattr__(name):
    if name == "colormaps":
        from .cm import _colormaps
        return _colormaps
    if name == "color_sequences":
        from .colors import _color_sequences
        return _color_sequences
    if name in ("pyplot", "ticker", "colors", "cm", "style", "figure", "axes", "lines",
                "patches", "transforms", "legend", "text", "image", "collections",
                "gridspec", "font_manager", "animation", "markers"):
        import sys
        __import__("matplotlib." + name)
        return sys.modules["matplotlib." + name]
    raise AttributeError(f"module 'matplotlib' has no attribute '{name}'")
