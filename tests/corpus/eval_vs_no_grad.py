# model.eval() changes Dropout and BatchNorm; no_grad stops the graph.
# They are independent (lesson: eval-is-not-no-grad).
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2))
x = torch.randn(6, 4)

model.eval()
a = model(x)
b = model(x)
print("eval: grad_fn", a.grad_fn is not None, "same twice", torch.equal(a, b))

model.train()
with torch.no_grad():
    c = model(x)
    d = model(x)
print("no_grad train: grad_fn", c.grad_fn, "same twice", torch.equal(c, d))
print(c)

model.eval()
with torch.no_grad():
    e = model(x)
print("eval+no_grad:", e.requires_grad, e.grad_fn)
print(model[1].num_batches_tracked)
