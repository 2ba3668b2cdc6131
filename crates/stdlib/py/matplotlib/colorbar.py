"""`Colorbar`: a narrow axes beside its parent showing the colormap, which
takes its room from the parent as matplotlib's `make_axes` does
(fraction 0.15, pad 0.05, aspect 20)."""



class Colorbar:
    def __init__(self, fig, mappable, parent, cax=None, *, fraction=0.15, pad=0.05,
                 shrink=1.0, aspect=20, orientation="vertical", label="", **kwargs):
        self.mappable = mappable
        self.figure = fig
        sm = getattr(mappable, "_mappable", mappable)
        self.cmap = sm.cmap
        self.norm = sm.norm
        if cax is None:
            pos = parent.get_position(original=True)
            pb_width = pos.width * (1 - fraction - pad)
            parent.set_position([pos.x0, pos.y0, pb_width, pos.height])
            height = pos.height * shrink
            width = min(pos.width * fraction, height * fig.get_size_inches()[1] /
                        fig.get_size_inches()[0] / aspect)
            x0 = pos.x0 + pos.width * (1 - fraction)
            cax = fig.add_axes([x0, pos.y0 + (pos.height - height) / 2, width, height])
            fig._current = parent
        self.ax = cax
        vmin, vmax = self.norm.vmin, self.norm.vmax
        if vmin is None or vmax is None:
            vmin, vmax = 0.0, 1.0
        n = 64
        rows = [[vmin + (vmax - vmin) * (n - 1 - i) / (n - 1)] for i in range(n)]
        im = cax.imshow(rows, cmap=self.cmap, aspect="auto", extent=(0, 1, vmin, vmax),
                        vmin=vmin, vmax=vmax)
        im.origin = "upper"
        cax.xaxis.set_visible(False)
        cax.yaxis._label_visible = [False, True]
        cax.yaxis._tick_visible = [False, True]
        if label:
            self.set_label(label)
        if hasattr(mappable, "colorbar"):
            try:
                mappable.colorbar = self
            except AttributeError:
                pass

    def set_label(self, label, **kwargs):
        self.ax.yaxis._label_visible = [False, True]
        self.ax.set_ylabel(label, **kwargs)

    def set_ticks(self, ticks, **kwargs):
        self.ax.set_yticks(ticks, **kwargs)

    def set_ticklabels(self, labels, **kwargs):
        self.ax.set_yticklabels(labels, **kwargs)

    def remove(self):
        self.figure.delaxes(self.ax)
