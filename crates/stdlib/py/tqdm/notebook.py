"""`tqdm.notebook`: the playground has no Jupyter widgets, so its bars are
the plain ones, redrawn in place by the console as a terminal would."""

from .std import tqdm, trange

tqdm_notebook = tqdm
tnrange = trange

__all__ = ["tqdm_notebook", "tnrange", "tqdm", "trange"]
