"""`Axes`: what programs draw with (plot, scatter, bar, hist, imshow,
errorbar, fill_between, axhline/axvline, pie, boxplot, violinplot,
contour/contourf, quiver, pcolormesh, hist2d, text, legend), over the state in
`_axes_base`."""


from . import rcParams
from ._axes_base import AxesBase
from ._convert import columns, flat, grid, tolist, values
from .collections import LineCollection, PathCollection, PolyCollection
from .colors import Normalize, to_rgba, to_rgba_array
from .container import BarContainer, Container, ErrorbarContainer
from .lines import Line2D, parse_fmt
from .patches import Rectangle
from .text import Text

__all__ = ["Axes"]

_UNFILLED = set("+x1234|_,")


def _pop_aliases(kwargs, table):
    for short, long in table.items():
        if short in kwargs:
            kwargs[long] = kwargs.pop(short)


class Axes(AxesBase):
    """One plot area in a figure, as matplotlib's `Axes`."""

    # Line plots.

    def plot(self, *args, scalex=True, scaley=True, data=None, **kwargs):
        """plot([x], y, [fmt], ..., **kwargs): lines through the points."""
        groups = []
        args = list(args)
        while args:
            x = y = fmt = None
            if len(args) >= 2 and isinstance(args[1], str) and not isinstance(args[0], str):
                y, fmt = args[0], args[1]
                args = args[2:]
            elif len(args) >= 3 and isinstance(args[2], str):
                x, y, fmt = args[0], args[1], args[2]
                args = args[3:]
            elif len(args) >= 2 and not isinstance(args[1], str):
                x, y = args[0], args[1]
                args = args[2:]
            else:
                y = args[0]
                args = args[1:]
            groups.append((x, y, fmt))
        lines = []
        for x, y, fmt in groups:
            lines.extend(self._plot_group(x, y, fmt, dict(kwargs)))
        return lines

    def _plot_group(self, x, y, fmt, kwargs):
        ycols = columns(y)
        if x is None:
            n = len(ycols[0]) if ycols else 0
            xcols = [[float(i) for i in range(n)]]
        else:
            xcols = columns(x)
        xcols = [self._convert("x", c) for c in xcols]
        ycols = [self._convert("y", c) for c in ycols]
        if len(xcols) != 1 and len(ycols) != 1 and len(xcols) != len(ycols):
            raise ValueError(f"x has {len(xcols)} columns but y has {len(ycols)} columns")
        ncols = max(len(xcols), len(ycols))
        xlen = len(xcols[0])
        ylen = len(ycols[0])
        if xlen != ylen:
            raise ValueError(f"x and y must have same first dimension, but have shapes "
                             f"({xlen},) and ({ylen},)")
        linestyle = marker = color = None
        if fmt is not None:
            linestyle, marker, color = parse_fmt(fmt)
        _pop_aliases(kwargs, {"c": "color", "lw": "linewidth", "ls": "linestyle",
                              "ms": "markersize", "mfc": "markerfacecolor",
                              "mec": "markeredgecolor", "mew": "markeredgewidth"})
        if "color" in kwargs and kwargs["color"] is not None:
            color = kwargs.pop("color")
        else:
            kwargs.pop("color", None)
        if "linestyle" in kwargs:
            linestyle = kwargs.pop("linestyle")
        if "marker" in kwargs:
            marker = kwargs.pop("marker")
            if linestyle is None and fmt is not None and marker:
                linestyle = "None"
        label = kwargs.pop("label", None)
        labels = [label] * ncols
        if isinstance(label, (list, tuple)):
            if len(label) != ncols:
                raise ValueError(f"label must be scalar or have the same length as the "
                                 f"input data, but found {len(label)} for {ncols} datasets.")
            labels = list(label)
        out = []
        for i in range(ncols):
            xs = xcols[i if len(xcols) > 1 else 0]
            ys = ycols[i if len(ycols) > 1 else 0]
            c = color if color is not None else self._next_line_color()
            line = Line2D(xs, ys, color=c, linestyle=linestyle, marker=marker,
                          label=labels[i], **kwargs)
            out.append(self._add(line))
        return out

    def _convert(self, name, data):
        axis = self.xaxis if name == "x" else self.yaxis
        if data and all(isinstance(v, str) for v in data):
            axis.update_units(data)
            return axis.convert_units(data)
        return [float(v) for v in data]

    def semilogy(self, *args, **kwargs):
        self.set_yscale("log")
        return self.plot(*args, **kwargs)

    def semilogx(self, *args, **kwargs):
        self.set_xscale("log")
        return self.plot(*args, **kwargs)

    def loglog(self, *args, **kwargs):
        self.set_xscale("log")
        self.set_yscale("log")
        return self.plot(*args, **kwargs)

    def step(self, x, y, *args, where="pre", **kwargs):
        xs, ys = flat(x), flat(y)
        sx, sy = [], []
        for i in range(len(xs)):
            if i == 0:
                sx.append(xs[0])
                sy.append(ys[0])
                continue
            if where == "pre":
                sx += [xs[i - 1], xs[i]]
                sy += [ys[i], ys[i]]
            elif where == "post":
                sx += [xs[i], xs[i]]
                sy += [ys[i - 1], ys[i]]
            else:
                mid = (xs[i - 1] + xs[i]) / 2
                sx += [mid, mid, xs[i]]
                sy += [ys[i - 1], ys[i], ys[i]]
        return self.plot(sx, sy, *args, **kwargs)

    def axhline(self, y=0, xmin=0, xmax=1, **kwargs):
        _pop_aliases(kwargs, {"c": "color", "lw": "linewidth", "ls": "linestyle"})
        color = kwargs.pop("color", None) or self._next_line_color()
        line = Line2D([xmin, xmax], [float(y), float(y)], color=color, **kwargs)
        line._axline = "h"
        return self._add(line)

    def axvline(self, x=0, ymin=0, ymax=1, **kwargs):
        _pop_aliases(kwargs, {"c": "color", "lw": "linewidth", "ls": "linestyle"})
        color = kwargs.pop("color", None) or self._next_line_color()
        line = Line2D([float(x), float(x)], [ymin, ymax], color=color, **kwargs)
        line._axline = "v"
        return self._add(line)

    def hlines(self, y, xmin, xmax, colors=None, linestyles="solid", label="", **kwargs):
        ys = flat(y)
        x0s = flat(xmin) * (len(ys) if len(flat(xmin)) == 1 else 1)
        x1s = flat(xmax) * (len(ys) if len(flat(xmax)) == 1 else 1)
        segs = [[(a, v), (b, v)] for v, a, b in zip(ys, x0s, x1s)]
        return self._add(LineCollection(segs, edgecolors=to_rgba_array(colors or "C0"),
                                        linewidths=[kwargs.get("linewidth", 1.5)], label=label))

    def vlines(self, x, ymin, ymax, colors=None, linestyles="solid", label="", **kwargs):
        xs = flat(x)
        y0s = flat(ymin) * (len(xs) if len(flat(ymin)) == 1 else 1)
        y1s = flat(ymax) * (len(xs) if len(flat(ymax)) == 1 else 1)
        segs = [[(v, a), (v, b)] for v, a, b in zip(xs, y0s, y1s)]
        return self._add(LineCollection(segs, edgecolors=to_rgba_array(colors or "C0"),
                                        linewidths=[kwargs.get("linewidth", 1.5)], label=label))

    # Scatter.

    def scatter(self, x, y, s=None, c=None, marker=None, cmap=None, norm=None, vmin=None,
                vmax=None, alpha=None, linewidths=None, *, edgecolors=None, **kwargs):
        xs = self._convert("x", values(x))
        ys = self._convert("y", values(y))
        if len(xs) != len(ys):
            raise ValueError("x and y must be the same size")
        n = len(xs)
        _pop_aliases(kwargs, {"edgecolor": "edgecolors", "linewidth": "linewidths",
                              "lw": "linewidths", "ec": "edgecolors", "fc": "facecolors",
                              "facecolor": "facecolors"})
        if "edgecolors" in kwargs:
            edgecolors = kwargs.pop("edgecolors")
        if "linewidths" in kwargs:
            linewidths = kwargs.pop("linewidths")
        color = kwargs.pop("color", None)
        facecolors = kwargs.pop("facecolors", None)
        label = kwargs.pop("label", None)
        zorder = kwargs.pop("zorder", None)
        kwargs.pop("plotnonfinite", None)
        kwargs.pop("rasterized", None)
        kwargs.pop("picker", None)
        if kwargs:
            key = next(iter(kwargs))
            raise AttributeError(f"PathCollection.set() got an unexpected keyword argument '{key}'")
        if s is None:
            sizes = [rcParams["lines.markersize"] ** 2.0]
        else:
            sizes = flat(s)
        marker = marker or rcParams["scatter.marker"]
        if linewidths is None:
            # Filled markers take a collection's default edge width; line
            # markers ('x', '+') are stroked at the lines' width.
            linewidths = rcParams["lines.linewidth"] if marker in _UNFILLED \
                else rcParams["patch.linewidth"]
        lw = flat(linewidths)
        mappable = None
        vals = None
        if c is None:
            c = color if color is not None else facecolors
        if c is None:
            face = [to_rgba(self._next_patch_color(), alpha)]
        else:
            face = None
            raw = tolist(c)
            # Numbers, one a point, are mapped through the colormap even
            # when they could be read as one RGB(A) colour: matplotlib
            # documents that mapping takes precedence.
            if isinstance(raw, list) and raw and not isinstance(raw[0], (str, list)) \
                    and len(raw) == n:
                vals = [float(v) for v in raw]
            elif isinstance(raw, list) and raw and isinstance(raw[0], list) and len(raw) == n \
                    and len(raw[0]) == 1:
                vals = [float(v[0]) for v in raw]
            if vals is not None:
                from .cm import ScalarMappable
                mappable = ScalarMappable(norm if norm is not None else Normalize(vmin, vmax),
                                          cmap)
                mappable.set_array(vals)
                face = mappable.to_rgba(vals, alpha=alpha)
            else:
                face = [to_rgba(v, alpha) for v in to_rgba_array(c)]
        if edgecolors is None:
            edge = "face"
        elif isinstance(edgecolors, str) and edgecolors in ("face", "none"):
            edge = edgecolors
        else:
            edge = [to_rgba(v) for v in to_rgba_array(edgecolors)]
        col = PathCollection(list(zip(xs, ys)), sizes, marker, facecolors=face,
                             edgecolors=edge, linewidths=lw, alpha=alpha, label=label,
                             zorder=zorder)
        col._mappable = mappable
        col._values = vals
        return self._add(col)

    # Bars and histograms.

    def bar(self, x, height, width=0.8, bottom=None, *, align="center", **kwargs):
        return self._bars(x, height, width, bottom, align, kwargs, vertical=True)

    def barh(self, y, width, height=0.8, left=None, *, align="center", **kwargs):
        return self._bars(y, width, height, left, align, kwargs, vertical=False)

    def _bars(self, pos, length, thickness, base, align, kwargs, vertical):
        _pop_aliases(kwargs, {"fc": "facecolor", "ec": "edgecolor", "lw": "linewidth"})
        along = "x" if vertical else "y"
        pos_vals = values(pos)
        pos_vals = self._convert(along, pos_vals)
        lengths = flat(length)
        n = max(len(pos_vals), len(lengths))
        pos_vals = pos_vals * n if len(pos_vals) == 1 else pos_vals
        lengths = lengths * n if len(lengths) == 1 else lengths
        thick = flat(thickness)
        thick = thick * n if len(thick) == 1 else thick
        bases = flat(base) if base is not None else [0.0]
        bases = bases * n if len(bases) == 1 else bases
        color = kwargs.pop("color", None)
        facecolor = kwargs.pop("facecolor", color)
        edgecolor = kwargs.pop("edgecolor", None)
        linewidth = kwargs.pop("linewidth", None)
        label = kwargs.pop("label", None)
        alpha = kwargs.pop("alpha", None)
        tick_label = kwargs.pop("tick_label", None)
        yerr = kwargs.pop("yerr", None)
        xerr = kwargs.pop("xerr", None)
        kwargs.pop("capsize", None)
        kwargs.pop("ecolor", None)
        kwargs.pop("log", None)
        hatch = kwargs.pop("hatch", None)
        zorder = kwargs.pop("zorder", None)
        if kwargs:
            key = next(iter(kwargs))
            raise AttributeError(f"Rectangle.set() got an unexpected keyword argument '{key}'")
        if facecolor is None:
            facecolor = self._next_patch_color()
        faces = facecolor if isinstance(facecolor, (list, tuple)) and len(facecolor) == n \
            and not _looks_rgb(facecolor, n) else [facecolor] * n
        edges = edgecolor if isinstance(edgecolor, (list, tuple)) and len(edgecolor) == n \
            and not _looks_rgb(edgecolor, n) else [edgecolor] * n
        patches = []
        for i in range(n):
            p, l, t, b = pos_vals[i], lengths[i], thick[i], bases[i]
            start = p - t / 2 if align == "center" else p
            if vertical:
                r = Rectangle((start, b), t, l, facecolor=faces[i], edgecolor=edges[i],
                              linewidth=linewidth, alpha=alpha, hatch=hatch, zorder=zorder,
                              label="_nolegend_")
                r.sticky_y = [b]
            else:
                r = Rectangle((b, start), l, t, facecolor=faces[i], edgecolor=edges[i],
                              linewidth=linewidth, alpha=alpha, hatch=hatch, zorder=zorder,
                              label="_nolegend_")
                r.sticky_x = [b]
            patches.append(self._add(r))
        errorbar = None
        if yerr is not None or xerr is not None:
            centers = [p if align == "center" else p + t / 2 for p, t in zip(pos_vals, thick)]
            tips = [b + l for b, l in zip(bases, lengths)]
            if vertical:
                errorbar = self.errorbar(centers, tips, yerr=yerr, xerr=xerr, fmt="none",
                                         ecolor="black")
            else:
                errorbar = self.errorbar(tips, centers, yerr=yerr, xerr=xerr, fmt="none",
                                         ecolor="black")
        if tick_label is not None:
            labels = [tick_label] * n if isinstance(tick_label, str) else list(tick_label)
            axis = self.xaxis if vertical else self.yaxis
            axis.set_ticks(pos_vals, labels)
        container = BarContainer(patches, errorbar, datavalues=lengths,
                                 orientation="vertical" if vertical else "horizontal",
                                 label=label)
        container._label = "_nolegend_" if label is None else str(label)
        self.containers.append(container)
        return container

    def bar_label(self, container, labels=None, *, fmt="%g", padding=0, **kwargs):
        texts = []
        for i, r in enumerate(container.patches):
            v = container.datavalues[i]
            s = labels[i] if labels is not None else (fmt % v if "%" in fmt else fmt.format(v))
            texts.append(self.text(r.get_x() + r.get_width() / 2, r.get_y() + r.get_height(),
                                   s, ha="center", va="bottom"))
        return texts

    def hist(self, x, bins=None, range=None, density=False, weights=None, cumulative=False,
             bottom=None, histtype="bar", align="mid", orientation="vertical", rwidth=None,
             log=False, color=None, label=None, stacked=False, **kwargs):
        datasets = _datasets(x)
        if bins is None:
            bins = rcParams["hist.bins"]
        allvals = [v for d in datasets for v in d if v == v]
        if isinstance(bins, str):
            bins = 10
        if isinstance(bins, (int, float)):
            nb = int(bins)
            if range is not None:
                lo, hi = float(range[0]), float(range[1])
            elif allvals:
                lo, hi = min(allvals), max(allvals)
            else:
                lo, hi = 0.0, 1.0
            if lo == hi:
                lo, hi = lo - 0.5, hi + 0.5
            edges = _linspace(lo, hi, nb + 1)
        else:
            edges = flat(bins)
        wsets = _datasets(weights) if weights is not None else [None] * len(datasets)
        counts = [_histogram(d, edges, w) for d, w in zip(datasets, wsets)]
        if density:
            out = []
            for cnt in counts:
                total = sum(cnt)
                out.append([c / total / (edges[i + 1] - edges[i]) if total else 0.0
                            for i, c in enumerate(cnt)])
            counts = out
        if cumulative:
            counts = [_cumsum(cnt) for cnt in counts]
        if stacked:
            acc = [0.0] * (len(edges) - 1)
            stacked_counts = []
            for cnt in counts:
                acc = [a + c for a, c in zip(acc, cnt)]
                stacked_counts.append(list(acc))
            counts = stacked_counts
        nsets = len(datasets)
        colors = color if isinstance(color, (list, tuple)) and nsets > 1 and \
            not _looks_rgb(color, nsets) else [color] * nsets
        labels = label if isinstance(label, (list, tuple)) else [label] + [None] * (nsets - 1)
        alpha = kwargs.pop("alpha", None)
        edgecolor = kwargs.pop("edgecolor", kwargs.pop("ec", None))
        linewidth = kwargs.pop("linewidth", kwargs.pop("lw", None))
        kwargs.pop("zorder", None)
        all_patches = []
        widths = [b - a for a, b in zip(edges, edges[1:])]
        if histtype.startswith("bar"):
            if nsets > 1 and not stacked and histtype == "bar":
                dr = 0.8 if rwidth is None else min(1.0, max(rwidth, 0.0))
                width_frac = dr / nsets
                boffset = -0.5 * dr + 0.5 * width_frac
            else:
                dr = 1.0 if rwidth is None else min(1.0, max(rwidth, 0.0))
                width_frac = dr
                boffset = 0.0
            prev = [0.0] * len(widths)
            for k, cnt in enumerate(counts):
                c = colors[k] if colors[k] is not None else self._next_line_color()
                patches = []
                for i, h in enumerate(cnt):
                    w = widths[i] * width_frac
                    left = edges[i] + widths[i] * (0.5 + boffset) - w / 2 + \
                        (k * widths[i] * width_frac if nsets > 1 and not stacked else 0.0)
                    b = prev[i] if stacked else 0.0
                    height = h - b if stacked else h
                    if orientation == "horizontal":
                        r = Rectangle((b, left), height, w, facecolor=c, alpha=alpha,
                                      edgecolor=edgecolor, linewidth=linewidth,
                                      label="_nolegend_")
                        r.sticky_x = [0]
                    else:
                        r = Rectangle((left, b), w, height, facecolor=c, alpha=alpha,
                                      edgecolor=edgecolor, linewidth=linewidth,
                                      label="_nolegend_")
                        r.sticky_y = [0]
                    patches.append(self._add(r))
                if patches:
                    patches[0]._label = "" if labels[k] is None else str(labels[k])
                    if labels[k] is None:
                        patches[0]._label = "_nolegend_"
                prev = cnt
                all_patches.append(patches)
        else:
            for k, cnt in enumerate(counts):
                c = colors[k] if colors[k] is not None else self._next_line_color()
                xs, ys = [edges[0]], [0.0]
                for i, h in enumerate(cnt):
                    xs += [edges[i], edges[i + 1]]
                    ys += [h, h]
                xs.append(edges[-1])
                ys.append(0.0)
                if orientation == "horizontal":
                    xs, ys = ys, xs
                line = Line2D(xs, ys, color=c, label=labels[k], alpha=alpha)
                line.sticky_y = [0]
                all_patches.append([self._add(line)])
        if log:
            self.set_yscale("log")
        n_out = counts[0] if nsets == 1 else counts
        if histtype.startswith("bar"):
            containers = [BarContainer(p, label=None) for p in all_patches]
        else:
            containers = [_BarList(p) for p in all_patches]
        patches_out = containers[0] if nsets == 1 else _BarList(containers)
        return _np_array(n_out), _np_array(edges), patches_out

    # Images.

    def imshow(self, X, cmap=None, norm=None, *, aspect=None, interpolation=None, alpha=None,
               vmin=None, vmax=None, origin=None, extent=None, **kwargs):
        from .cm import ScalarMappable
        from .image import AxesImage
        data = grid(X)
        kwargs.pop("resample", None)
        kwargs.pop("filternorm", None)
        kwargs.pop("interpolation_stage", None)
        kwargs.pop("zorder", None)
        kwargs.pop("rasterized", None)
        kwargs.pop("url", None)
        rows, cols = len(data), len(data[0])
        origin = origin or rcParams["image.origin"]
        mappable = ScalarMappable(norm if norm is not None else Normalize(vmin, vmax), cmap)
        if not (data and isinstance(data[0][0], list)):
            vals = [float(v) for row in data for v in row]
            mappable.set_array(vals)
            mappable.norm.autoscale_None([v for v in vals if v == v])
        if extent is None:
            if origin == "upper":
                extent = (-0.5, cols - 0.5, rows - 0.5, -0.5)
            else:
                extent = (-0.5, cols - 0.5, -0.5, rows - 0.5)
        extent = tuple(float(v) for v in extent)
        im = AxesImage(data, extent, origin, mappable, alpha=alpha, interpolation=interpolation)
        l, r, b, t = extent
        im.sticky_x = [min(l, r), max(l, r)]
        im.sticky_y = [min(b, t), max(b, t)]
        self._add(im)
        self.set_aspect(aspect if aspect is not None else rcParams["image.aspect"])
        self._set_lim("x", l, r, keep_auto=True)
        self._set_lim("y", b, t, keep_auto=True)
        label = kwargs.pop("label", None)
        if label is not None:
            im.set_label(label)
        return im

    def matshow(self, Z, **kwargs):
        im = self.imshow(Z, **kwargs)
        self.xaxis.tick_top()
        from .ticker import MaxNLocator
        self.xaxis.set_major_locator(MaxNLocator(nbins=9, steps=[1, 2, 5, 10], integer=True))
        self.yaxis.set_major_locator(MaxNLocator(nbins=9, steps=[1, 2, 5, 10], integer=True))
        return im

    def pcolormesh(self, *args, alpha=None, norm=None, cmap=None, vmin=None, vmax=None,
                   shading=None, **kwargs):
        """Cells coloured by C between edges X and Y (1-D, or the first row
        and column of 2-D grids): X and Y one longer than C's sides are its
        edges, as long are its cells' centres ('nearest'), absent are 0..n."""
        from .cm import ScalarMappable
        from .collections import QuadMesh
        from .image import AxesImage
        if len(args) == 1:
            C, X, Y = args[0], None, None
        elif len(args) == 3:
            X, Y, C = args
        else:
            raise TypeError(f"pcolormesh() takes 1 or 3 positional arguments but {len(args)} "
                            "were given")
        data = [[float("nan") if v is None else v for v in row] for row in grid(C)]
        rows, cols = len(data), len(data[0])

        def edges(v, n, first):
            if v is None:
                return [float(i) for i in range(n + 1)]
            v = tolist(v)
            if isinstance(v, list) and v and isinstance(v[0], list):
                v = v[0] if first else [row[0] for row in v]
            v = [float(a) for a in v]
            if len(v) == n + 1:
                return v
            if len(v) == n:
                if n == 1:
                    return [v[0] - 0.5, v[0] + 0.5]
                mid = [(a + b) / 2 for a, b in zip(v, v[1:])]
                return [v[0] - (mid[0] - v[0])] + mid + [v[-1] + (v[-1] - mid[-1])]
            raise TypeError(f"Dimensions of C ({rows}, {cols}) are incompatible with X "
                            f"({len(v) if first else cols}) and/or Y "
                            f"({len(v) if not first else rows}); see help(pcolormesh)")

        xe, ye = edges(X, cols, True), edges(Y, rows, False)
        mappable = ScalarMappable(norm if norm is not None else Normalize(vmin, vmax), cmap)
        vals = [float(v) for row in data for v in row]
        mappable.set_array(vals)
        mappable.norm.autoscale_None([v for v in vals if v == v])
        image = AxesImage(data, (xe[0], xe[-1], ye[0], ye[-1]), "lower", mappable,
                          alpha=alpha)
        mesh = QuadMesh(xe, ye, image, alpha=alpha, label=kwargs.pop("label", None),
                        zorder=kwargs.pop("zorder", None))
        image.axes = self
        self._add(mesh)
        return mesh

    def hist2d(self, x, y, bins=10, range=None, density=False, weights=None, cmin=None,
               cmax=None, **kwargs):
        """np.histogram2d's counts drawn by pcolormesh, limits at the edges;
        returns (counts, xedges, yedges, mesh)."""
        from bisect import bisect_right
        xs, ys = flat(x), flat(y)
        if len(xs) != len(ys):
            raise ValueError("x and y must have the same length.")
        ws = None if weights is None else flat(weights)
        nb = bins if isinstance(bins, (list, tuple)) and len(bins) == 2 else [bins, bins]
        out_edges = []
        for k, (vals, b) in enumerate(zip((xs, ys), nb)):
            b = tolist(b)
            if isinstance(b, list):
                out_edges.append([float(v) for v in b])
                continue
            lo, hi = (float(v) for v in range[k]) if range is not None else \
                (min(vals), max(vals))
            if lo == hi:
                lo, hi = lo - 0.5, hi + 0.5
            out_edges.append(_linspace(lo, hi, int(b) + 1))
        xe, ye = out_edges
        h = [[0.0] * (len(ye) - 1) for _ in xe[:-1]]
        for k, (a, b) in enumerate(zip(xs, ys)):
            i, j = bisect_right(xe, a) - 1, bisect_right(ye, b) - 1
            if a == xe[-1]:
                i -= 1
            if b == ye[-1]:
                j -= 1
            if 0 <= i < len(h) and 0 <= j < len(h[0]) and xe[0] <= a and ye[0] <= b:
                h[i][j] += 1.0 if ws is None else ws[k]
        if density:
            total = sum(map(sum, h))
            for i, row in enumerate(h):
                for j, v in enumerate(row):
                    row[j] = v / total / ((xe[i + 1] - xe[i]) * (ye[j + 1] - ye[j]))
        shown = [[None if (cmin is not None and v < cmin) or (cmax is not None and v > cmax)
                  else v for v in (h[i][j] for i in _range(len(h)))] for j in _range(len(ye) - 1)]
        mesh = self.pcolormesh(xe, ye, shown, **kwargs)
        self.set_xlim(xe[0], xe[-1])
        self.set_ylim(ye[0], ye[-1])
        return _np_array(h), _np_array(xe), _np_array(ye), mesh

    pcolor = pcolormesh

    # Errors and bands.

    def errorbar(self, x, y, yerr=None, xerr=None, fmt="", ecolor=None, elinewidth=None,
                 capsize=None, barsabove=False, lolims=False, uplims=False, xlolims=False,
                 xuplims=False, errorevery=1, capthick=None, **kwargs):
        xs = self._convert("x", values(x))
        ys = self._convert("y", values(y))
        n = len(ys)
        _pop_aliases(kwargs, {"c": "color", "lw": "linewidth", "ls": "linestyle",
                              "ms": "markersize"})
        label = kwargs.pop("label", None)
        color = kwargs.pop("color", None)
        linestyle = marker = fmt_color = None
        if fmt != "none":
            if fmt:
                linestyle, marker, fmt_color = parse_fmt(fmt)
            color = color or fmt_color or self._next_line_color()
        data_line = None
        if fmt != "none":
            data_line = Line2D(xs, ys, color=color, linestyle=linestyle, marker=marker,
                               label="_nolegend_", **kwargs)
            self._add(data_line)
        ecolor = ecolor or color or "C0"
        if capsize is None:
            capsize = rcParams["errorbar.capsize"]
        lw = elinewidth if elinewidth is not None else kwargs.get("linewidth",
                                                                   rcParams["lines.linewidth"])
        caplines = []
        barcols = []

        def spread(err):
            raw = tolist(err)
            if not isinstance(raw, list):
                return [float(raw)] * n, [float(raw)] * n
            if raw and isinstance(raw[0], list):
                return [float(v) for v in raw[0]], [float(v) for v in raw[1]]
            vals = [float(v) for v in raw]
            return vals, vals

        if yerr is not None:
            lo, hi = spread(yerr)
            segs = [[(xs[i], ys[i] - lo[i]), (xs[i], ys[i] + hi[i])] for i in range(n)]
            col = LineCollection(segs, edgecolors=[to_rgba(ecolor)], linewidths=[lw],
                                 label="_nolegend_")
            barcols.append(self._add(col))
            if capsize > 0:
                for vals in ([ys[i] - lo[i] for i in range(n)], [ys[i] + hi[i] for i in range(n)]):
                    cap = Line2D(xs, vals, color=ecolor, linestyle="None", marker="_",
                                 markersize=2.0 * capsize, label="_nolegend_")
                    caplines.append(self._add(cap))
        if xerr is not None:
            lo, hi = spread(xerr)
            segs = [[(xs[i] - lo[i], ys[i]), (xs[i] + hi[i], ys[i])] for i in range(n)]
            col = LineCollection(segs, edgecolors=[to_rgba(ecolor)], linewidths=[lw],
                                 label="_nolegend_")
            barcols.append(self._add(col))
            if capsize > 0:
                for vals in ([xs[i] - lo[i] for i in range(n)], [xs[i] + hi[i] for i in range(n)]):
                    cap = Line2D(vals, ys, color=ecolor, linestyle="None", marker="|",
                                 markersize=2.0 * capsize, label="_nolegend_")
                    caplines.append(self._add(cap))
        container = ErrorbarContainer((data_line, tuple(caplines), tuple(barcols)),
                                      has_xerr=xerr is not None, has_yerr=yerr is not None,
                                      label=label)
        container._label = "_nolegend_" if label is None else str(label)
        container._color = ecolor if data_line is None else data_line.get_color()
        self.containers.append(container)
        return container

    def fill_between(self, x, y1, y2=0, where=None, interpolate=False, step=None, **kwargs):
        return self._fill_between("x", x, y1, y2, where, kwargs)

    def fill_betweenx(self, y, x1, x2=0, where=None, step=None, interpolate=False, **kwargs):
        return self._fill_between("y", y, x1, x2, where, kwargs)

    def _fill_between(self, ind, t, a, b, where, kwargs):
        ts = self._convert(ind, values(t))
        n = len(ts)
        av = flat(a)
        bv = flat(b)
        av = av * n if len(av) == 1 else av
        bv = bv * n if len(bv) == 1 else bv
        mask = [True] * n if where is None else [bool(v) for v in flat(where)]
        _pop_aliases(kwargs, {"fc": "facecolor", "ec": "edgecolor", "lw": "linewidth"})
        color = kwargs.pop("color", None)
        face = kwargs.pop("facecolor", color)
        edge = kwargs.pop("edgecolor", color)
        alpha = kwargs.pop("alpha", None)
        label = kwargs.pop("label", None)
        lw = kwargs.pop("linewidth", None)
        kwargs.pop("zorder", None)
        kwargs.pop("hatch", None)
        kwargs.pop("linestyle", None)
        if face is None:
            face = self._next_patch_color()
        polys = []
        run = []
        for i in range(n + 1):
            if i < n and mask[i]:
                run.append(i)
                continue
            if run:
                top = [(ts[j], av[j]) for j in run]
                bottom = [(ts[j], bv[j]) for j in reversed(run)]
                poly = top + bottom
                if ind == "y":
                    poly = [(v, u) for u, v in poly]
                polys.append(poly)
            run = []
        col = PolyCollection(polys, facecolors=[to_rgba(face, alpha)],
                             edgecolors=[to_rgba(edge, alpha)] if edge is not None else [],
                             linewidths=[lw if lw is not None else 1.0], alpha=alpha, label=label)
        return self._add(col)

    def axhspan(self, ymin, ymax, xmin=0, xmax=1, **kwargs):
        color = kwargs.pop("color", None) or kwargs.pop("facecolor", None) or \
            self._next_patch_color()
        r = Rectangle((xmin, ymin), xmax - xmin, ymax - ymin, facecolor=color,
                      alpha=kwargs.pop("alpha", None), label=kwargs.pop("label", None))
        r._span = "h"
        return self._add(r)

    def axvspan(self, xmin, xmax, ymin=0, ymax=1, **kwargs):
        color = kwargs.pop("color", None) or kwargs.pop("facecolor", None) or \
            self._next_patch_color()
        r = Rectangle((xmin, ymin), xmax - xmin, ymax - ymin, facecolor=color,
                      alpha=kwargs.pop("alpha", None), label=kwargs.pop("label", None))
        r._span = "v"
        return self._add(r)

    def stem(self, *args, **kwargs):
        if len(args) == 1:
            ys = flat(args[0])
            xs = [float(i) for i in range(len(ys))]
        else:
            xs, ys = flat(args[0]), flat(args[1])
        self.vlines(xs, 0, ys, colors="C0")
        markers = self.plot(xs, ys, "o", color="C0")
        base = self.plot([min(xs), max(xs)], [0, 0], color="C3")
        return Container([markers[0], base[0]])

    def pie(self, x, explode=None, labels=None, colors=None, autopct=None, pctdistance=0.6,
            shadow=False, labeldistance=1.1, startangle=0, radius=1, counterclock=True,
            wedgeprops=None, textprops=None, center=(0, 0), frame=False, rotatelabels=False,
            *, normalize=True, hatch=None):
        """Wedges from `startangle`, counter-clockwise, each its fraction of
        the whole; labels outside at `labeldistance`, `autopct` inside at
        `pctdistance`; returns a `PieContainer` that unpacks as (wedges,
        texts) or (wedges, texts, autotexts)."""
        import math
        from .container import PieContainer
        from .patches import Wedge
        self.set_aspect("equal")
        raw = tolist(x)
        if isinstance(raw, list) and raw and isinstance(raw[0], list):
            raise ValueError("x must be 1D")
        xs = flat(raw)
        if any(v < 0 for v in xs):
            raise ValueError("Wedge sizes 'x' must be non negative values")
        if not all(math.isfinite(v) for v in xs):
            raise ValueError("Wedge sizes must be finite numbers")
        sx = sum(xs)
        if sx == 0:
            raise ValueError("All wedge sizes are zero")
        if normalize:
            fracs = [v / sx for v in xs]
        elif sx > 1:
            raise ValueError("Cannot plot an unnormalized pie with sum(x) > 1")
        else:
            fracs = xs
        labels = [""] * len(xs) if labels is None else list(labels)
        explode = [0] * len(xs) if explode is None else flat(explode)
        if len(xs) != len(labels):
            raise ValueError(f"'labels' must be of length 'x', not {len(labels)}")
        if len(xs) != len(explode):
            raise ValueError(f"'explode' must be of length 'x', not {len(explode)}")
        if radius <= 0:
            raise ValueError(f"'radius' must be a positive number, not {radius}")
        color_list = None if colors is None else list(colors)
        wedges = []
        theta1 = startangle / 360
        for k, (frac, label, expl) in enumerate(zip(fracs, labels, explode)):
            cx, cy = center
            theta2 = (theta1 + frac) if counterclock else (theta1 - frac)
            thetam = 2 * math.pi * 0.5 * (theta1 + theta2)
            cx += expl * math.cos(thetam)
            cy += expl * math.sin(thetam)
            face = self._next_patch_color() if color_list is None else \
                color_list[k % len(color_list)]
            w = Wedge((cx, cy), radius, 360.0 * min(theta1, theta2),
                      360.0 * max(theta1, theta2), facecolor=face, label=label)
            for key, value in (wedgeprops or {}).items():
                getattr(w, "set_" + key)(value)
            wedges.append(self._add(w))
            theta1 = theta2
        pc = PieContainer(wedges, xs, normalize)
        if labeldistance is None:
            pc.add_texts([])
        else:
            props = {"fontsize": rcParams["xtick.labelsize"], **(textprops or {})}
            self.pie_label(pc, labels, distance=labeldistance, alignment="outer",
                           rotate=rotatelabels, textprops=props)
        if autopct is not None:
            autos = []
            for frac in fracs:
                if isinstance(autopct, str):
                    autos.append(autopct % (100.0 * frac))
                elif callable(autopct):
                    autos.append(autopct(100.0 * frac))
                else:
                    raise TypeError("autopct must be callable or a format string")
            self.pie_label(pc, autos, distance=pctdistance, alignment="center",
                           textprops=textprops)
        if not frame:
            self.set_frame_on(False)
            self.set_xticks([])
            self.set_yticks([])
            self.set_xlim(-1.25 + center[0], 1.25 + center[0])
            self.set_ylim(-1.25 + center[1], 1.25 + center[1])
        return pc

    def pie_label(self, container, labels, *, distance=0.6, textprops=None, rotate=False,
                  alignment="auto"):
        import math
        if alignment not in ("center", "outer", "auto"):
            raise ValueError(f"{alignment!r} is not a valid value for alignment; supported "
                             "values are 'center', 'outer', 'auto'")
        if alignment == "auto":
            alignment = "outer" if distance > 1 else "center"
        textprops = dict(textprops or {})
        if isinstance(labels, str):
            total = sum(container._values)
            labels = [labels.format(absval=v, frac=v / total if container._normalize else v)
                      for v in container._values]
        elif len(container.wedges) != len(labels):
            raise ValueError(f"The number of labels ({len(labels)}) must match the number "
                             f"of wedges ({len(container.wedges)})")
        texts = []
        for wedge, label in zip(container.wedges, labels):
            thetam = 2 * math.pi * 0.5 * (wedge.theta1 + wedge.theta2) / 360
            xt = wedge.center[0] + distance * wedge.r * math.cos(thetam)
            yt = wedge.center[1] + distance * wedge.r * math.sin(thetam)
            ha = ("left" if xt > 0 else "right") if alignment == "outer" else "center"
            va = "center"
            rotation = 0.0
            if rotate:
                if alignment == "outer":
                    va = "bottom" if yt > 0 else "top"
                rotation = math.degrees(thetam) + (0 if xt > 0 else 180)
            texts.append(self.text(xt, yt, label, rotation=rotation, ha=ha, va=va,
                                   **textprops))
        container.add_texts(texts)
        return texts

    def boxplot(self, x, notch=None, sym=None, vert=None, whis=None, positions=None,
                widths=None, patch_artist=None, bootstrap=None, usermedians=None,
                conf_intervals=None, meanline=None, showmeans=None, showcaps=None,
                showbox=None, showfliers=None, boxprops=None, tick_labels=None,
                flierprops=None, medianprops=None, meanprops=None, capprops=None,
                whiskerprops=None, manage_ticks=True, autorange=False, zorder=None,
                capwidths=None, label=None, labels=None, orientation="vertical"):
        """Boxes from the quartiles (NumPy's linear percentiles), whiskers
        to the last points within `whis` times the box's height, the points
        beyond them as fliers, the median in C1; one box per column of a
        2-D array or per list, at 1, 2, ... with those numbers as ticks.
        Returns the dict of its lines, as matplotlib's."""
        from .ticker import FixedFormatter, FixedLocator
        tick_labels = tick_labels if tick_labels is not None else labels
        whis = rcParams["boxplot.whiskers"] if whis is None else whis
        showfliers = rcParams["boxplot.showfliers"] if showfliers is None else showfliers
        showcaps = rcParams["boxplot.showcaps"] if showcaps is None else showcaps
        showbox = rcParams["boxplot.showbox"] if showbox is None else showbox
        showmeans = rcParams["boxplot.showmeans"] if showmeans is None else showmeans
        if vert is not None:
            orientation = "vertical" if vert else "horizontal"
        # As matplotlib's _reshape_2D: a list of sequences is one box each,
        # a 2-D array (NumPy, a tensor) one box a column.
        if isinstance(x, (list, tuple)) and x and not all(
                isinstance(v, (int, float)) for v in x):
            datasets = [flat(v) for v in x]
        else:
            datasets = _datasets(x)
        n = len(datasets)
        positions = list(range(1, n + 1)) if positions is None else flat(positions)
        if len(positions) != n:
            raise ValueError("List of boxplot statistics and `positions` values must have "
                             "same the length")
        if widths is None:
            span = max(positions) - min(positions) if positions else 0
            widths = [min(max(0.15 * span, 0.15), 0.5)] * n
        elif isinstance(widths, (int, float)):
            widths = [float(widths)] * n
        if capwidths is None:
            capwidths = [0.5 * w for w in widths]
        elif isinstance(capwidths, (int, float)):
            capwidths = [float(capwidths)] * n

        def props(name, extra):
            out = {"color": rcParams[f"boxplot.{name}.color"],
                   "linewidth": rcParams[f"boxplot.{name}.linewidth"],
                   "linestyle": rcParams[f"boxplot.{name}.linestyle"]}
            out.update(extra or {})
            return out

        box_kw = props("boxprops", boxprops)
        whisker_kw = props("whiskerprops", whiskerprops)
        cap_kw = props("capprops", capprops)
        median_kw = props("medianprops", medianprops)
        flier_kw = {"color": rcParams["boxplot.flierprops.color"],
                    "marker": rcParams["boxplot.flierprops.marker"],
                    "markerfacecolor": rcParams["boxplot.flierprops.markerfacecolor"],
                    "markeredgecolor": rcParams["boxplot.flierprops.markeredgecolor"],
                    "markersize": rcParams["boxplot.flierprops.markersize"],
                    "linestyle": "none"}
        if sym:
            linestyle, marker, color = parse_fmt(sym)
            flier_kw.update({k: v for k, v in (("marker", marker), ("color", color),
                                               ("markeredgecolor", color)) if v})
        flier_kw.update(flierprops or {})
        mean_kw = {"marker": rcParams["boxplot.meanprops.marker"],
                   "markerfacecolor": rcParams["boxplot.meanprops.markerfacecolor"],
                   "markeredgecolor": rcParams["boxplot.meanprops.markeredgecolor"],
                   "linestyle": "none"}
        mean_kw.update(meanprops or {})
        horizontal = orientation == "horizontal"
        out = {k: [] for k in ("whiskers", "caps", "boxes", "medians", "fliers", "means")}

        def line(xs, ys, kw):
            if horizontal:
                xs, ys = ys, xs
            return self._add(Line2D(list(xs), list(ys), label="_nolegend_", **kw))

        for k, data in enumerate(datasets):
            pos, w, cw = positions[k], widths[k], capwidths[k]
            data = sorted(v for v in data if v == v)
            if data:
                q1, med, q3 = (_percentile(data, p) for p in (25, 50, 75))
            else:
                q1 = med = q3 = float("nan")
            iqr = q3 - q1
            if isinstance(whis, (int, float)) and not isinstance(whis, bool):
                loval, hival = q1 - whis * iqr, q3 + whis * iqr
            else:
                loval, hival = _percentile(data, whis[0]), _percentile(data, whis[1])
            high = [v for v in data if v <= hival]
            low = [v for v in data if v >= loval]
            whishi = max(high) if high and max(high) >= q3 else q3
            whislo = min(low) if low and min(low) <= q1 else q1
            fliers = [v for v in data if v < whislo or v > whishi]
            left, right = pos - w * 0.5, pos + w * 0.5
            out["whiskers"].append(line([pos, pos], [q1, whislo], whisker_kw))
            out["whiskers"].append(line([pos, pos], [q3, whishi], whisker_kw))
            if showcaps:
                for v in (whislo, whishi):
                    out["caps"].append(line([pos - cw * 0.5, pos + cw * 0.5], [v, v], cap_kw))
            if showbox:
                out["boxes"].append(line([left, right, right, left, left],
                                         [q1, q1, q3, q3, q1], box_kw))
            median = line([left, right], [med, med], median_kw)
            median._extra_x = [pos - 0.5, pos + 0.5]
            if horizontal:
                median._extra_x, median._extra_y = [], median._extra_x
                median.sticky_y = [pos - 0.5, pos + 0.5]
            else:
                median.sticky_x = [pos - 0.5, pos + 0.5]
            out["medians"].append(median)
            if showmeans:
                mean = sum(data) / len(data) if data else float("nan")
                out["means"].append(line([pos], [mean], mean_kw))
            if showfliers:
                out["fliers"].append(line([pos] * len(fliers), fliers, flier_kw))
        if manage_ticks:
            axis = self.yaxis if horizontal else self.xaxis
            labels_out = list(tick_labels) if tick_labels is not None else \
                [int(p) if float(p).is_integer() else p for p in positions]
            axis.set_major_locator(FixedLocator(positions))
            axis.set_major_formatter(FixedFormatter(labels_out))
        return out

    def violinplot(self, dataset, positions=None, vert=None, widths=0.5, showmeans=False,
                   showextrema=True, showmedians=False, quantiles=None, points=100,
                   bw_method=None, side="both", facecolor=None, linecolor=None,
                   orientation="vertical"):
        """Each dataset's Gaussian kernel density (Scott's bandwidth unless
        `bw_method` says) at `points` values from its min to its max,
        mirrored about its position and filled at alpha 0.3, with lines at
        the extrema (and means, medians, quantiles when asked), as
        matplotlib's violinplot; returns the dict of its collections."""
        import math
        if vert is not None:
            orientation = "vertical" if vert else "horizontal"
        if isinstance(dataset, (list, tuple)) and dataset and not all(
                isinstance(v, (int, float)) for v in dataset):
            datasets = [flat(v) for v in dataset]
        else:
            datasets = _datasets(dataset)
        n = len(datasets)
        positions = list(_range(1, n + 1)) if positions is None else flat(positions)
        widths = [float(widths)] * n if isinstance(widths, (int, float)) else flat(widths)
        if len(positions) != n:
            raise ValueError("List of violinplot statistics and `positions` values must have "
                             "the same length")
        if len(widths) != n:
            raise ValueError("List of violinplot statistics and `widths` values must have "
                             "the same length")
        # As matplotlib's _reshape_2D: one list of numbers is one violin's.
        if quantiles is None:
            qs = [[]] * n
        elif all(isinstance(v, (int, float)) for v in tolist(quantiles)):
            qs = [flat(quantiles)]
        else:
            qs = [flat(q) for q in quantiles]
        if len(qs) != n:
            raise ValueError("List of violinplot statistics and `quantiles` values must "
                             "have the same length")
        stats = []
        for data, q in zip(datasets, qs):
            data = sorted(data)
            m = len(data)
            if callable(bw_method):
                factor = None
            elif bw_method is None or bw_method == "scott":
                factor = m ** (-1.0 / 5)
            elif bw_method == "silverman":
                factor = (m * 3 / 4.0) ** (-1.0 / 5)
            else:
                factor = float(bw_method)
            mean = sum(data) / m
            var = sum((v - mean) ** 2 for v in data) / (m - 1)
            if factor is None:
                factor = float(bw_method(_Kde(data, var)))
            cov = var * factor ** 2
            norm = math.sqrt(2 * math.pi * cov) * m
            coords = _linspace(data[0], data[-1], points)
            vals = [sum(math.exp(-(x - c) ** 2 / (2 * cov)) for x in data) / norm
                    for c in coords]
            stats.append({"coords": coords, "vals": vals, "mean": mean,
                          "median": _percentile(data, 50), "min": data[0], "max": data[-1],
                          "quantiles": [_percentile(data, 100 * v) for v in q]})
        color = self._next_line_color() if facecolor is None or linecolor is None else None
        faces = [to_rgba(c) for c in (_cycle(facecolor, n) if facecolor is not None
                                      else [color] * n)]
        alpha = None if facecolor is not None else 0.3
        lines = [to_rgba(c) for c in (_cycle(linecolor, n) if linecolor is not None
                                      else [color] * n)]
        vertical = orientation == "vertical"
        fill = self.fill_betweenx if vertical else self.fill_between
        perp = self.hlines if vertical else self.vlines
        par = self.vlines if vertical else self.hlines
        out = {"bodies": []}
        for st, pos, w, face in zip(stats, positions, widths, faces):
            top = max(st["vals"]) if st["vals"] else 1.0
            vals = [0.5 * w * v / top for v in st["vals"]]
            low = [pos - v for v in vals] if side in ("both", "low") else [pos] * len(vals)
            high = [pos + v for v in vals] if side in ("both", "high") else [pos] * len(vals)
            out["bodies"].append(fill(st["coords"], low, high, facecolor=face, alpha=alpha))
        left = [p - (0.25 * w if side in ("both", "low") else 0)
                for p, w in zip(positions, widths)]
        right = [p + (0.25 * w if side in ("both", "high") else 0)
                 for p, w in zip(positions, widths)]
        if showmeans:
            out["cmeans"] = perp([st["mean"] for st in stats], left, right, colors=lines)
        if showextrema:
            out["cmaxes"] = perp([st["max"] for st in stats], left, right, colors=lines)
            out["cmins"] = perp([st["min"] for st in stats], left, right, colors=lines)
            out["cbars"] = par(positions, [st["min"] for st in stats],
                               [st["max"] for st in stats], colors=lines)
        if showmedians:
            out["cmedians"] = perp([st["median"] for st in stats], left, right, colors=lines)
        qvals = [v for st in stats for v in st["quantiles"]]
        if qvals:
            counts = [len(st["quantiles"]) for st in stats]
            qleft = [v for v, c in zip(left, counts) for _ in _range(c)]
            qright = [v for v, c in zip(right, counts) for _ in _range(c)]
            out["cquantiles"] = perp(qvals, qleft, qright, colors=lines)
        return out

    def contour(self, *args, **kwargs):
        from ._contour import ContourSet
        cs = ContourSet(self, False, args, **kwargs)
        self._add(cs)
        self._tight = True
        return cs

    def contourf(self, *args, **kwargs):
        from ._contour import ContourSet
        cs = ContourSet(self, True, args, **kwargs)
        self._add(cs)
        self._tight = True
        return cs

    def clabel(self, CS, levels=None, **kwargs):
        from ._contour import clabel
        return clabel(self, CS, levels, **kwargs)

    def quiver(self, *args, **kwargs):
        from ._quiver import Quiver
        return self._add(Quiver(self, *args, **kwargs))

    # Text.

    def text(self, x, y, s, fontdict=None, **kwargs):
        if fontdict:
            kwargs = {**fontdict, **kwargs}
        transform = kwargs.pop("transform", None)
        coords = "axes" if transform is not None and getattr(transform, "_coords", "") == "axes" \
            else "data"
        xv = _number(x) if not isinstance(x, str) else self.xaxis.convert_units(x)
        yv = _number(y) if not isinstance(y, str) else self.yaxis.convert_units(y)
        t = Text(xv, yv, s, transform=coords, **kwargs)
        return self._add(t)

    def annotate(self, text, xy, xytext=None, xycoords="data", textcoords=None,
                 arrowprops=None, annotation_clip=None, **kwargs):
        x, y = xytext if xytext is not None and textcoords in (None, "data") else xy
        kwargs.pop("bbox", None)
        kwargs.pop("annotation_clip", None)
        return self.text(x, y, text, **kwargs)

    @property
    def transAxes(self):
        return _Coords("axes", self)

    @property
    def transData(self):
        return _Coords("data", self)

    # Legend.

    def get_legend_handles_labels(self, legend_handler_map=None):
        handles, labels = [], []
        for artist in self._children + self.containers:
            if isinstance(artist, Text):
                continue
            label = artist.get_label()
            if label and not label.startswith("_"):
                handles.append(artist)
                labels.append(label)
        return handles, labels

    def legend(self, *args, **kwargs):
        from .legend import Legend
        handles = kwargs.pop("handles", None)
        labels = kwargs.pop("labels", None)
        if len(args) == 1:
            labels = [str(s) for s in args[0]] if not isinstance(args[0], str) else [args[0]]
        elif len(args) == 2:
            handles, labels = list(args[0]), [str(s) for s in args[1]]
        if handles is None and labels is None:
            handles, labels = self.get_legend_handles_labels()
            if not handles:
                from ._api import warn_external
                warn_external("No artists with labels found to put in legend.  Note that "
                              "artists whose label start with an underscore are ignored "
                              "when legend() is called with no argument.")
        elif handles is None:
            cands = [a for a in self._children + self.containers if not isinstance(a, Text)
                     and not (isinstance(a, Rectangle) and a.get_label() == "_nolegend_")]
            handles = cands[:len(labels)]
        elif labels is None:
            labels = [h.get_label() for h in handles]
        self.legend_ = Legend(self, list(handles), list(labels), **kwargs)
        return self.legend_

    def get_legend(self):
        return self.legend_

    # Everything at once: ax.set(xlabel=..., ylim=...).

    def set(self, **kwargs):
        for key, value in kwargs.items():
            setter = getattr(self, "set_" + key, None)
            if setter is None:
                raise AttributeError(f"Axes.set() got an unexpected keyword argument '{key}'")
            if key in ("xlim", "ylim") and isinstance(value, (list, tuple)):
                setter(*value)
            else:
                setter(value)

    def cla(self):
        fig, spec, pos = self.figure, self._spec, self._original
        lims = self._lims
        self.__init__(fig, pos, spec=spec)
        for name in ("x", "y"):
            if len(lims[name].axes) > 1:
                self._lims[name] = lims[name]
                lims[name].auto = True

    clear = cla

    def twinx(self):
        ax = self.figure.add_axes(self._layout_position().bounds, sharex=self)
        ax._spec = self._spec
        ax.yaxis._label_visible = [False, True]
        ax.yaxis._tick_visible = [False, True]
        ax.patch.set_facecolor("none")
        ax._twin_of = self
        return ax

    def twiny(self):
        ax = self.figure.add_axes(self._layout_position().bounds, sharey=self)
        ax._spec = self._spec
        ax.xaxis._label_visible = [False, True]
        ax.patch.set_facecolor("none")
        ax._twin_of = self
        return ax


class _Coords:
    """Stands for `ax.transAxes` / `ax.transData` where programs pass one."""

    def __init__(self, coords, ax):
        self._coords = coords
        self._ax = ax

    def transform(self, points):
        t = self._ax._to_display()
        pts = tolist(points)
        if pts and not isinstance(pts[0], list):
            return list(t(*pts)) if self._coords == "data" else pts
        return [list(t(x, y)) for x, y in pts]


class _BarList(list):
    def remove(self):
        for p in self:
            p.remove()


def _number(v):
    """A coordinate as given when it is a Python number (Text's repr shows it)."""
    v = tolist(v)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else float(v)


def _looks_rgb(seq, n):
    return n in (3, 4) and all(isinstance(v, (int, float)) for v in seq) and \
        all(0 <= v <= 1 for v in seq)


def _datasets(x):
    raw = tolist(x)
    if not isinstance(raw, list):
        return [[float(raw)]]
    if raw and isinstance(raw[0], list):
        if all(isinstance(r, list) and len(r) == len(raw[0]) for r in raw):
            # A 2-D array: each column is a dataset, as np.asarray gives them to hist.
            return [[float(row[j]) for row in raw] for j in range(len(raw[0]))]
        return [flat(r) for r in raw]
    return [flat(raw)]


_range = range


class _Kde:
    """What a callable bw_method is given: the data and its covariance."""

    def __init__(self, data, var):
        self.dataset = [list(data)]
        self.dim, self.num_dp = 1, len(data)
        self.data_covariance = var


def _cycle(colors, n):
    seq = [colors] if isinstance(colors, str) or (
        isinstance(colors, tuple) and len(colors) in (3, 4) and
        all(isinstance(v, (int, float)) for v in colors)) else list(colors)
    return [seq[k % len(seq)] for k in _range(n)]


def _percentile(data, q):
    """np.percentile's linear interpolation of sorted `data` at `q` percent."""
    if not data:
        return float("nan")
    idx = q / 100.0 * (len(data) - 1)
    lo = int(idx)
    if lo >= len(data) - 1:
        return data[-1]
    frac = idx - lo
    a, b = data[lo], data[lo + 1]
    # NumPy's lerp: from the nearer end, so a value on a point is exact.
    return b - (b - a) * (1 - frac) if frac >= 0.5 else a + (b - a) * frac


def _linspace(lo, hi, num):
    step = (hi - lo) / (num - 1)
    out = [lo + i * step for i in range(num)]
    out[-1] = hi
    return out


def _histogram(data, edges, weights):
    """np.histogram: half-open bins, the last closed; values outside dropped."""
    counts = [0.0] * (len(edges) - 1)
    lo, hi = edges[0], edges[-1]
    nb = len(counts)
    uniform = nb > 0 and all(abs((edges[i + 1] - edges[i]) - (hi - lo) / nb) <= 1e-12 * abs(hi - lo)
                             for i in range(nb))
    for k, v in enumerate(data):
        if not (lo <= v <= hi):
            continue
        if uniform:
            i = int((v - lo) / (hi - lo) * nb) if hi > lo else 0
            i = min(i, nb - 1)
            # Correct for rounding as NumPy does, against the edges themselves.
            if v < edges[i]:
                i -= 1
            elif i + 1 < nb and v >= edges[i + 1]:
                i += 1
        else:
            i = 0
            while i < nb - 1 and v >= edges[i + 1]:
                i += 1
        counts[i] += 1.0 if weights is None else weights[k]
    return counts


def _cumsum(vals):
    out, acc = [], 0.0
    for v in vals:
        acc += v
        out.append(acc)
    return out


def _np_array(vals):
    """hist's counts and edges: NumPy arrays when our numpy is there, else lists."""
    try:
        import numpy
    except ImportError:
        return vals
    try:
        return numpy.array(vals)
    except Exception:  # noqa: BLE001 - a partial numpy must not break plotting
        return vals
