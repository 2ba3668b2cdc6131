"""`torch.optim`: PyTorch's optimizers, their single-tensor update written
over the engine's ops in the order the core's native optimizers use
(`gradscope_core::optim`), with their state counted as optimizer state."""

from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam, AdamW
from .rmsprop import Adagrad, RMSprop
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
