"""tqdm's progress bars for the playground (see `tqdm.std`)."""

from .std import (TqdmDeprecationWarning, TqdmExperimentalWarning, TqdmKeyError,
                  TqdmTypeError, TqdmWarning, tqdm, trange)

__version__ = "4.70.1"

__all__ = ["tqdm", "trange", "TqdmTypeError", "TqdmKeyError", "TqdmWarning",
           "TqdmDeprecationWarning", "TqdmExperimentalWarning", "__version__"]
