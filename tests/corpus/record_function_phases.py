# Phases marked with record_function, as a context manager and decorator.
import torch
from torch.profiler import record_function

torch.set_default_device("cpu")
print(torch.get_default_device())
model = torch.nn.Linear(2, 1)
with record_function("train"):
    loss = model(torch.ones(3, 2)).pow(2).mean()
    loss.backward()


@record_function("eval")
def evaluate():
    with torch.no_grad():
        return model(torch.zeros(1, 2)).shape


print(evaluate())
with torch.autograd.profiler.record_function("nested") as r:
    print(type(r).__name__)
print(torch.ones(2).device)
