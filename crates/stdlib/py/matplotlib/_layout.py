"""Where an Axes' decorations go, in display pixels (origin bottom left):
tick labels, axis labels, titles and offset texts, measured with our
DejaVu Sans widths. Drawing and `tight_layout` both read this."""

from .text import text_extent


class Placed:
    """A string placed at (x, y) with an alignment, and its extent."""

    def __init__(self, text, x, y, size, ha, va, rotation=0.0, color="black", weight="normal"):
        self.text, self.x, self.y, self.size = text, x, y, size
        self.ha, self.va, self.rotation = ha, va, rotation
        self.color, self.weight = color, weight

    def bbox(self, dpi):
        w, h, d = text_extent(self.text, self.size)
        w, h, d = w * dpi / 72, h * dpi / 72, d * dpi / 72
        if self.rotation % 180 == 90:
            w, h = h, w
            x0 = {"left": self.x, "right": self.x - w}.get(self.ha, self.x - w / 2)
            y0 = {"bottom": self.y, "top": self.y - h, "baseline": self.y}.get(self.va,
                                                                              self.y - h / 2)
            return (x0, y0, x0 + w, y0 + h)
        x0 = {"left": self.x, "right": self.x - w}.get(self.ha, self.x - w / 2)
        if self.va == "top":
            y0 = self.y - h
        elif self.va == "bottom":
            y0 = self.y
        elif self.va == "baseline":
            y0 = self.y - d
        else:
            y0 = self.y - h / 2
        return (x0, y0, x0 + w, y0 + h)


def _visible_ticks(axis, lo, hi):
    locs, labels = axis._major_labels()
    a, b = min(lo, hi), max(lo, hi)
    tol = 1e-9 * max(abs(b - a), 1e-300)
    return [(v, s) for v, s in zip(locs, labels) if a - tol <= v <= b + tol]


def decorations(ax):
    """The placed texts of `ax`, and the display-space tick positions."""
    fig = ax.figure
    dpi = fig.dpi
    pt = dpi / 72.0
    ext = ax.get_window_extent()
    t = ax._to_display()
    out = []
    xticks, yticks = [], []
    xlo, xhi = ax.get_xlim()
    ylo, yhi = ax.get_ylim()
    if not ax._axis_on:
        return out, xticks, yticks, ext
    xa, ya = ax.xaxis, ax.yaxis
    below = ext.y0
    above = ext.y1
    if xa.get_visible():
        xoff = (xa._tick_length if xa._tick_direction != "in" else 0) + xa._pad
        for v, s in _visible_ticks(xa, xlo, xhi):
            x = t(v, ylo)[0]
            xticks.append(x)
            if s and xa._label_visible[0]:
                p = Placed(s, x, ext.y0 - xoff * pt, xa._labelsize,
                           xa._label_ha or ("center" if not xa._label_rotation else "right"),
                           "top", xa._label_rotation, xa._label_color)
                out.append(p)
                below = min(below, p.bbox(dpi)[1])
            if s and xa._label_visible[1]:
                p = Placed(s, x, ext.y1 + xoff * pt, xa._labelsize, "center", "bottom",
                           xa._label_rotation, xa._label_color)
                out.append(p)
                above = max(above, p.bbox(dpi)[3])
        label = xa.label
        if label.get_text() and label.get_visible():
            p = Placed(label.get_text(), (ext.x0 + ext.x1) / 2, below - xa.labelpad * pt,
                       label.get_fontsize(), "center", "top", 0.0, label.get_color(),
                       label._weight)
            out.append(p)
        off = xa.get_offset_text()
        if off.get_text() and off.get_visible():
            out.append(Placed(off.get_text(), ext.x1, below - xa.labelpad * pt,
                              off.get_fontsize(), "right", "top"))
    left = ext.x0
    right = ext.x1
    if ya.get_visible():
        yoff = (ya._tick_length if ya._tick_direction != "in" else 0) + ya._pad
        for v, s in _visible_ticks(ya, ylo, yhi):
            y = t(xlo, v)[1]
            yticks.append(y)
            if s and ya._label_visible[0]:
                p = Placed(s, ext.x0 - yoff * pt, y, ya._labelsize, "right", "center",
                           ya._label_rotation, ya._label_color)
                out.append(p)
                left = min(left, p.bbox(dpi)[0])
            if s and ya._label_visible[1]:
                p = Placed(s, ext.x1 + yoff * pt, y, ya._labelsize, "left", "center",
                           ya._label_rotation, ya._label_color)
                out.append(p)
                right = max(right, p.bbox(dpi)[2])
        label = ya.label
        if label.get_text() and label.get_visible():
            if ya._label_visible[1] and not ya._label_visible[0]:
                p = Placed(label.get_text(), right + ya.labelpad * pt, (ext.y0 + ext.y1) / 2,
                           label.get_fontsize(), "left", "center", 90.0, label.get_color(),
                           label._weight)
            else:
                p = Placed(label.get_text(), left - ya.labelpad * pt, (ext.y0 + ext.y1) / 2,
                           label.get_fontsize(), "right", "center", 90.0, label.get_color(),
                           label._weight)
            out.append(p)
        off = ya.get_offset_text()
        if off.get_text() and off.get_visible():
            out.append(Placed(off.get_text(), ext.x0, ext.y1 + 2 * pt, off.get_fontsize(),
                              "left", "bottom"))
    from . import rcParams
    for loc, title in ax._titles.items():
        if title.get_text():
            x = {"left": ext.x0, "right": ext.x1}.get(loc, (ext.x0 + ext.x1) / 2)
            out.append(Placed(title.get_text(), x, above + rcParams["axes.titlepad"] * pt,
                              title.get_fontsize(), loc if loc != "center" else "center",
                              "baseline", 0.0, title.get_color(), title._weight))
    return out, xticks, yticks, ext


def tight_bbox(ax):
    """The display box holding the axes and all its decorations."""
    placed, _, _, ext = decorations(ax)
    x0, y0, x1, y1 = ext.x0, ext.y0, ext.x1, ext.y1
    dpi = ax.figure.dpi
    for p in placed:
        b = p.bbox(dpi)
        x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    return (x0, y0, x1, y1), ext


def tight_layout(fig, pad=1.08, h_pad=None, w_pad=None, rect=None):
    """Adjusts the subplot parameters so decorations fit, as matplotlib's
    `tight_layout` does for a grid of subplots."""
    from . import rcParams
    axes = [ax for ax in fig.axes if ax._spec is not None]
    if not axes:
        return
    gs = axes[0]._spec.gridspec
    if any(ax._spec.gridspec is not gs for ax in axes):
        return
    rows, cols = gs.nrows, gs.ncols
    w_in, h_in = fig.get_size_inches()
    dpi = fig.dpi
    font_inch = rcParams["font.size"] / 72
    pad_inch = pad * font_inch
    vpad_inch = h_pad * font_inch if h_pad is not None else pad_inch
    hpad_inch = w_pad * font_inch if w_pad is not None else pad_inch
    vspaces = [[0.0] * cols for _ in range(rows + 1)]
    hspaces = [[0.0] * (cols + 1) for _ in range(rows)]
    for ax in axes:
        (tx0, ty0, tx1, ty1), ext = tight_bbox(ax)
        fw, fh = w_in * dpi, h_in * dpi
        tx0, tx1, ty0, ty1 = tx0 / fw, tx1 / fw, ty0 / fh, ty1 / fh
        ax0, ax1, ay0, ay1 = ext.x0 / fw, ext.x1 / fw, ext.y0 / fh, ext.y1 / fh
        rs, cs = ax._spec.rowspan, ax._spec.colspan
        for r in rs:
            hspaces[r][cs.start] += ax0 - tx0
            hspaces[r][cs.stop] += tx1 - ax1
        for c in cs:
            vspaces[rs.start][c] += ty1 - ay1
            vspaces[rs.stop][c] += ay0 - ty0
    margin_left = max(max(row[0] for row in hspaces), 0) + pad_inch / w_in
    margin_right = max(max(row[-1] for row in hspaces), 0) + pad_inch / w_in
    margin_top = max(max(vspaces[0]), 0) + pad_inch / h_in
    margin_bottom = max(max(vspaces[-1]), 0) + pad_inch / h_in
    if fig._suptitle is not None and fig._suptitle.get_text():
        _, th, _ = fig._suptitle.extent()
        margin_top += th / 72 / h_in + pad_inch / h_in
    kwargs = dict(left=margin_left, right=1 - margin_right,
                  bottom=margin_bottom, top=1 - margin_top)
    if cols > 1:
        hspace = max(max(row[1:-1]) for row in hspaces) + hpad_inch / w_in
        h_axes = (1 - margin_right - margin_left - hspace * (cols - 1)) / cols
        kwargs["wspace"] = hspace / h_axes if h_axes > 0 else fig.subplotpars.wspace
    if rows > 1:
        vspace = max(max(r) for r in vspaces[1:-1]) + vpad_inch / h_in
        v_axes = (1 - margin_top - margin_bottom - vspace * (rows - 1)) / rows
        kwargs["hspace"] = vspace / v_axes if v_axes > 0 else fig.subplotpars.hspace
    if kwargs["left"] >= kwargs["right"] or kwargs["bottom"] >= kwargs["top"]:
        from ._api import warn_external
        warn_external("Tight layout not applied. The left and right margins cannot be made "
                      "large enough to accommodate all Axes decorations.")
        return
    fig.subplots_adjust(**kwargs)
