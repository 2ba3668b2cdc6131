"""`torch.optim`: PyTorch's optimizers, their single-tensor update written
over the engine's ops in the order the core's native optimizers use
(`gradscope_core::optim`), with their state counted as optimizer state."""

from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam, AdamW
from .rmsprop import Adagrad, RMSprop
from .adadelta import Adadelta
from .adamax import Adamax
from .nadam import NAdam
from .radam import RAdam
from .lbfgs import LBFGS
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
           "LBFGS", "lr_scheduler"]
