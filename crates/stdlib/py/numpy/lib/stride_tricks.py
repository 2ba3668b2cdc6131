"""`np.lib.stride_tricks.sliding_window_view`, over the engine's unfold."""

from .._elementwise import sliding_window_view  # noqa: F401
