"""`tqdm.auto`: outside a notebook, tqdm's plain bar."""

from .std import tqdm, trange

__all__ = ["tqdm", "trange"]
