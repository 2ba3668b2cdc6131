"""Warnings as matplotlib gives them: attributed to the first frame outside
matplotlib, so the learner sees their own line."""

import sys
import warnings


def warn_external(message, category=None):
    level = 2
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not (name == "matplotlib" or name.startswith("matplotlib.")):
            break
        frame = frame.f_back
        level += 1
    warnings.warn(message, category or UserWarning, stacklevel=level)
