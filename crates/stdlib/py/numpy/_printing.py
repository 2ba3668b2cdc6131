"""NumPy 2's array printing: `repr`, `str`, `array2string`, `set_printoptions`.

The layout follows numpy/_core/arrayprint.py: a formatter per dtype chosen
from all the (summarised) values, then rows wrapped at the line width. Float
digits are Dragon4's: the shortest digits that read back as the value
(Python's `repr` for float64, a search for float32), cut to `precision`
fraction digits by rounding the exact binary value (`'%.*f'`).
"""

import struct

_OPTIONS = {
    "precision": 8,
    "threshold": 1000,
    "edgeitems": 3,
    "linewidth": 75,
    "suppress": False,
    "nanstr": "nan",
    "infstr": "inf",
    "sign": "-",
    "floatmode": "maxprec",
    "legacy": False,
    "formatter": None,
}


_DEFAULTS = dict(_OPTIONS)


def _gradscope_new_process():
    """Print options as a fresh `import numpy` has them (the runtime calls
    this as each program starts)."""
    _OPTIONS.clear()
    _OPTIONS.update(_DEFAULTS)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     suppress=None, nanstr=None, infstr=None, formatter=None, sign=None,
                     floatmode=None, *, legacy=None, override_repr=None):
    """`np.set_printoptions`."""
    import sys

    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems,
             "linewidth": linewidth, "suppress": suppress, "nanstr": nanstr, "infstr": infstr,
             "sign": sign, "floatmode": floatmode}
    for key, value in given.items():
        if value is not None:
            if key == "threshold" and value == float("inf"):
                value = sys.maxsize
            _OPTIONS[key] = value
    if formatter is not None or precision is not None or True:
        _OPTIONS["formatter"] = formatter
    if legacy is not None:
        _OPTIONS["legacy"] = legacy


def get_printoptions():
    """`np.get_printoptions`."""
    return dict(_OPTIONS)


class printoptions:
    """`np.printoptions`: options for a `with` block."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    def __enter__(self):
        self.saved = dict(_OPTIONS)
        set_printoptions(*self.args, **self.kwargs)
        return get_printoptions()

    def __exit__(self, *exc):
        _OPTIONS.clear()
        _OPTIONS.update(self.saved)
        return False


# ---- digits -------------------------------------------------------------

def _shortest(x, is32):
    """Shortest round-trip digits of x as (sign, digits, exponent): value = 0.digits * 10**exponent.
    `is32` is True for float32, 16 for float16."""
    if is32 == 16 and is32 is not True:
        bits = struct.pack("<e", x)
        text = None
        for n in range(1, 7):
            candidate = "%.*e" % (n - 1, x)
            try:
                if struct.pack("<e", float(candidate)) == bits:
                    text = candidate
                    break
            except OverflowError:  # a candidate past float16's largest value
                continue
        if text is None:
            text = "%.5e" % x
    elif is32:
        bits = struct.pack("<f", x)
        text = None
        for n in range(1, 10):
            candidate = "%.*e" % (n - 1, x)
            if struct.pack("<f", float(candidate)) == bits:
                text = candidate
                break
        if text is None:
            text = "%.8e" % x
    else:
        text = "%r" % x
    return _split(text)


def _split(text):
    sign = text.startswith("-")
    if sign:
        text = text[1:]
    if "e" in text:
        mant, exp = text.split("e")
        exp = int(exp)
    else:
        mant, exp = text, 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    digits = (ip + fp).lstrip("0")
    # position of the decimal point relative to the start of `ip + fp`
    point = len(ip) + exp
    lead = len(ip + fp) - len((ip + fp).lstrip("0"))
    point -= lead
    digits = digits.rstrip("0")
    if not digits:
        return sign, "0", 1
    return sign, digits, point


def _positional(x, precision, is32, unique=True):
    """(int part, frac part) of x printed positionally, before padding."""
    sign, digits, point = _shortest(x, is32)
    frac_len = max(len(digits) - point, 0)
    if precision >= 0 and frac_len > precision:
        text = "%.*f" % (precision, abs(x))
        ip, _, fp = text.partition(".")
        fp = fp.rstrip("0")
    else:
        if point <= 0:
            ip, fp = "0", "0" * (-point) + digits
        elif point >= len(digits):
            ip, fp = digits + "0" * (point - len(digits)), ""
        else:
            ip, fp = digits[:point], digits[point:]
        if digits == "0":
            ip, fp = "0", ""
    return ("-" if sign else "") + ip, fp


def _scientific(x, precision, is32):
    """(mantissa int digit with sign, frac digits, exponent int) of x."""
    sign, digits, point = _shortest(x, is32)
    if digits == "0":
        return ("-" if sign else "") + "0", "", 0
    exp = point - 1
    if precision >= 0 and len(digits) - 1 > precision:
        text = "%.*e" % (precision, abs(x))
        mant, _, e = text.partition("e")
        ip, _, fp = mant.partition(".")
        return ("-" if sign else "") + ip, fp.rstrip("0"), int(e)
    return ("-" if sign else "") + digits[0], digits[1:], exp


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k",
                            sign=False, pad_left=None, pad_right=None, min_digits=None):
    """`np.format_float_positional` (unique digits; trim 'k', '.', '0', '-')."""
    is32 = _IS32.get(x.dtype.name, False) if getattr(x, "dtype", None) is not None else False
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    ip, fp = _positional(x, -1 if precision is None else precision, is32)
    if min_digits is not None and len(fp) < min_digits:
        fp = fp + "0" * (min_digits - len(fp))
    if sign and not ip.startswith("-"):
        ip = "+" + ip
    if trim == "k":
        text = ip + "." + fp
    elif trim == ".":
        text = ip + "." + fp
    elif trim == "0":
        text = ip + "." + (fp or "0")
    else:
        text = ip + ("." + fp if fp else "")
    if pad_left is not None:
        text = " " * (pad_left - len(ip)) + text
    if pad_right is not None:
        text = text + " " * (pad_right - len(fp))
    return text


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False,
                            pad_left=None, exp_digits=None, min_digits=None):
    """`np.format_float_scientific`."""
    is32 = _IS32.get(x.dtype.name, False) if getattr(x, "dtype", None) is not None else False
    x = float(x)
    ip, fp, exp = _scientific(x, -1 if precision is None else precision, is32)
    if min_digits is not None and len(fp) < min_digits:
        fp += "0" * (min_digits - len(fp))
    if sign and not ip.startswith("-"):
        ip = "+" + ip
    e = str(abs(exp)).rjust(max(exp_digits or 2, 2) if exp_digits else 2, "0")
    text = ip + "." + fp
    if trim == "-" and not fp:
        text = ip
    text += "e" + ("-" if exp < 0 else "+") + e
    if pad_left is not None:
        text = " " * (pad_left - len(ip)) + text
    return text


# ---- formatters -----------------------------------------------------------

class _FloatFormat:
    def __init__(self, values, is32, opts):
        self.is32 = is32
        self.sign = opts["sign"]
        self.opts = opts
        precision = opts["precision"]
        floatmode = opts["floatmode"]
        self.precision = -1 if floatmode == "unique" else precision
        finite = [v for v in values if v == v and v not in (float("inf"), float("-inf"))]
        nonzero = [abs(v) for v in finite if v != 0]
        self.exp = False
        if nonzero:
            hi, lo = max(nonzero), min(nonzero)
            # 10 ** min(8, finfo(dtype).precision), as NumPy 2.4 cuts off.
            cutoff = 1e3 if is32 == 16 and is32 is not True else 1e6 if is32 else 1e8
            if hi >= cutoff or (not opts["suppress"] and (lo < 0.0001 or hi / lo > 1000.0)):
                self.exp = True
        fixed = floatmode == "fixed"
        if not finite:
            self.pad_left = self.pad_right = 0
            self.min_digits = None
            self.exp_size = -1
        elif self.exp:
            parts = [_scientific(v, self.precision, is32) for v in finite]
            if fixed:
                parts = [_fixed_sci(v, self.precision, is32) for v in finite]
            self.exp_size = max(len(str(abs(p[2]))) for p in parts)
            self.exp_size = max(self.exp_size, 2)
            self.precision = max(len(p[1]) for p in parts)
            self.min_digits = self.precision
            self.pad_left = max(len(p[0]) for p in parts)
            self.pad_right = self.exp_size + 2 + self.precision
        else:
            parts = [_positional(v, self.precision, is32) for v in finite]
            if fixed:
                parts = [(ip, fp + "0" * (self.precision - len(fp))) for ip, fp in parts]
            self.pad_left = max(len(p[0]) for p in parts)
            self.pad_right = max(len(p[1]) for p in parts)
            self.exp_size = -1
            if floatmode in ("fixed", "maxprec_equal"):
                self.min_digits = self.pad_right
            else:
                self.min_digits = 0
        if self.sign == " " and not any(_signbit(v) for v in finite):
            self.pad_left += 1
        if len(finite) != len(values):
            neginf = self.sign != "-" or any(v == float("-inf") for v in values)
            offset = self.pad_right + 1
            self.pad_left = max(self.pad_left, len(opts["nanstr"]) - offset,
                                len(opts["infstr"]) + neginf - offset)

    def __call__(self, x):
        if x != x or x in (float("inf"), float("-inf")):
            if x != x:
                ret = ("+" if self.sign == "+" else "") + self.opts["nanstr"]
            else:
                ret = ("-" if x < 0 else "+" if self.sign == "+" else "") + self.opts["infstr"]
            return " " * (self.pad_left + self.pad_right + 1 - len(ret)) + ret
        if self.exp:
            ip, fp, exp = _scientific(x, self.precision, self.is32)
            if len(fp) < self.min_digits:
                # Dragon4's min_digits: the value's own further digits, not zeros
                # (float16 0.1 is 9.998e-02 beside 3.333e-01).
                mant, _, e = ("%.*e" % (self.min_digits, abs(x))).partition("e")
                ip, fp, exp = ip[:-1] + mant[0], mant[2:], int(e)
            if self.sign == "+" and not ip.startswith("-"):
                ip = "+" + ip
            e = str(abs(exp)).rjust(self.exp_size, "0")
            return " " * (self.pad_left - len(ip)) + ip + "." + fp + "e" + ("-" if exp < 0 else "+") + e
        ip, fp = _positional(x, self.precision, self.is32)
        if self.min_digits and len(fp) < self.min_digits:
            whole, _, fp = ("%.*f" % (self.min_digits, abs(x))).partition(".")
            ip = ("-" if ip.startswith("-") else "") + whole
        if self.sign == "+" and not ip.startswith("-"):
            ip = "+" + ip
        elif self.sign == " " and not ip.startswith("-"):
            ip = " " + ip
        return " " * (self.pad_left - len(ip)) + ip + "." + fp + " " * (self.pad_right - len(fp))


def _fixed_sci(v, precision, is32):
    text = "%.*e" % (precision, abs(v))
    mant, _, e = text.partition("e")
    ip, _, fp = mant.partition(".")
    return ("-" if v < 0 else "") + ip, fp, int(e)


def _signbit(v):
    return v < 0 or (v == 0 and str(v).startswith("-"))


class _IntFormat:
    def __init__(self, values, opts):
        if values:
            hi, lo = max(values), min(values)
            width = len(str(hi))
            sign = opts["sign"]
            if hi >= 0 and sign in "+ ":
                width += 1
            self.width = max(width, len(str(lo)))
        else:
            self.width = 0
        self.sign = opts["sign"]

    def __call__(self, x):
        if self.sign == "+":
            return ("%+d" % x).rjust(self.width)
        return str(x).rjust(self.width)


class _BoolFormat:
    def __init__(self, zero_d):
        self.true = "True" if zero_d else " True"

    def __call__(self, x):
        return self.true if x else "False"


class _StrFormat:
    def __call__(self, x):
        return repr(x)


# ---- layout --------------------------------------------------------------

def _summarised(a, edge):
    """Nested lists of the corners of `a` kept for printing, with None for `...`."""
    from ._ndarray import _wrap

    t = a._t
    return _corner_lists(t, edge)


def _corner_lists(t, edge):
    if t.dim() == 0:
        return t.item()
    n = t.shape[0]
    if t.dim() == 1:
        if n > 2 * edge:
            return t[:edge].tolist() + [_SKIP] + t[n - edge:].tolist()
        return t.tolist()
    if n > 2 * edge:
        rows = [_corner_lists(t[i], edge) for i in range(edge)]
        rows.append(_SKIP)
        rows += [_corner_lists(t[i], edge) for i in range(n - edge, n)]
        return rows
    return [_corner_lists(t[i], edge) for i in range(n)]


class _Skip:
    pass


_SKIP = _Skip()


def _leaves(nested, out):
    if isinstance(nested, list):
        for item in nested:
            _leaves(item, out)
    elif nested is not _SKIP:
        out.append(nested)
    return out


def _extend_line(s, line, word, width, next_prefix):
    needs_wrap = len(line) + len(word) > width
    if len(line) <= len(next_prefix):
        needs_wrap = False
    if needs_wrap:
        s += line.rstrip() + "\n"
        line = next_prefix
    line += word
    return s, line


def _format_nested(nested, ndim, fmt, width, next_prefix, sep, summary):
    def rec(item, depth, hanging, cur_width):
        axes_left = ndim - depth
        if axes_left == 0:
            return fmt(item)
        next_hanging = hanging + " "
        next_width = cur_width - 1
        s = ""
        items = item
        if axes_left == 1:
            elem_width = cur_width - max(len(sep.rstrip()), 1)
            line = hanging
            for i, x in enumerate(items):
                last = i == len(items) - 1
                word = summary if x is _SKIP else rec(x, depth + 1, next_hanging, next_width)
                s, line = _extend_line(s, line, word, cur_width if False else elem_width, hanging)
                if not last:
                    line += sep
            s += line
        else:
            line_sep = sep.rstrip() + "\n" * (axes_left - 1)
            for i, x in enumerate(items):
                last = i == len(items) - 1
                if x is _SKIP:
                    s += hanging + summary + line_sep
                    continue
                nested_text = rec(x, depth + 1, next_hanging, next_width)
                s += hanging + nested_text + ("" if last else line_sep)
        return "[" + s[len(hanging):] + "]"

    return rec(nested, 0, next_prefix, width)


_IS32 = {"float32": True, "float16": 16}


def _formatter_for(a, values, opts):
    kind = a._dtype.kind
    if kind == "f":
        return _FloatFormat(values, _IS32.get(a._dtype.name, False), opts)
    if kind in "iu":
        return _IntFormat(values, opts)
    if kind == "b":
        return _BoolFormat(a.ndim == 0)
    vocab = a._dtype._vocab
    return lambda code: repr(vocab[code])


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", style=None, formatter=None, threshold=None, edgeitems=None,
                 sign=None, floatmode=None, suffix="", *, legacy=None):
    """`np.array2string`."""
    from ._creation import asarray

    a = asarray(a)
    opts = dict(_OPTIONS)
    for key, value in (("linewidth", max_line_width), ("precision", precision),
                       ("suppress", suppress_small), ("threshold", threshold),
                       ("edgeitems", edgeitems), ("sign", sign), ("floatmode", floatmode)):
        if value is not None:
            opts[key] = value
    opts["linewidth"] -= len(suffix)
    if a.size == 0:
        return "[]"
    return _array2string(a, opts, separator, prefix)


def _array2string(a, opts, separator, prefix):
    if a.size > opts["threshold"]:
        nested = _corner_lists(a._t, opts["edgeitems"])
        summary = "..."
    else:
        nested = a._t.tolist() if a.ndim else a._t.item()
        summary = ""
    values = _leaves(nested, []) if isinstance(nested, list) else [nested]
    fmt = _formatter_for(a, values, opts)
    if a.ndim == 0:
        return fmt(nested)
    next_prefix = " " + " " * len(prefix)
    return _format_nested(nested, a.ndim, fmt, opts["linewidth"], next_prefix, separator, summary)


def _dtype_text(dt):
    return f"'{dt.str}'" if dt.kind == "U" else dt.name


def _dtype_implied(dt):
    return dt.name in ("float64", "int64", "bool")


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """`np.array_repr`."""
    opts = dict(_OPTIONS)
    if max_line_width is not None:
        opts["linewidth"] = max_line_width
    if precision is not None:
        opts["precision"] = precision
    if suppress_small is not None:
        opts["suppress"] = suppress_small
    width = opts["linewidth"]
    prefix = "array("
    if arr.size == 0:
        lst = "[]"
    else:
        o = dict(opts)
        o["linewidth"] -= 1
        lst = _array2string(arr, o, ", ", prefix)
    extras = []
    if (arr.size == 0 and arr.shape != (0,)) or arr.size > opts["threshold"]:
        extras.append(f"shape={arr.shape}")
    if not _dtype_implied(arr.dtype) or arr.size == 0:
        extras.append(f"dtype={_dtype_text(arr.dtype)}")
    if not extras:
        return prefix + lst + ")"
    arr_str = prefix + lst + ","
    extra = ", ".join(extras) + ")"
    last_len = len(arr_str) - (arr_str.rfind("\n") + 1)
    spacer = " "
    if last_len + len(extra) + 1 > width:
        spacer = "\n" + " " * len(prefix)
    return arr_str + spacer + extra


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """`np.array_str`."""
    if a.ndim == 0:
        return str(a[()])
    opts = dict(_OPTIONS)
    if max_line_width is not None:
        opts["linewidth"] = max_line_width
    if precision is not None:
        opts["precision"] = precision
    if suppress_small is not None:
        opts["suppress"] = suppress_small
    if a.size == 0:
        return "[]"
    return _array2string(a, opts, " ", "")
