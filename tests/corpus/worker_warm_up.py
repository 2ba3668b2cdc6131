# The worker's warm-up (crates/webworker/src/program.rs runs it, its output
# dropped, before a learner's first run): a training loop on plain tensors and
# on an nn.Module under record_function, as the lessons' programs are. Here it
# is held to PyTorch, so a change that breaks it fails a test instead of
# silently warming nothing.
import torch
x = torch.linspace(-1, 1, 64).reshape(16, 4)
y = (x * torch.tensor([1.0, -2.0, 0.5, 3.0])).sum(1, keepdim=True)
labels = (y.squeeze(1) > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 1.37 + i).reshape(p.shape) / 2)
w2 = (torch.cos(torch.arange(8.0)) / 3).reshape(1, 8).requires_grad_()
optimizer = torch.optim.SGD(list(model.parameters()) + [w2], lr=0.05, momentum=0.9)
loss_fn = torch.nn.CrossEntropyLoss()
for step in range(30):
    model.train()
    with torch.profiler.record_function("train"):
        optimizer.zero_grad()
        hidden = torch.nn.functional.relu(model[0](x))
        loss = loss_fn(model(x), labels) + torch.nn.functional.mse_loss(hidden @ w2.T, y)
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        norm = w2.grad.norm()
        accuracy = (model(x).argmax(dim=1) == labels).float().mean().item()
    text = f"step {step}: loss {loss.item():.4f}, norm {norm:.3f}, accuracy {accuracy:.3f}"
    if step % 10 == 0:
        print(text)
print(repr(w2))
