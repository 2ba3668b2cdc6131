"""Grids of subplots: where cell (row, col) of an nrows x ncols grid sits in
its figure, from the figure's subplot parameters (left, right, bottom,
top, wspace, hspace), as matplotlib's `GridSpec`."""

from .transforms import Bbox


class GridSpec:
    def __init__(self, nrows, ncols, figure=None, left=None, bottom=None, right=None,
                 top=None, wspace=None, hspace=None, width_ratios=None, height_ratios=None):
        if not (isinstance(nrows, int) and nrows > 0):
            raise ValueError(f"Number of rows must be a positive integer, not {nrows!r}")
        if not (isinstance(ncols, int) and ncols > 0):
            raise ValueError(f"Number of columns must be a positive integer, not {ncols!r}")
        self.nrows, self.ncols = nrows, ncols
        self.figure = figure
        self._params = {"left": left, "bottom": bottom, "right": right, "top": top,
                        "wspace": wspace, "hspace": hspace}
        self._width_ratios = list(width_ratios) if width_ratios else [1] * ncols
        self._height_ratios = list(height_ratios) if height_ratios else [1] * nrows

    def get_geometry(self):
        return self.nrows, self.ncols

    def update(self, **kwargs):
        self._params.update(kwargs)

    def _param(self, fig, key):
        v = self._params[key]
        return getattr(fig.subplotpars, key) if v is None else v

    def get_grid_positions(self, fig):
        left, right = self._param(fig, "left"), self._param(fig, "right")
        bottom, top = self._param(fig, "bottom"), self._param(fig, "top")
        wspace, hspace = self._param(fig, "wspace"), self._param(fig, "hspace")
        tot_width = right - left
        tot_height = top - bottom
        cell_h = tot_height / (self.nrows + hspace * (self.nrows - 1))
        sep_h = hspace * cell_h
        norm = cell_h * self.nrows / sum(self._height_ratios)
        heights = [r * norm for r in self._height_ratios]
        cell_w = tot_width / (self.ncols + wspace * (self.ncols - 1))
        sep_w = wspace * cell_w
        norm = cell_w * self.ncols / sum(self._width_ratios)
        widths = [r * norm for r in self._width_ratios]
        tops, bottoms = [], []
        y = top
        for i in range(self.nrows):
            tops.append(y)
            y -= heights[i]
            bottoms.append(y)
            y -= sep_h
        lefts, rights = [], []
        x = left
        for j in range(self.ncols):
            lefts.append(x)
            x += widths[j]
            rights.append(x)
            x += sep_w
        return bottoms, tops, lefts, rights

    def __getitem__(self, key):
        def span(s, n):
            if isinstance(s, slice):
                r = list(range(n))[s]
                return r[0], r[-1]
            if not -n <= s < n:
                raise IndexError("index %d is out of bounds for GridSpec with size %d" % (s, n))
            s = s % n
            return s, s
        if isinstance(key, tuple):
            r0, r1 = span(key[0], self.nrows)
            c0, c1 = span(key[1], self.ncols)
            return SubplotSpec(self, r0 * self.ncols + c0, r1 * self.ncols + c1)
        k0, k1 = span(key, self.nrows * self.ncols)
        return SubplotSpec(self, k0, k1)

    def subplots(self, **kwargs):
        return self.figure.subplots(self.nrows, self.ncols, **kwargs)


class SubplotSpec:
    def __init__(self, gridspec, num1, num2=None):
        self._gridspec = gridspec
        self.num1 = num1
        self.num2 = num1 if num2 is None else num2

    @property
    def gridspec(self):
        return self._gridspec

    def get_gridspec(self):
        return self._gridspec

    @property
    def rowspan(self):
        nc = self._gridspec.ncols
        return range(self.num1 // nc, self.num2 // nc + 1)

    @property
    def colspan(self):
        nc = self._gridspec.ncols
        c1, c2 = sorted([self.num1 % nc, self.num2 % nc])
        return range(c1, c2 + 1)

    def is_first_row(self):
        return self.rowspan.start == 0

    def is_last_row(self):
        return self.rowspan.stop == self._gridspec.nrows

    def is_first_col(self):
        return self.colspan.start == 0

    def is_last_col(self):
        return self.colspan.stop == self._gridspec.ncols

    def get_position(self, figure):
        bottoms, tops, lefts, rights = self._gridspec.get_grid_positions(figure)
        rows, cols = self.rowspan, self.colspan
        return Bbox.from_extents(lefts[cols.start], bottoms[rows.stop - 1],
                                 rights[cols.stop - 1], tops[rows.start])

    def get_geometry(self):
        return self._gridspec.nrows, self._gridspec.ncols, self.num1, self.num2
