"""`np.lib`: the parts programs reach for (`np.lib.stride_tricks`)."""

from . import stride_tricks  # noqa: F401
