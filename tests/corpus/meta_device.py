# The meta device: tensors with shape and dtype but no data; factories,
# modules built on it, ops that compute shapes only, PyTorch's printing,
# errors on reading values, and moving real weights in with assign=True.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
t = torch.empty(2, 3, device="meta")
print(t)
print(t.shape, t.dtype, t.device, t.is_meta, t.stride())
print(torch.zeros((4,), dtype=torch.float64, device="meta"))
print(torch.full((2, 2), 7, device="meta"))
print(torch.randn(3, 4, device=torch.device("meta"), requires_grad=True))
print(torch.empty_like(t), torch.zeros_like(t).is_meta, torch.rand_like(t).device)
print("no draws:", torch.rand(1).item() == torch.manual_seed(0) or torch.rand(1).item())

conv = nn.Conv2d(3, 8, 3, padding=1, stride=2, device="meta")
print(conv.weight)
x = torch.rand(16, 3, 65536, 65536, device="meta")
y = conv(x)
print(y)
print(F.max_pool2d(y, 3, 2, ceil_mode=True).shape, F.avg_pool2d(y, 2).shape)
print(F.relu(y).shape, y.flatten(1).shape, y.view(16, -1).shape, y[0].shape, y.transpose(0, 1).shape)
lin = nn.Linear(10, 4, device="meta")
print(lin(torch.randn(5, 10, device="meta")))
print(lin(torch.randn(2, 5, 10, device="meta")).shape)
with torch.no_grad():
    print(lin(torch.randn(5, 10, device="meta")))

for what in ("item", "tolist", "cpu"):
    try:
        getattr(torch.empty(1, device="meta"), what)()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__ + ":", e)
try:
    lin(torch.randn(5, 9, device="meta"))
except RuntimeError as e:
    print("RuntimeError:", e)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.fc = nn.Linear(4 * 13 * 13, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(torch.flatten(x, 1))


with torch.device("meta"):
    meta_net = Net()
    inp = torch.randn(8, 1, 28, 28)
print(torch.get_default_device().type != "meta", meta_net.fc.weight.device, inp.device)
print(meta_net(inp))

real = Net()
print(meta_net.load_state_dict(real.state_dict(), assign=True))
print(meta_net.fc.weight.device == real.fc.weight.device, meta_net.fc.weight.requires_grad, type(meta_net.fc.weight).__name__)
print(torch.equal(meta_net.conv.weight, real.conv.weight))
print(meta_net(torch.ones(2, 1, 28, 28)).shape)

moved = Net().to("meta")
print(moved.conv.bias)
empty = moved.to_empty(device="cpu")
print(empty.conv.weight.device, empty.conv.weight.shape, empty.conv.weight.requires_grad)
print(torch.ones(3, requires_grad=True).to("meta"))
w = torch.randn(4, 10, device="meta")
for args in ((torch.randn(2, 5, 10, device="meta", requires_grad=True), w, torch.randn(4, device="meta")),
             (torch.randn(10, device="meta", requires_grad=True), w, torch.randn(4, device="meta")),
             (torch.randn(10, device="meta", requires_grad=True), w, None),
             (torch.randn(5, 10, device="meta", requires_grad=True), w, None)):
    print(F.linear(*args))
try:
    F.linear(torch.randn(2, 5, 9, device="meta"), w)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.rand(2, 3, 10, 10, device="meta").dtype, nn.Conv2d(3, 5, 2, device="meta")(torch.rand(2, 3, 10, 10, device="meta")))

# Operators compute shapes too.
x = torch.randn(3, 4, device="meta", requires_grad=True)
t = torch.randn(4, device="meta")
for e in ["x + 1", "1 + x", "x + t", "x - 1", "1 - x", "x * 2", "2 / x", "x / t", "x ** 2", "x ** t", "2 ** x",
          "x @ torch.randn(4, 5, device='meta')", "torch.randn(4, device='meta') @ x.t()", "x > 0", "-x", "abs(x)",
          "x.detach().long() + 1", "x.double() * 2", "torch.randn(2, 1, 4, device='meta') * x"]:
    r = eval(e)
    print(e, tuple(r.shape), r.dtype, r.is_meta, r.grad_fn.name() if r.grad_fn is not None else None)
y = torch.randn(3, 4, device="meta")
y += 1
y *= t
print(y)
try:
    x + torch.randn(5, device="meta")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y += torch.randn(2, 3, 4, device="meta")
except RuntimeError as e:
    print("RuntimeError:", e)
