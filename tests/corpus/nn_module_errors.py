# Forgetting super().__init__() fails the way PyTorch fails.
import torch
import torch.nn as nn


class NoForward(nn.Module):
    pass


try:
    NoForward()(torch.ones(1))
except NotImplementedError as e:
    print("NotImplementedError:", e)

try:
    nn.Linear(2, 2).weight = torch.ones(2, 2)
except TypeError as e:
    print("TypeError:", e)


class Forgot(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)


Forgot()
