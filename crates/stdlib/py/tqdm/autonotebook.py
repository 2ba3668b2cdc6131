"""`tqdm.autonotebook`: the plain bar, which the playground's console redraws in place."""

from .std import tqdm, trange

__all__ = ["tqdm", "trange"]
