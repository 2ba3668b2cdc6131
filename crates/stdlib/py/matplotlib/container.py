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
