# The setup lines pasted at the top of training scripts: seeding with
# cudnn flags, deterministic algorithms, matmul precision, picking a
# device (CUDA and MPS are absent), and mixed precision (autocast and
# GradScaler disable themselves without CUDA): the program then trains as
# PyTorch's does.
import warnings

import torch
import torch.nn as nn

warnings.simplefilter("ignore")


def seed_everything(seed):
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True)


seed_everything(0)
torch.set_float32_matmul_precision("high")
print(torch.are_deterministic_algorithms_enabled(), torch.get_float32_matmul_precision(),
      torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
device = "cuda" if torch.cuda.is_available() else ("mps" if torch.backends.mps.is_available() else "cpu")
print(device, torch.backends.mps.is_built())
torch.set_default_dtype(torch.float32)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
scaler = torch.amp.GradScaler(enabled=True)
old_scaler = torch.cuda.amp.GradScaler()
print(scaler.is_enabled(), old_scaler.is_enabled(), scaler.get_scale())
x = torch.randn(8, 3)
y = x.sum(1, keepdim=True)
for step in range(4):
    opt.zero_grad()
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    print(step, round(loss.item(), 5), loss.dtype)
with torch.cuda.amp.autocast():
    print(model(x[:2]).dtype)


@torch.autocast("cuda")
def predict(inputs):
    return model(inputs)


print(predict(x[:1]).detach().round(decimals=4))
try:
    torch.set_default_dtype(torch.int64)
except TypeError as e:
    print(e)
torch.set_float32_matmul_precision("low")
print(torch.get_float32_matmul_precision())
