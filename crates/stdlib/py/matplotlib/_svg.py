"""Draws a figure as SVG, in points (72 per inch) as matplotlib's SVG
backend sizes it, from the same display-pixel layout the axes report.
Text is SVG text in DejaVu Sans (matplotlib writes glyph outlines);
images are embedded PNGs drawn without smoothing."""

import math

from ._layout import decorations
from .colors import to_rgba
from .text import LINE_ASCENT, parse_math, text_extent

_DASHES = {"dashed": (3.7, 1.6), "dashdot": (6.4, 1.6, 1.0, 1.6), "dotted": (1.0, 1.65)}


def _num(v):
    s = "%.3f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _esc(s):
    return (str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _paint(color, alpha=None):
    """(css colour, opacity) for a colour spec, or None for 'none'."""
    if color is None:
        return None
    if isinstance(color, str) and color.lower() == "none":
        return None
    r, g, b, a = to_rgba(color) if not (isinstance(color, tuple) and len(color) == 4) else color
    if alpha is not None:
        a = alpha
    if a == 0:
        return None
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255)), a


def _fill_attr(color, alpha=None):
    p = _paint(color, alpha)
    if p is None:
        return 'fill="none"'
    out = 'fill="%s"' % p[0]
    if p[1] < 1:
        out += ' fill-opacity="%s"' % _num(p[1])
    return out


def _stroke_attr(color, width, alpha=None, style="solid"):
    p = _paint(color, alpha)
    if p is None or width <= 0:
        return 'stroke="none"'
    out = 'stroke="%s" stroke-width="%s"' % (p[0], _num(width))
    if p[1] < 1:
        out += ' stroke-opacity="%s"' % _num(p[1])
    dash = _DASHES.get(style)
    if dash:
        out += ' stroke-dasharray="%s"' % ",".join(_num(d * width) for d in dash)
    return out


class _Svg:
    def __init__(self, fig):
        self.fig = fig
        w, h = fig.get_size_inches()
        self.w_pt, self.h_pt = w * 72, h * 72
        self.scale = 72.0 / fig.dpi
        self.parts = []
        self.clip_id = 0
        self.saving = False

    def pt(self, x, y):
        """Display pixels to SVG points (y down)."""
        return x * self.scale, self.h_pt - y * self.scale

    def add(self, s):
        self.parts.append(s)

    def snap(self, v, width):
        """The coordinate `v` (points) of a horizontal or vertical line
        `width` points wide moved to a pixel's middle at the figure's dpi
        (to a pixel's edge for an even number of pixels), as matplotlib's
        Agg snaps spines, ticks and grid lines: a 0.8 pt spine at 100 dpi
        is then one dark pixel, not two grey ones."""
        px = v / self.scale
        odd = round(width / self.scale) % 2 == 1
        return (math.floor(px + 0.5) + (0.5 if odd else 0.0)) * self.scale

    def text(self, s, x, y, size, ha, va, rotation=0.0, color="black", weight="normal"):
        """`s` anchored at display (x, y) with matplotlib's alignment names."""
        if not s:
            return
        width, height, descent = text_extent(s, size)
        lines = str(s).split("\n")
        fill = _fill_attr(color)
        anchor = {"left": "start", "right": "end"}.get(ha, "middle")
        weight_attr = ' font-weight="bold"' if weight in ("bold", "heavy", 700, 800, 900) else ""
        sx, sy = self.pt(x, y)
        # The baseline of the first line, relative to the anchor point (SVG y down).
        if va == "top":
            base = LINE_ASCENT * size
        elif va == "bottom":
            base = -(height - LINE_ASCENT * size)
        elif va == "baseline":
            base = -(len(lines) - 1) * 1.2 * size
        else:
            base = LINE_ASCENT * size - height / 2
        if rotation % 360:
            transform = ' transform="rotate(%s %s %s)"' % (_num(-rotation), _num(sx), _num(sy))
            if rotation % 180 == 90:
                # Rotated labels: matplotlib aligns the rotated box, not the text line.
                if ha == "right":
                    base = -(height - LINE_ASCENT * size)
                elif ha == "left":
                    base = LINE_ASCENT * size
                else:
                    base = LINE_ASCENT * size - height / 2
                anchor = {"top": "end", "bottom": "start"}.get(va, "middle")
        else:
            transform = ""
        out = ['<text x="%s" y="%s" font-family="DejaVu Sans, sans-serif" font-size="%s" '
               'text-anchor="%s" %s%s%s>' % (_num(sx), _num(sy + base), _num(size), anchor,
                                              fill, weight_attr, transform)]
        for i, line in enumerate(lines):
            runs = parse_math(line)
            italic = "$" in line and "\\mathdefault" not in line
            first = True
            for text, shift in runs:
                attrs = ""
                if i > 0 and first:
                    attrs += ' x="%s" dy="%s"' % (_num(sx), _num(1.2 * size))
                if shift:
                    attrs += ' font-size="%s" baseline-shift="%s"' % (
                        _num(size * 0.7), "super" if shift > 0 else "sub")
                if italic and text.isalpha() and len(text) <= 2:
                    attrs += ' font-style="italic"'

                out.append("<tspan%s>%s</tspan>" % (attrs, _esc(text)))
                first = False
        out.append("</text>")
        self.add("".join(out))


def _marker_svg(marker, x, y, size, face, edge, ew):
    """One marker of `size` points at SVG point (x, y)."""
    r = size / 2.0
    if marker in ("o", "8", "h", "H", "p"):
        return '<circle cx="%s" cy="%s" r="%s" %s %s/>' % (
            _num(x), _num(y), _num(r), face, edge)
    if marker == ".":
        return '<circle cx="%s" cy="%s" r="%s" %s %s/>' % (
            _num(x), _num(y), _num(r * 0.5), face, edge)
    if marker == ",":
        return '<rect x="%s" y="%s" width="1" height="1" %s/>' % (_num(x), _num(y), face)
    if marker == "s":
        return '<rect x="%s" y="%s" width="%s" height="%s" %s %s/>' % (
            _num(x - r), _num(y - r), _num(2 * r), _num(2 * r), face, edge)
    if marker in ("^", "v", "<", ">", "D", "d", "*", "P", "X"):
        if marker == "^":
            pts = [(0, -r), (r, r), (-r, r)]
        elif marker == "v":
            pts = [(0, r), (r, -r), (-r, -r)]
        elif marker == "<":
            pts = [(-r, 0), (r, -r), (r, r)]
        elif marker == ">":
            pts = [(r, 0), (-r, -r), (-r, r)]
        elif marker in ("D", "d"):
            k = 0.7 if marker == "D" else 0.6
            pts = [(0, -r), (r * k, 0), (0, r), (-r * k, 0)]
        elif marker == "*":
            pts = []
            for i in range(10):
                a = -math.pi / 2 + i * math.pi / 5
                rr = r if i % 2 == 0 else r * 0.38
                pts.append((rr * math.cos(a), rr * math.sin(a)))
        else:
            t = r / 3
            pts = [(-t, -r), (t, -r), (t, -t), (r, -t), (r, t), (t, t), (t, r), (-t, r),
                   (-t, t), (-r, t), (-r, -t), (-t, -t)]
            if marker == "X":
                c, s = math.cos(math.pi / 4), math.sin(math.pi / 4)
                pts = [(px * c - py * s, px * s + py * c) for px, py in pts]
        d = " ".join("%s,%s" % (_num(x + px), _num(y + py)) for px, py in pts)
        return '<polygon points="%s" %s %s/>' % (d, face, edge)
    # Line markers: drawn with the face colour as their stroke.
    stroke = face.replace("fill=", "stroke=").replace("fill-opacity", "stroke-opacity")
    w = ' stroke-width="%s"' % _num(max(ew, 1.0))
    if marker in ("+", "1", "2", "3", "4"):
        return '<path d="M%s %sH%sM%s %sV%s" %s%s/>' % (
            _num(x - r), _num(y), _num(x + r), _num(x), _num(y - r), _num(y + r), stroke, w)
    if marker == "x":
        return '<path d="M%s %sL%s %sM%s %sL%s %s" %s%s/>' % (
            _num(x - r), _num(y - r), _num(x + r), _num(y + r), _num(x - r), _num(y + r),
            _num(x + r), _num(y - r), stroke, w)
    if marker == "_":
        return '<path d="M%s %sH%s" %s%s/>' % (_num(x - r), _num(y), _num(x + r), stroke, w)
    if marker == "|":
        return '<path d="M%s %sV%s" %s%s/>' % (_num(x), _num(y - r), _num(y + r), stroke, w)
    return '<circle cx="%s" cy="%s" r="%s" %s %s/>' % (_num(x), _num(y), _num(r), face, edge)


def _decimate(pts):
    """A long line's points reduced, per run of points within one tenth of a
    point horizontally, to the first, lowest, highest and last: the same
    picture (matplotlib simplifies paths for the same reason) in far fewer
    bytes."""
    out = []
    i, n = 0, len(pts)
    while i < n:
        x0 = pts[i][0]
        j = i
        lo = hi = i
        while j + 1 < n and abs(pts[j + 1][0] - x0) < 0.1:
            j += 1
            if pts[j][1] < pts[lo][1]:
                lo = j
            if pts[j][1] > pts[hi][1]:
                hi = j
        for k in sorted({i, lo, hi, j}):
            out.append(pts[k])
        i = j + 1
    return out


def _line(svg, line, t):
    pts = [svg.pt(*t(x, y)) for x, y in zip(line._x, line._y)
           if math.isfinite(x) and math.isfinite(y)]
    if not pts:
        return
    alpha = line._alpha
    if line._linestyle not in ("None", None) and len(pts) > 1:
        path = _decimate(pts) if len(pts) > 2000 else pts
        d = "M" + " L".join("%s %s" % (_num(x), _num(y)) for x, y in path)
        svg.add('<path d="%s" fill="none" %s stroke-linecap="square" stroke-linejoin="round"/>'
                % (d, _stroke_attr(line._color, line._linewidth, alpha, line._linestyle)))
    if line._marker:
        face = _fill_attr(line._mfc if line._mfc is not None else line._color, alpha)
        edge = _stroke_attr(line._mec if line._mec is not None else line._color,
                            line._mew, alpha)
        for x, y in pts:
            svg.add(_marker_svg(line._marker, x, y, line._markersize, face, edge, line._mew))


def _axline(svg, line, ext):
    if line._axline == "h":
        x0 = ext.x0 + line._x[0] * ext.width
        x1 = ext.x0 + line._x[1] * ext.width
        y = line.axes._to_display()(0, line._y[0])[1]
        a, b = svg.pt(x0, y), svg.pt(x1, y)
    else:
        y0 = ext.y0 + line._y[0] * ext.height
        y1 = ext.y0 + line._y[1] * ext.height
        x = line.axes._to_display()(line._x[0], 0)[0]
        a, b = svg.pt(x, y0), svg.pt(x, y1)
    svg.add('<path d="M%s %s L%s %s" %s/>' % (_num(a[0]), _num(a[1]), _num(b[0]), _num(b[1]),
                                              _stroke_attr(line._color, line._linewidth,
                                                           line._alpha, line._linestyle)))


def _rect(svg, r, t, ext):
    span = getattr(r, "_span", None)
    if span == "h":
        y0, y1 = t(0, r._y0)[1], t(0, r._y0 + r._height)[1]
        x0, x1 = ext.x0 + r._x0 * ext.width, ext.x0 + (r._x0 + r._width) * ext.width
    elif span == "v":
        x0, x1 = t(r._x0, 0)[0], t(r._x0 + r._width, 0)[0]
        y0, y1 = ext.y0 + r._y0 * ext.height, ext.y0 + (r._y0 + r._height) * ext.height
    else:
        x0, y0 = t(r._x0, r._y0)
        x1, y1 = t(r._x0 + r._width, r._y0 + r._height)
    (a, b), (c, d) = svg.pt(x0, y0), svg.pt(x1, y1)
    face = _fill_attr(r._facecolor if r._fill else "none", r._alpha)
    edge = _stroke_attr(r._edgecolor, r._linewidth, r._alpha)
    svg.add('<rect x="%s" y="%s" width="%s" height="%s" %s %s/>' % (
        _num(min(a, c)), _num(min(b, d)), _num(abs(c - a)), _num(abs(d - b)), face, edge))


def _polygon(svg, points, t, face, edge):
    pts = [svg.pt(*t(x, y)) for x, y in points]
    if not pts:
        return
    d = "M" + " L".join("%s %s" % (_num(x), _num(y)) for x, y in pts) + " Z"
    svg.add('<path d="%s" %s %s/>' % (d, face, edge))


def _scatter(svg, col, t):
    n = len(col._offsets)
    faces = col._facecolors or [(0, 0, 0, 0)]
    sizes = col._sizes or [36.0]
    lws = col._linewidths or [1.0]
    for i, (x, y) in enumerate(col._offsets):
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        px, py = svg.pt(*t(x, y))
        fc = faces[i % len(faces)]
        if col._edgecolors == "face":
            ec = fc
        elif col._edgecolors == "none" or not col._edgecolors:
            ec = None
        else:
            ec = col._edgecolors[i % len(col._edgecolors)]
        size = math.sqrt(max(sizes[i % len(sizes)], 0.0))
        face = _fill_attr(fc, col._alpha)
        edge = _stroke_attr(ec, lws[i % len(lws)], col._alpha) if ec is not None else \
            'stroke="none"'
        svg.add(_marker_svg(col._marker, px, py, size, face, edge, lws[i % len(lws)]))
    return n


def _image(svg, im, t):
    rows = im.rgba_rows(warn=svg.saving)
    l, r, b, top = im._extent
    (x0, y0), (x1, y1) = svg.pt(*t(l, top if im.origin == "upper" else b)), \
        svg.pt(*t(r, b if im.origin == "upper" else top))
    if im.origin == "lower":
        (x0, y0), (x1, y1) = svg.pt(*t(l, top)), svg.pt(*t(r, b))
    png = _png(rows)
    x, y = min(x0, x1), min(y0, y1)
    w, h = abs(x1 - x0), abs(y1 - y0)
    flip = []
    if x1 < x0:
        flip.append("scale(-1 1)")
    if y1 < y0:
        flip.append("scale(1 -1)")
    if png is not None:
        svg.add('<image x="%s" y="%s" width="%s" height="%s" preserveAspectRatio="none" '
                'style="image-rendering:pixelated" href="data:image/png;base64,%s"/>' % (
                    _num(x), _num(y), _num(w), _num(h), png))
        return
    nr, nc = len(rows), len(rows[0])
    cw, ch = w / nc, h / nr
    for i, row in enumerate(rows):
        for j, px in enumerate(row):
            svg.add('<rect x="%s" y="%s" width="%s" height="%s" %s/>' % (
                _num(x + j * cw), _num(y + i * ch), _num(cw + 0.05), _num(ch + 0.05),
                _fill_attr(px, px[3] if im._alpha is None else im._alpha)))


def _png(rows):
    """Base64 PNG (RGBA, 8 bit) of rows of RGBA floats, or None without zlib."""
    try:
        import binascii
        import zlib
    except ImportError:
        return None
    h, w = len(rows), len(rows[0])
    # Small images are enlarged here, pixel by pixel, so that every viewer
    # shows sharp cells as matplotlib draws them (not all honour
    # image-rendering: pixelated).
    k = max(1, min(16, 256 // max(h, w)))
    raw = bytearray()
    for row in rows:
        line = bytearray()
        for r, g, b, a in row:
            line.extend(bytes((round(r * 255), round(g * 255), round(b * 255),
                               round(a * 255))) * k)
        for _ in range(k):
            raw.append(0)
            raw.extend(line)
    h, w = h * k, w * k

    def chunk(kind, data):
        body = kind + data
        return (len(data).to_bytes(4, "big") + body +
                (zlib.crc32(body) & 0xFFFFFFFF).to_bytes(4, "big"))
    ihdr = w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes([8, 6, 0, 0, 0])
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b""))
    return binascii.b2a_base64(data).decode().strip()


def _legend(svg, leg):
    if not leg.get_visible() or not leg.texts:
        return
    box = leg.get_window_extent()
    fig = leg.figure
    dpi = fig.dpi
    width, height, row_h, cols, rows, ncols = leg._layout()
    border = leg._px(leg._pad["borderpad"])
    (x0, y1), (x1, y0) = svg.pt(box.x0, box.y0), svg.pt(box.x1, box.y1)
    if leg._frameon:
        face = _fill_attr(leg._facecolor, leg._framealpha)
        edge = _stroke_attr(leg._edgecolor, 1.0, leg._framealpha)
        rx = ' rx="%s"' % _num(0.2 * leg._fontsize) if leg._fancybox else ""
        svg.add('<rect x="%s" y="%s" width="%s" height="%s"%s %s %s/>' % (
            _num(x0), _num(y0), _num(x1 - x0), _num(y1 - y0), rx, face, edge))
    top = box.y1 - border
    if leg._title.get_text():
        tw, th, _ = text_extent(leg._title.get_text(), leg._title.get_fontsize())
        svg.text(leg._title.get_text(), (box.x0 + box.x1) / 2, top, leg._title.get_fontsize(),
                 "center", "top")
        top -= th * dpi / 72 + leg._px(leg._pad["labelspacing"])
    handle_w = leg._px(leg._pad["handlelength"])
    pad_w = leg._px(leg._pad["handletextpad"])
    col_x = box.x0 + border
    spacing = leg._px(leg._pad["labelspacing"])
    for c in range(ncols):
        for r in range(rows):
            i = c * rows + r
            if i >= len(leg.texts):
                break
            cy = top - r * (row_h + spacing) - row_h / 2
            _handle(svg, leg.legend_handles[i] if i < len(leg.legend_handles) else None,
                    col_x, cy, handle_w, leg._px(leg._handleheight))
            t = leg.texts[i]
            svg.text(t.get_text(), col_x + handle_w + pad_w, cy, leg._fontsize, "left",
                     "center", 0.0, t.get_color())
        col_x += handle_w + pad_w + cols[c] + leg._px(leg._pad["columnspacing"])


def _handle(svg, h, x, cy, w, hh):
    from .collections import Collection, LineCollection, PathCollection, PolyCollection
    from .container import BarContainer, ErrorbarContainer
    from .lines import Line2D
    from .patches import Patch
    (ax, ay), (bx, _) = svg.pt(x, cy), svg.pt(x + w, cy)
    if isinstance(h, ErrorbarContainer):
        line = h[0]
        color = line.get_color() if line is not None else getattr(h, "_color", "C0")
        mx = (ax + bx) / 2
        svg.add('<path d="M%s %sV%s" %s/>' % (_num(mx), _num(ay - hh * svg.scale / 2),
                                              _num(ay + hh * svg.scale / 2),
                                              _stroke_attr(color, 1.5)))
        h = line
    if isinstance(h, BarContainer):
        h = h.patches[0] if h.patches else None
    if isinstance(h, Line2D):
        if h._linestyle not in ("None", None):
            svg.add('<path d="M%s %s H%s" %s/>' % (_num(ax), _num(ay), _num(bx), _stroke_attr(
                h._color, h._linewidth, h._alpha, h._linestyle)))
        if h._marker:
            face = _fill_attr(h._mfc if h._mfc is not None else h._color, h._alpha)
            edge = _stroke_attr(h._mec if h._mec is not None else h._color, h._mew, h._alpha)
            svg.add(_marker_svg(h._marker, (ax + bx) / 2, ay, h._markersize, face, edge, h._mew))
    elif isinstance(h, PathCollection):
        fc = h._facecolors[0] if h._facecolors else "none"
        ec = fc if h._edgecolors == "face" else (
            None if h._edgecolors in ("none", []) else h._edgecolors[0])
        size = math.sqrt(h._sizes[0]) if h._sizes else 6.0
        svg.add(_marker_svg(h._marker, (ax + bx) / 2, ay, size, _fill_attr(fc, h._alpha),
                            _stroke_attr(ec, h._linewidths[0], h._alpha) if ec is not None
                            else 'stroke="none"', h._linewidths[0]))
    elif isinstance(h, LineCollection):
        ec = h._edgecolors[0] if h._edgecolors else "C0"
        svg.add('<path d="M%s %s H%s" %s/>' % (_num(ax), _num(ay), _num(bx),
                                               _stroke_attr(ec, h._linewidths[0])))
    elif isinstance(h, (Patch, PolyCollection, Collection)):
        if isinstance(h, Patch):
            face = _fill_attr(h._facecolor if h._fill else "none", h._alpha)
            edge = _stroke_attr(h._edgecolor, h._linewidth, h._alpha)
        else:
            face = _fill_attr(h._facecolors[0] if h._facecolors else "C0", h._alpha)
            edge = 'stroke="none"'
        hpt = hh * svg.scale
        svg.add('<rect x="%s" y="%s" width="%s" height="%s" %s %s/>' % (
            _num(ax), _num(ay - hpt / 2), _num(bx - ax), _num(hpt), face, edge))


def _contour(svg, cs, t):
    """One path per level (its lines) or per band (its polygons)."""
    for k, paths in enumerate(cs._paths):
        if not paths or k >= len(cs._rgba):
            continue
        parts = []
        for path in paths:
            pts = [svg.pt(*t(x, y)) for x, y in path]
            if len(pts) < 2:
                continue
            parts.append("M" + " L".join("%s %s" % (_num(x), _num(y)) for x, y in pts) +
                         (" Z" if cs.filled else ""))
        if not parts:
            continue
        color = cs._rgba[k]
        if cs.filled:
            paint = '%s stroke="none"' % _fill_attr(color, cs._alpha)
        else:
            lw = cs._linewidths[k % len(cs._linewidths)]
            from .lines import LINESTYLES
            style = cs._styles[k]
            paint = 'fill="none" %s' % _stroke_attr(color, lw, cs._alpha,
                                                    LINESTYLES.get(style, style))
        svg.add('<path d="%s" %s/>' % (" ".join(parts), paint))


def _quiver(svg, q, t, ext):
    """Each arrow a filled polygon, in its colour."""
    faces = q._facecolors or [(0, 0, 0, 1)]
    edge = q._edgecolors[0] if q._edgecolors else None
    lw = q._linewidths[0] if q._linewidths else 0.0
    stroke = _stroke_attr(edge, lw, q._alpha) if edge is not None else 'stroke="none"'
    for k, poly in enumerate(q._polygons(t, ext)):
        pts = [svg.pt(x, y) for x, y in poly]
        d = "M" + " L".join("%s %s" % (_num(x), _num(y)) for x, y in pts) + " Z"
        svg.add('<path d="%s" %s %s/>' % (d, _fill_attr(faces[k % len(faces)], q._alpha),
                                         stroke))


def _mesh(svg, mesh, t):
    """pcolormesh's cells: its image when evenly spaced, else a rectangle
    a cell (empty cells, NaN, left out)."""
    if mesh._uniform():
        _image(svg, mesh._image, t)
        return
    # rgba_rows gives the top row first; row i of C lies between ye[i] and ye[i + 1].
    rows = mesh._image.rgba_rows(warn=svg.saving)[::-1]
    xe, ye = mesh._xedges, mesh._yedges
    for i, row in enumerate(rows):
        for j, px in enumerate(row):
            if px[3] == 0:
                continue
            (a, b), (c, d) = svg.pt(*t(xe[j], ye[i])), svg.pt(*t(xe[j + 1], ye[i + 1]))
            # Not anti-aliased, as matplotlib draws a mesh: no seams between cells.
            svg.add('<rect x="%s" y="%s" width="%s" height="%s" %s '
                    'shape-rendering="crispEdges"/>' % (
                        _num(min(a, c)), _num(min(b, d)), _num(abs(c - a)), _num(abs(d - b)),
                        _fill_attr(px, mesh._alpha)))


def _axes(svg, ax):
    from ._contour import ContourSet
    from ._quiver import Quiver
    from .collections import QuadMesh
    from .collections import LineCollection, PathCollection, PolyCollection
    from .image import AxesImage
    from .lines import Line2D
    from .patches import Patch, Rectangle
    from .text import Text
    placed, xticks, yticks, ext = decorations(ax)
    t = ax._to_display()
    (x0, y1), (x1, y0) = svg.pt(ext.x0, ext.y0), svg.pt(ext.x1, ext.y1)
    if ax._frame_on and ax._axis_on:
        svg.add('<rect x="%s" y="%s" width="%s" height="%s" %s stroke="none"/>' % (
            _num(x0), _num(y0), _num(x1 - x0), _num(y1 - y0), _fill_attr(ax.patch._facecolor)))
    svg.clip_id += 1
    cid = "clip%d" % svg.clip_id
    svg.add('<defs><clipPath id="%s"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath>'
            '</defs>' % (cid, _num(x0), _num(y0), _num(x1 - x0), _num(y1 - y0)))
    grid = []
    for axis, ticks, vertical in ((ax.xaxis, xticks, True), (ax.yaxis, yticks, False)):
        if axis._grid and ax._axis_on:
            kw = axis._grid_kw
            color, lw = kw["color"], kw["linewidth"]
            ls, alpha = kw["linestyle"], kw["alpha"]
            from .lines import LINESTYLES
            style = LINESTYLES.get(ls, ls)
            for v in ticks:
                if vertical:
                    x = svg.snap(svg.pt(v, 0)[0], lw)
                    a, b = (x, svg.pt(0, ext.y0)[1]), (x, svg.pt(0, ext.y1)[1])
                else:
                    y = svg.snap(svg.pt(0, v)[1], lw)
                    a, b = (svg.pt(ext.x0, 0)[0], y), (svg.pt(ext.x1, 0)[0], y)
                grid.append('<path d="M%s %s L%s %s" %s/>' % (
                    _num(a[0]), _num(a[1]), _num(b[0]), _num(b[1]),
                    _stroke_attr(color, lw, alpha, style)))
    svg.add('<g clip-path="url(#%s)">' % cid)
    for g in grid:
        svg.add(g)
    children = sorted(ax._children, key=lambda a: a.zorder)
    for artist in children:
        if not artist.get_visible():
            continue
        if isinstance(artist, AxesImage):
            _image(svg, artist, t)
        elif isinstance(artist, Line2D):
            if artist._axline:
                _axline(svg, artist, ext)
            else:
                _line(svg, artist, t)
        elif isinstance(artist, Rectangle):
            _rect(svg, artist, t, ext)
        elif isinstance(artist, Patch):
            _polygon(svg, artist.get_corners(), t,
                     _fill_attr(artist._facecolor if artist._fill else "none", artist._alpha),
                     _stroke_attr(artist._edgecolor, artist._linewidth, artist._alpha))
        elif isinstance(artist, ContourSet):
            _contour(svg, artist, t)
        elif isinstance(artist, Quiver):
            _quiver(svg, artist, t, ext)
        elif isinstance(artist, QuadMesh):
            _mesh(svg, artist, t)
        elif isinstance(artist, PathCollection):
            _scatter(svg, artist, t)
        elif isinstance(artist, PolyCollection):
            face = artist._facecolors[0] if artist._facecolors else "C0"
            edge = artist._edgecolors[0] if artist._edgecolors else None
            for poly in artist._verts:
                _polygon(svg, poly, t, _fill_attr(face, artist._alpha),
                         _stroke_attr(edge, artist._linewidths[0], artist._alpha)
                         if edge is not None else 'stroke="none"')
        elif isinstance(artist, LineCollection):
            ec = artist._edgecolors[0] if artist._edgecolors else "C0"
            for seg in artist._segments:
                pts = [svg.pt(*t(x, y)) for x, y in seg]
                d = "M" + " L".join("%s %s" % (_num(x), _num(y)) for x, y in pts)
                svg.add('<path d="%s" fill="none" %s/>' % (
                    d, _stroke_attr(ec, artist._linewidths[0], artist._alpha)))
    svg.add("</g>")
    for artist in children:
        if isinstance(artist, Text) and artist.get_visible():
            if artist._coords == "axes":
                x, y = ext.x0 + artist._x * ext.width, ext.y0 + artist._y * ext.height
            else:
                x, y = t(artist._x, artist._y)
            svg.text(artist.get_text(), x, y, artist.get_fontsize(), artist._ha, artist._va,
                     artist.get_rotation(), artist.get_color(), artist._weight)
    if not ax._axis_on:
        if ax.legend_ is not None:
            _legend(svg, ax.legend_)
        return
    spine_w = ax.spines["left"]._linewidth
    sx0, sx1, sy0, sy1 = (svg.snap(v, spine_w) for v in (x0, x1, y0, y1))
    for side, (a, b) in (("left", ((sx0, sy0), (sx0, sy1))), ("right", ((sx1, sy0), (sx1, sy1))),
                         ("bottom", ((sx0, sy1), (sx1, sy1))), ("top", ((sx0, sy0), (sx1, sy0)))):
        spine = ax.spines[side]
        if spine.get_visible() and ax._frame_on:
            svg.add('<path d="M%s %s L%s %s" %s stroke-linecap="square"/>' % (
                _num(a[0]), _num(a[1]), _num(b[0]), _num(b[1]),
                _stroke_attr(spine._color, spine._linewidth)))
    scale = svg.scale / (72.0 / ax.figure.dpi)
    for axis, ticks, vertical in ((ax.xaxis, xticks, True), (ax.yaxis, yticks, False)):
        if not axis.get_visible():
            continue
        length = axis._tick_length * scale
        sign = {"out": 1.0, "in": -1.0}.get(axis._tick_direction, 1.0)
        stroke = _stroke_attr(axis._tick_color, axis._tick_width)
        for v in ticks:
            if vertical:
                px = svg.snap(svg.pt(v, 0)[0], axis._tick_width)
                if axis._tick_visible[0]:
                    svg.add('<path d="M%s %s V%s" %s/>' % (_num(px), _num(y1),
                                                           _num(y1 + sign * length), stroke))
                if axis._tick_visible[1]:
                    svg.add('<path d="M%s %s V%s" %s/>' % (_num(px), _num(y0),
                                                           _num(y0 - sign * length), stroke))
            else:
                py = svg.snap(svg.pt(0, v)[1], axis._tick_width)
                if axis._tick_visible[0]:
                    svg.add('<path d="M%s %s H%s" %s/>' % (_num(x0), _num(py),
                                                           _num(x0 - sign * length), stroke))
                if axis._tick_visible[1]:
                    svg.add('<path d="M%s %s H%s" %s/>' % (_num(x1), _num(py),
                                                           _num(x1 + sign * length), stroke))
    for p in placed:
        svg.text(p.text, p.x, p.y, p.size, p.ha, p.va, p.rotation, p.color, p.weight)
    if ax.legend_ is not None:
        _legend(svg, ax.legend_)


def label(fig):
    """The figure's titles (its suptitle, then each axes' titles), or
    "Figure N" for one without any."""
    parts = []
    if fig._suptitle is not None and fig._suptitle.get_text():
        parts.append(fig._suptitle.get_text())
    for ax in fig.axes:
        for loc in ("left", "center", "right"):
            title = ax.get_title(loc)
            if title:
                parts.append(title)
    if parts:
        return "; ".join(parts)
    return "Figure %s" % (getattr(fig, "number", None) or 1)


def render(fig, saving=False):
    svg = _Svg(fig)
    svg.saving = saving
    w, h = svg.w_pt, svg.h_pt
    svg.add('<?xml version="1.0" encoding="utf-8" standalone="no"?>')
    svg.add('<svg xmlns="http://www.w3.org/2000/svg" width="%spt" height="%spt" '
            'viewBox="0 0 %s %s" version="1.1" role="img">' % (_num(w), _num(h), _num(w), _num(h)))
    # What a screen reader says for the figure (the page's console shows
    # it as an image labelled so): its titles, else what it draws.
    svg.add('<title>%s</title>' % _esc(label(fig)))
    svg.add('<rect x="0" y="0" width="%s" height="%s" %s/>' % (
        _num(w), _num(h), _fill_attr(fig._facecolor)))
    for ax in fig.axes:
        _axes(svg, ax)
    W, H = fig.get_size_inches()
    dpi = fig.dpi
    for text in [fig._suptitle, fig._supxlabel, fig._supylabel] + list(fig.texts):
        if text is not None and text.get_text() and text.get_visible():
            svg.text(text.get_text(), text._x * W * dpi, text._y * H * dpi, text.get_fontsize(),
                     text._ha, text._va, text.get_rotation(), text.get_color(), text._weight)
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"
