# The errors learners meet most in nn code, with PyTorch's messages.
import torch
import torch.nn as nn
import torch.nn.functional as F

def attempt(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ":", e)

attempt(lambda: nn.Linear(3, 2)(torch.ones(4, 5)))
attempt(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0.0, 1.0, 2.0])))
attempt(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1, 5])))
attempt(lambda: F.mse_loss(torch.ones(3), torch.ones(3, dtype=torch.float64)))
attempt(lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)))
attempt(lambda: nn.Embedding(3, 2)(torch.tensor([3])))
attempt(lambda: nn.Embedding(3, 2)(torch.tensor([1.0])))
attempt(lambda: nn.LayerNorm(4)(torch.ones(2, 3)))
attempt(lambda: nn.BatchNorm1d(3)(torch.ones(2, 4)))
attempt(lambda: F.nll_loss(torch.randn(3, 4), torch.tensor([0, 1])))
attempt(lambda: nn.Sequential(nn.Linear(2, 2))[5])
attempt(lambda: torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=-1))
attempt(lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
attempt(lambda: nn.MaxPool2d(4)(torch.ones(1, 1, 2, 2)))
attempt(lambda: torch.nn.utils.clip_grad_norm_([torch.ones(1)], 1.0))
attempt(lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.ones(3, 3), "bias": torch.ones(2)}))
attempt(lambda: F.softmax(torch.ones(2, 2), dim=3))
