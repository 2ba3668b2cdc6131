import torch
import torch.nn as nn


class Mixture(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.ParameterList([nn.Parameter(torch.ones(2, 2)), nn.Parameter(torch.zeros(3), requires_grad=False)])
        self.scales = nn.ParameterDict({"a": nn.Parameter(torch.ones(1))})

    def forward(self, x):
        return (self.weights[0] @ x).sum() * self.scales["a"]


m = Mixture()
print(m)
print(len(m.weights), [n for n, _ in m.named_parameters()])
m(torch.ones(2)).backward()
print(m.weights[0].grad, m.scales["a"].grad)
m.weights.append(nn.Parameter(torch.full((1,), 5.0)))
print(len(m.weights), m.weights[-1])
vec = nn.utils.parameters_to_vector(m.parameters())
print(vec)
nn.utils.vector_to_parameters(vec * 2, m.parameters())
print(m.scales["a"])
m.weights(1)
