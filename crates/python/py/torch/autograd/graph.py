"""`torch.autograd.graph`."""

import _gradscope as _C

Node = _C.Node
