"""pyplot: matplotlib's state machine (a current figure and a current
axes) over `Figure` and `Axes`. `show()` hands each open figure to the
host as SVG (the page puts it in the console, `gradscope run --figures
DIR` writes it) and prints nothing, as matplotlib's Agg backend prints
nothing."""

import sys

from . import cm, colormaps, rcParams, rcParamsDefault, rc, rcdefaults, rc_context, style  # noqa: F401
from .figure import AxesArray, Figure
from .axes import Axes
from .cm import _get_cmap as get_cmap  # noqa: F401
from .colors import Normalize  # noqa: F401
from .lines import Line2D  # noqa: F401
from .patches import Rectangle  # noqa: F401
from .text import Text  # noqa: F401
from . import ticker  # noqa: F401
from .ticker import (AutoLocator, FixedLocator, FormatStrFormatter, FuncFormatter,  # noqa: F401
                     LogLocator, MaxNLocator, MultipleLocator, NullFormatter, NullLocator,
                     ScalarFormatter)

_figures = {}
_current = [None]


def _gradscope_new_process():
    """No figure open and the default style, as a fresh `import
    matplotlib.pyplot` has them (the runtime calls this as each program
    starts)."""
    _figures.clear()
    _current[0] = None
    rcdefaults()


def _host():
    gs = sys.modules.get("_gradscope")
    if gs is None:
        try:
            import _gradscope as gs
        except ImportError:
            return None
    return getattr(gs, "_show_figure", None)


def _emit(fig):
    hook = _host()
    svg = fig.to_svg()
    if hook is not None:
        hook(svg)


# Figures.

def figure(num=None, figsize=None, dpi=None, *, facecolor=None, edgecolor=None, frameon=True,
           clear=False, **kwargs):
    if isinstance(num, Figure):
        _current[0] = num
        return num
    if isinstance(num, str):
        for n, f in _figures.items():
            if f.get_label() == num:
                _current[0] = f
                return f
        label, num = num, None
    else:
        label = ""
    if num is not None and int(num) in _figures:
        fig = _figures[int(num)]
        if clear:
            fig.clear()
        _current[0] = fig
        return fig
    if num is None:
        num = max(_figures) + 1 if _figures else 1
    fig = Figure(figsize=figsize, dpi=dpi, facecolor=facecolor, edgecolor=edgecolor, **kwargs)
    fig.number = int(num)
    fig.set_label(label)
    _figures[int(num)] = fig
    _current[0] = fig
    limit = rcParams["figure.max_open_warning"]
    if limit and len(_figures) == limit + 1:
        import warnings
        warnings.warn(f"More than {limit} figures have been opened. Figures created through "
                      "the pyplot interface (`matplotlib.pyplot.figure`) are retained until "
                      "explicitly closed and may consume too much memory. (To control this "
                      "warning, see the rcParam `figure.max_open_warning`). Consider using "
                      "`matplotlib.pyplot.close()`.", RuntimeWarning, stacklevel=2)
    return fig


def gcf():
    if _current[0] is None or _current[0].number not in _figures:
        return figure()
    return _current[0]


def gca(**kwargs):
    return gcf().gca()


def sca(ax):
    fig = ax.figure
    if fig.number in _figures:
        _current[0] = fig
    fig.sca(ax)


def gci():
    for artist in reversed(gca()._children):
        if hasattr(artist, "_mappable") and artist._mappable is not None:
            return artist
    return None


def get_fignums():
    return sorted(_figures)


def get_figlabels():
    return [_figures[n].get_label() for n in sorted(_figures)]


def fignum_exists(num):
    return num in _figures or any(f.get_label() == num for f in _figures.values())


def close(fig=None):
    if fig is None:
        if _current[0] is not None:
            _figures.pop(_current[0].number, None)
    elif fig == "all":
        _figures.clear()
    elif isinstance(fig, Figure):
        _figures.pop(fig.number, None)
    elif isinstance(fig, int):
        _figures.pop(fig, None)
    elif isinstance(fig, str):
        for n, f in list(_figures.items()):
            if f.get_label() == fig:
                _figures.pop(n)
    else:
        raise TypeError("close() argument must be a Figure, an int, a string, or None, "
                        f"not {type(fig)}")
    if _current[0] is not None and _current[0].number not in _figures:
        _current[0] = _figures[max(_figures)] if _figures else None


def clf():
    gcf().clear()


def cla():
    gca().cla()


def show(*args, block=None, **kwargs):
    """Hands every open figure to the host, in order, and closes them."""
    for num in sorted(_figures):
        _emit(_figures[num])
    _figures.clear()
    _current[0] = None


def draw():
    pass


def pause(interval):
    pass


def ion():
    pass


def ioff():
    pass


def isinteractive():
    return False


def savefig(*args, **kwargs):
    return gcf().savefig(*args, **kwargs)


def subplots(nrows=1, ncols=1, *, sharex=False, sharey=False, squeeze=True, width_ratios=None,
             height_ratios=None, subplot_kw=None, gridspec_kw=None, **fig_kw):
    fig = figure(**fig_kw)
    axs = fig.subplots(nrows, ncols, sharex=sharex, sharey=sharey, squeeze=squeeze,
                       width_ratios=width_ratios, height_ratios=height_ratios,
                       subplot_kw=subplot_kw, gridspec_kw=gridspec_kw)
    return fig, axs


def subplot_mosaic(mosaic, **kwargs):
    fig = figure(**{k: kwargs.pop(k) for k in ("figsize", "dpi") if k in kwargs})
    return fig, fig.subplot_mosaic(mosaic, **kwargs)


def subplot(*args, **kwargs):
    fig = gcf()
    if not args:
        args = (1, 1, 1)
    if len(args) == 1 and isinstance(args[0], int):
        n = args[0]
        args = (n // 100, (n // 10) % 10, n % 10)
    if len(args) == 3:
        nrows, ncols, index = args
        for ax in fig.axes:
            spec = ax.get_subplotspec()
            if spec is not None and spec.gridspec.get_geometry() == (nrows, ncols) and \
                    not isinstance(index, tuple) and spec.num1 == spec.num2 == index - 1 \
                    and not kwargs:
                fig.sca(ax)
                return ax
    return fig.add_subplot(*args, **kwargs)


def subplot2grid(shape, loc, rowspan=1, colspan=1, fig=None, **kwargs):
    from .gridspec import GridSpec
    fig = fig or gcf()
    gs = GridSpec(shape[0], shape[1], figure=fig)
    return fig.add_subplot(gs[loc[0]:loc[0] + rowspan, loc[1]:loc[1] + colspan], **kwargs)


def axes(arg=None, **kwargs):
    fig = gcf()
    if arg is None:
        return fig.add_subplot(**kwargs)
    return fig.add_axes(arg, **kwargs)


def subplots_adjust(left=None, bottom=None, right=None, top=None, wspace=None, hspace=None):
    gcf().subplots_adjust(left, bottom, right, top, wspace, hspace)


def tight_layout(*, pad=1.08, h_pad=None, w_pad=None, rect=None):
    gcf().tight_layout(pad=pad, h_pad=h_pad, w_pad=w_pad, rect=rect)


def suptitle(t, **kwargs):
    return gcf().suptitle(t, **kwargs)


def supxlabel(t, **kwargs):
    return gcf().supxlabel(t, **kwargs)


def supylabel(t, **kwargs):
    return gcf().supylabel(t, **kwargs)


def figtext(x, y, s, fontdict=None, **kwargs):
    return gcf().text(x, y, s, fontdict=fontdict, **kwargs)


def figlegend(*args, **kwargs):
    return gcf().legend(*args, **kwargs)


def colorbar(mappable=None, cax=None, ax=None, **kwargs):
    if mappable is None:
        mappable = gci()
        if mappable is None:
            raise RuntimeError("No mappable was found to use for colorbar creation. First "
                               "define a mappable such as an image (with imshow) or a contour "
                               "set (with contourf).")
    return gcf().colorbar(mappable, cax=cax, ax=ax, **kwargs)


def clim(vmin=None, vmax=None):
    im = gci()
    if im is None:
        raise RuntimeError("You must first define an image, e.g., with imshow")
    im.set_clim(vmin, vmax)


def set_cmap(cmap):
    rcParams["image.cmap"] = cmap if isinstance(cmap, str) else cmap.name
    im = gci()
    if im is not None:
        im.set_cmap(cmap)


def imread(fname, format=None):
    raise NotImplementedError("imread is not available in the playground: it reads no image "
                              "files")


def imsave(fname, arr, **kwargs):
    raise NotImplementedError("imsave is not available in the playground: it writes no PNG")


def setp(obj, *args, **kwargs):
    objs = obj if isinstance(obj, (list, tuple)) else [obj]
    for o in objs:
        if args:
            kwargs.update(dict(zip(args[::2], args[1::2])))
        o.set(**kwargs)


def getp(obj, prop):
    return getattr(obj, "get_" + prop)()


# The current axes' methods, as pyplot functions.

def _gca_method(name):
    def f(*args, **kwargs):
        return getattr(gca(), name)(*args, **kwargs)
    f.__name__ = name
    f.__qualname__ = name
    return f


for _name in ("plot", "scatter", "bar", "barh", "hist", "imshow", "matshow", "errorbar",
              "fill_between", "fill_betweenx", "axhline", "axvline", "axhspan", "axvspan",
              "hlines", "vlines", "text", "annotate", "semilogy", "semilogx", "loglog",
              "step", "stem", "pie", "boxplot", "violinplot", "contour", "contourf", "quiver",
              "pcolormesh", "pcolor", "bar_label", "clabel", "hist2d", "margins", "tick_params", "locator_params",
              "ticklabel_format", "twinx", "twiny", "minorticks_on", "minorticks_off",
              "autoscale"):
    globals()[_name] = _gca_method(_name)
del _name


def title(label, fontdict=None, loc=None, pad=None, **kwargs):
    return gca().set_title(label, fontdict=fontdict, loc=loc, pad=pad, **kwargs)


def xlabel(xlabel, fontdict=None, labelpad=None, *, loc=None, **kwargs):
    return gca().set_xlabel(xlabel, fontdict=fontdict, labelpad=labelpad, loc=loc, **kwargs)


def ylabel(ylabel, fontdict=None, labelpad=None, *, loc=None, **kwargs):
    return gca().set_ylabel(ylabel, fontdict=fontdict, labelpad=labelpad, loc=loc, **kwargs)


def legend(*args, **kwargs):
    return gca().legend(*args, **kwargs)


def grid(visible=None, which="major", axis="both", **kwargs):
    return gca().grid(visible, which=which, axis=axis, **kwargs)


def xlim(*args, **kwargs):
    ax = gca()
    if not args and not kwargs:
        return ax.get_xlim()
    return ax.set_xlim(*args, **kwargs)


def ylim(*args, **kwargs):
    ax = gca()
    if not args and not kwargs:
        return ax.get_ylim()
    return ax.set_ylim(*args, **kwargs)


def xscale(value, **kwargs):
    gca().set_xscale(value, **kwargs)


def yscale(value, **kwargs):
    gca().set_yscale(value, **kwargs)


def _ticks(axis, ticks, labels, minor, kwargs):
    if ticks is None:
        locs = axis.get_ticklocs(minor=minor)
        if labels is not None:
            raise TypeError("xticks(): Parameter 'labels' can't be set without setting "
                            "'ticks'")
    else:
        locs = axis.set_ticks(ticks, minor=minor)
    if labels is None:
        axis._tick_kwargs(dict(kwargs))
        texts = axis.get_ticklabels(minor=minor)
    else:
        texts = axis.set_ticklabels(labels, minor=minor, **kwargs)
    return locs, texts


def xticks(ticks=None, labels=None, *, minor=False, **kwargs):
    return _ticks(gca().xaxis, ticks, labels, minor, kwargs)


def yticks(ticks=None, labels=None, *, minor=False, **kwargs):
    return _ticks(gca().yaxis, ticks, labels, minor, kwargs)


def axis(arg=None, /, *, emit=True, **kwargs):
    return gca().axis(arg, emit=emit, **kwargs)


def box(on=None):
    ax = gca()
    ax.set_frame_on(not ax.get_frame_on() if on is None else on)


def get_current_fig_manager():
    return gcf().canvas.manager


def switch_backend(newbackend):
    pass


def get_backend():
    return rcParams["backend"]
