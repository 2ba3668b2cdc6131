"""Text: the `Text` artist, font sizes as matplotlib names them, and text
extents from DejaVu Sans's advance widths (matplotlib measures with the
font itself; ours sums advances, without kerning or hinting). Mathtext
(`$x_1$`, `$\\mathdefault{10^{-2}}$`) is drawn as plain text with
superscripts and subscripts."""

from . import rcParams
from ._data import ADVANCES, DESCENT

# matplotlib sizes a line of text by the ink of "lp": the ascent of 'l'
# (0.76 of the size in DejaVu Sans) above the baseline, 'p''s descent below.
LINE_ASCENT = 0.76

FONT_SCALINGS = {"xx-small": 0.579, "x-small": 0.694, "small": 0.833, "medium": 1.0,
                 "large": 1.2, "x-large": 1.44, "xx-large": 1.728, "larger": 1.2,
                 "smaller": 0.833, None: 1.0}

_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
          "zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ",
          "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ",
          "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "chi": "χ",
          "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
          "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ",
          "Omega": "Ω", "times": "×", "cdot": "·", "pm": "±", "infty": "∞",
          "leq": "≤", "geq": "≥", "neq": "≠", "approx": "≈", "nabla": "∇",
          "partial": "∂", "sum": "Σ", "prod": "Π", "int": "∫", "to": "→",
          "rightarrow": "→", "leftarrow": "←", "degree": "°", "circ": "∘",
          "ell": "ℓ", "sqrt": "√", "log": "log", "exp": "exp", "sin": "sin",
          "cos": "cos", "tan": "tan", "tanh": "tanh", "max": "max", "min": "min",
          " ": " ", ",": " ", ";": " ", "quad": "  ", "mathdefault": "", "mathrm": "",
          "mathbf": "", "mathit": "", "rm": "", "bf": "", "it": "", "mathcal": "",
          "text": "", "left": "", "right": "", "hat": "", "bar": "", "tilde": ""}


def font_size(size):
    """Points for a size given as a number or a name ('large')."""
    if size is None:
        return rcParams["font.size"]
    if isinstance(size, str):
        if size not in FONT_SCALINGS:
            try:
                return float(size)
            except ValueError:
                raise ValueError(f"{size!r} is not a valid font size. Valid font sizes "
                                 "are xx-small, x-small, small, medium, large, x-large, "
                                 "xx-large, larger, smaller, None") from None
        return FONT_SCALINGS[size] * rcParams["font.size"]
    return float(size)


def parse_math(s):
    """Runs of (text, shift) from mathtext: shift 0 plain, 1 superscript, -1 subscript."""
    runs = []
    parts = s.split("$")
    for k, part in enumerate(parts):
        if k % 2 == 0:
            if part:
                runs.append((part, 0))
            continue
        _math(part, 0, runs)
    if len(parts) % 2 == 0:
        # An odd number of `$` is not mathtext: keep the text as written.
        return [(s, 0)]
    return runs


def _math(src, shift, runs):
    i = 0
    buf = []

    def flush():
        if buf:
            runs.append(("".join(buf), shift))
            buf.clear()

    while i < len(src):
        c = src[i]
        if c == "\\":
            j = i + 1
            while j < len(src) and src[j].isalpha():
                j += 1
            if j == i + 1 and j < len(src):
                j += 1
            name = src[i + 1:j]
            buf.append(_GREEK.get(name, name))
            i = j
        elif c in "^_":
            flush()
            i += 1
            if i < len(src) and src[i] == "{":
                depth, j = 1, i + 1
                while j < len(src) and depth:
                    depth += {"{": 1, "}": -1}.get(src[j], 0)
                    j += 1
                inner = src[i + 1:j - 1]
                i = j
            else:
                inner = src[i:i + 1]
                i += 1
            _math(inner, 1 if c == "^" else -1, runs)
        elif c in "{}":
            i += 1
        elif c == "-":
            buf.append("\u2212")
            i += 1
        else:
            buf.append(c)
            i += 1
    flush()


def _run_width(text, size):
    total = 0.0
    for ch in text:
        total += ADVANCES.get(ch, 600.0 if ord(ch) < 0x2E80 else 1000.0)
    return total * size / 1000.0


def text_extent(s, size):
    """(width, height, descent) in points of `s` at `size` points, one line
    or several (matplotlib's line spacing of 1.2)."""
    lines = str(s).split("\n")
    width = 0.0
    for line in lines:
        w = 0.0
        for text, shift in parse_math(line):
            w += _run_width(text, size * (0.7 if shift else 1.0))
        width = max(width, w)
    line_h = (LINE_ASCENT + DESCENT) * size
    height = line_h + (len(lines) - 1) * 1.2 * size
    return width, height, DESCENT * size


class Text:
    """A string at (x, y) in data, axes or figure coordinates."""

    def __init__(self, x=0, y=0, text="", *, color=None, fontsize=None, fontweight=None,
                 ha="left", va="baseline", rotation=0, transform="data", alpha=None,
                 zorder=3, visible=True, **kwargs):
        self._x, self._y = x, y
        self._text = "" if text is None else str(text)
        self._color = color if color is not None else rcParams["text.color"]
        self._size = font_size(kwargs.pop("size", fontsize))
        self._weight = kwargs.pop("weight", fontweight) or "normal"
        self._ha = kwargs.pop("horizontalalignment", ha)
        self._va = kwargs.pop("verticalalignment", va)
        self._rotation = _rotation(rotation)
        self._coords = transform
        self._alpha = alpha
        self.zorder = zorder
        self._visible = visible
        self._bbox = kwargs.pop("bbox", None)
        self._label = kwargs.pop("label", "")
        kwargs.pop("family", None)
        kwargs.pop("fontfamily", None)
        kwargs.pop("fontstyle", None)
        kwargs.pop("style", None)
        kwargs.pop("wrap", None)
        kwargs.pop("clip_on", None)
        kwargs.pop("fontname", None)
        kwargs.pop("linespacing", None)
        kwargs.pop("multialignment", None)
        kwargs.pop("usetex", None)
        self.axes = None
        self.figure = None
        if kwargs:
            key = next(iter(kwargs))
            raise AttributeError(f"Text.set() got an unexpected keyword argument '{key}'")

    def get_text(self):
        return self._text

    def set_text(self, s):
        self._text = "" if s is None else str(s)

    def get_position(self):
        return (self._x, self._y)

    def set_position(self, xy):
        self._x, self._y = xy

    def set_x(self, x):
        self._x = x

    def set_y(self, y):
        self._y = y

    def get_color(self):
        return self._color

    def set_color(self, color):
        self._color = color

    def get_fontsize(self):
        return self._size

    def set_fontsize(self, size):
        self._size = font_size(size)

    set_size = set_fontsize
    get_size = get_fontsize

    def set_fontweight(self, w):
        self._weight = w

    def get_rotation(self):
        return self._rotation

    def set_rotation(self, r):
        self._rotation = _rotation(r)

    def set_ha(self, ha):
        self._ha = ha

    set_horizontalalignment = set_ha

    def set_va(self, va):
        self._va = va

    set_verticalalignment = set_va

    def get_visible(self):
        return self._visible

    def set_visible(self, b):
        self._visible = bool(b)

    def set_alpha(self, a):
        self._alpha = a

    def set_fontfamily(self, f):
        pass

    def set_bbox(self, props):
        self._bbox = props

    def set(self, **kwargs):
        for k, v in kwargs.items():
            getattr(self, "set_" + k)(v)

    def update(self, props):
        self.set(**props)

    def get_label(self):
        return self._label

    def extent(self):
        return text_extent(self._text, self._size)

    def __repr__(self):
        return "Text(%s, %s, %r)" % (self._x, self._y, self._text)


def _rotation(r):
    if r in (None, "horizontal"):
        return 0.0
    if r == "vertical":
        return 90.0
    return float(r) % 360
