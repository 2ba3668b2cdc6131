"""`np.exceptions`."""

from ._reductions import AxisError  # noqa: F401
from ._ufuncs import UFuncTypeError as _UFuncTypeError  # noqa: F401


class ComplexWarning(RuntimeWarning):
    __module__ = "numpy.exceptions"
