"""String arrays (`dtype('<U5')`), as `genfromtxt(..., dtype=str)` makes them.

The engine has no string tensors, so a string array holds int64 codes in
its tensor and the strings in its dtype (each string array has its own
dtype object carrying the vocabulary): views, indexing, reshaping and
transposing are the tensor's, and the strings come back through the codes.
"""

from ._cpu import torch

from . import _dtype as _d


class str_(str):
    """`np.str_`."""

    __module__ = "numpy"

    def __repr__(self):
        return f"np.str_({str.__repr__(self)})"

    def __str__(self):
        return str.__str__(self)


def unicode_dtype(vocab, width=None):
    """A `<U{width}` dtype holding `vocab` (the strings its codes name)."""
    width = max((len(s) for s in vocab), default=0) if width is None else width
    dt = _d.dtype._make(f"str{32 * width}", "U", 4 * width, "U", f"<U{width}", None, 5)
    _d._NAMES.pop(dt.name, None)
    dt._vocab = list(vocab)
    dt.type = lambda code, _v=dt._vocab: str_(_v[int(code)])
    return dt


def from_strings(flat, shape, width=None):
    """A string array of the given shape from a flat list of strings."""
    from ._ndarray import _wrap

    vocab, codes, seen = [], [], {}
    for s in flat:
        s = str(s)
        code = seen.get(s)
        if code is None:
            code = seen[s] = len(vocab)
            vocab.append(s)
        codes.append(code)
    t = torch.tensor(codes, dtype=torch.int64).reshape(tuple(shape))
    return _wrap(t, unicode_dtype(vocab, width))


def tolist(a):
    vocab = a._dtype._vocab

    def conv(x):
        return [conv(v) for v in x] if isinstance(x, list) else vocab[x]

    return conv(a._t.tolist())


def astype(a, dt):
    """The strings parsed as numbers (NumPy's cast from str)."""
    from ._ndarray import _wrap

    if dt.kind == "U":
        return a.copy()
    parse = {"f": float, "i": int, "u": int, "b": lambda s: bool(s)}[dt.kind]
    vocab = a._dtype._vocab
    used = set(a._t.reshape(-1).tolist())
    try:
        values = [parse(s) if i in used else 0 for i, s in enumerate(vocab)]
    except ValueError as error:
        bad = str(error).split(": ", 1)[-1]
        kind = "float" if dt.kind == "f" else "int"
        raise ValueError(f"invalid literal for {kind}() with base 10: {bad}" if kind == "int"
                         else f"could not convert string to float: {bad}") from None
    table = torch.tensor(values, dtype=dt._torch if dt.kind != "i" else torch.int64)
    t = table[a._t] if a._t.numel() else torch.zeros(tuple(a._t.shape), dtype=table.dtype)
    return _wrap(t, dt)


def unique(a, return_index, return_inverse, return_counts):
    """`np.unique` of a string array: sorted distinct strings."""
    from ._ndarray import _wrap
    from ._sorting import unique as numeric_unique

    vocab = a._dtype._vocab
    order = sorted(range(len(vocab)), key=lambda i: vocab[i])
    rank = [0] * len(vocab)
    for r, i in enumerate(order):
        rank[i] = r
    ranks = torch.tensor(rank, dtype=torch.int64)[a._t] if a._t.numel() else a._t.clone()
    out = numeric_unique(_wrap(ranks, _d.int64_dtype), return_index, return_inverse, return_counts)
    first = out[0] if isinstance(out, tuple) else out
    strings = [vocab[order[r]] for r in first.tolist()]
    values = from_strings(strings, (len(strings),), a._dtype.itemsize // 4)
    if isinstance(out, tuple):
        return (values,) + tuple(out[1:])
    return values


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0,
               skip_footer=0, usecols=None, encoding=None, **kwargs):
    """`np.genfromtxt` for files of numbers or words split by whitespace (or `delimiter`)."""
    if hasattr(fname, "read"):
        text = fname.read()
    else:
        with open(fname, encoding=encoding or "utf-8") as f:
            text = f.read()
    rows = []
    for line in text.splitlines()[skip_header:len(text.splitlines()) - skip_footer]:
        if comments and comments in line:
            line = line[:line.index(comments)]
        if not line.strip():
            continue
        fields = line.split(delimiter) if delimiter is not None else line.split()
        fields = [f.strip() for f in fields]
        if usecols is not None:
            cols = (usecols,) if isinstance(usecols, int) else usecols
            fields = [fields[c] for c in cols]
        rows.append(fields)
    width = max((len(r) for r in rows), default=0)
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ValueError(f"Some errors were detected !\n    Line #{i + 1 + skip_header} (got {len(r)} columns instead of {width})")
    shape = (len(rows), width) if width != 1 else (len(rows),)
    flat = [f for r in rows for f in r]
    dt = _d._as_dtype(dtype)
    if len(rows) == 1:
        shape = (width,)
    if dt.kind == "U":
        return from_strings(flat, shape)
    from ._creation import array

    def number(s):
        try:
            return float(s)
        except ValueError:
            return float("nan")

    values = array([number(s) for s in flat], dtype=_d.float64_dtype).reshape(shape)
    return values if dt is _d.float64_dtype else values.astype(dt)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, skiprows=0, usecols=None, **kwargs):
    """`np.loadtxt` for files of numbers (or words, with dtype=str)."""
    return genfromtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter,
                      skip_header=skiprows, usecols=usecols)
