"""What bar and errorbar return: tuples of their artists that also carry a
label for the legend."""


class Container(tuple):
    def __new__(cls, kl, label=None):
        return tuple.__new__(cls, kl)

    def __init__(self, kl, label=None):
        self._label = "" if label is None else str(label)

    def __repr__(self):
        return f"<{type(self).__name__} object of {len(self)} artists>"

    def get_label(self):
        return self._label

    def set_label(self, s):
        self._label = str(s)

    def get_children(self):
        return [c for c in self if c is not None]

    def remove(self):
        for c in self.get_children():
            c.remove()


class BarContainer(Container):
    def __new__(cls, patches, errorbar=None, *, datavalues=None, orientation=None, label=None):
        return tuple.__new__(cls, patches)

    def __init__(self, patches, errorbar=None, *, datavalues=None, orientation=None, label=None):
        super().__init__(patches, label)
        self.patches = patches
        self.errorbar = errorbar
        self.datavalues = datavalues
        self.orientation = orientation


class ErrorbarContainer(Container):
    def __new__(cls, lines, has_xerr=False, has_yerr=False, label=None):
        return tuple.__new__(cls, lines)

    def __init__(self, lines, has_xerr=False, has_yerr=False, label=None):
        super().__init__(lines, label)
        self.lines = lines
        self.has_xerr = has_xerr
        self.has_yerr = has_yerr


class PieContainer:
    """What `pie` returns: its wedges and the texts that label them;
    unpacks as (wedges, texts) or (wedges, texts, autotexts), as `pie`'s
    tuple did before matplotlib 3.11."""

    def __init__(self, wedges, values, normalize):
        self.wedges = wedges
        self._texts = []
        self._values = list(values)
        self._normalize = normalize

    @property
    def texts(self):
        return [t for t in self._texts if t]

    @property
    def values(self):
        from .axes import _np_array
        return _np_array(list(self._values))

    @property
    def fracs(self):
        from .axes import _np_array
        total = sum(self._values)
        return _np_array([v / total if self._normalize else v for v in self._values])

    def add_texts(self, texts):
        self._texts.append(texts)

    def remove(self):
        for artist in self.wedges + [t for texts in self._texts for t in texts]:
            artist.remove()

    def __getitem__(self, key):
        return (self.wedges, *self._texts)[key]

    def __iter__(self):
        return iter((self.wedges, *self._texts))
