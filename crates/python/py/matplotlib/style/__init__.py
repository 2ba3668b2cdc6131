"""matplotlib.style: styles are accepted and the default style is kept
(the playground draws matplotlib's default look)."""

available = ["default", "classic", "ggplot", "seaborn-v0_8", "bmh", "dark_background",
             "fivethirtyeight", "grayscale", "fast", "Solarize_Light2", "tableau-colorblind10",
             "seaborn-v0_8-whitegrid", "seaborn-v0_8-darkgrid", "seaborn-v0_8-white"]
library = {name: {} for name in available}


def use(style):
    """Accepted; only 'default' changes anything (it restores the defaults)."""
    styles = [style] if isinstance(style, (str, dict)) else list(style)
    for s in styles:
        if s == "default":
            from .. import rcdefaults
            rcdefaults()
        elif isinstance(s, dict):
            from .. import rcParams
            rcParams.update(s)
        elif s not in library:
            raise OSError(f"{s!r} is not a valid package style, path of style file, URL of "
                          "style file, or library style name (library styles are listed in "
                          "`style.available`)")


class context:
    def __init__(self, style, after_reset=False):
        self._style = style

    def __enter__(self):
        from .. import rcParams
        self._saved = rcParams.copy()
        use(self._style)
        return self

    def __exit__(self, *exc):
        from .. import rcParams
        dict.clear(rcParams)
        dict.update(rcParams, self._saved)
        return False


def reload_library():
    pass
