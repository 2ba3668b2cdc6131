# torch.accelerator on a machine without one, as programs use it to pick a
# device, and torch.onnx importable with export refused for want of its
# exporter packages.
import torch
import torch.onnx

print(torch.accelerator.is_available())
print(torch.accelerator.current_accelerator(check_available=True))
print(torch.accelerator.device_count())
use_accel = torch.accelerator.is_available()
device = torch.accelerator.current_accelerator() if use_accel else torch.device("cpu")
print(device)
print(torch.zeros(2, device=device).device)
model = torch.nn.Linear(3, 2)
with torch.accelerator.device_index(None):
    print("device_index(None) is a no-op")

print(torch.onnx.is_in_onnx_export())
try:
    torch.onnx.export(model, (torch.zeros(1, 3),), "model.onnx")
except ImportError as e:
    print(type(e).__name__, e.name)
