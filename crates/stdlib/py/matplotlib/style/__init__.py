"""matplotlib.style: the style library's settings (recorded from matplotlib
in `_data.STYLES`) applied to rcParams, so a style changes the colour
cycle, faces, grids and text colours our drawing reads."""

from .._data import STYLES as _STYLES

available = sorted(_STYLES)
library = {name: dict(values) for name, values in _STYLES.items()}


def _apply(settings):
    from .. import Cycler, rcParams
    for key, value in settings.items():
        if key == "axes.prop_cycle" and isinstance(value, list):
            value = Cycler(color=value)
        if value is None:
            continue
        try:
            rcParams[key] = value
        except KeyError:
            pass


def use(style):
    """Applies a style by name ('ggplot'), a dict of settings, or a list of them."""
    styles = [style] if isinstance(style, (str, dict)) else list(style)
    for s in styles:
        if isinstance(s, dict):
            from .. import rcParams
            rcParams.update(s)
        elif s == "default":
            from .. import rcdefaults
            rcdefaults()
        elif s in _STYLES:
            _apply(_STYLES[s])
        else:
            raise OSError(f"{s!r} is not a valid package style, path of style file, URL of "
                          "style file, or library style name (library styles are listed in "
                          "`style.available`)")


class context:
    def __init__(self, style, after_reset=False):
        self._style = style
        self._after_reset = after_reset

    def __enter__(self):
        from .. import rcParams, rcdefaults
        self._saved = rcParams.copy()
        if self._after_reset:
            rcdefaults()
        use(self._style)
        return self

    def __exit__(self, *exc):
        from .. import rcParams
        dict.clear(rcParams)
        dict.update(rcParams, self._saved)
        return False


def reload_library():
    pass
