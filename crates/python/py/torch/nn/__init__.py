"""`torch.nn`: modules, parameters, initialisation and functional ops,
written in Python over the engine's ops as PyTorch writes them."""

from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .modules import *  # noqa: F401,F403
from . import functional, init, parallel, utils
from .parallel import DataParallel
