import torch

BUG = "none"

x = torch.sin(torch.arange(32 * 4) * 0.7).reshape(32, 4)
y = (x.sum(dim=1, keepdim=True) > 0).float()

body = torch.nn.Linear(4, 16)
head = torch.nn.Linear(16, 1)
with torch.no_grad():
    for i, p in enumerate(list(body.parameters()) + list(head.parameters())):
        p.copy_(torch.sin(torch.arange(p.numel()) * 1.3 + i).reshape(p.shape) * 0.4)
if BUG == "frozen":
    head.requires_grad_(False)
body_start, head_start = body.weight.detach().clone(), head.weight.detach().clone()
params = [p for p in list(body.parameters()) + list(head.parameters()) if p.requires_grad]
optimizer = torch.optim.SGD(params, lr=0.5)
loss_fn = torch.nn.BCEWithLogitsLoss()

for step in range(20):
    with torch.profiler.record_function("step"):
        optimizer.zero_grad()
        if BUG == "no_grad":
            with torch.no_grad():
                logits = head(torch.relu(body(x)))
        elif BUG == "detach":
            logits = head(torch.relu(body(x)).detach())
        else:
            logits = head(torch.relu(body(x)))
        loss = loss_fn(logits, y)
        loss.backward()
        optimizer.step()
    if step % 5 == 4:
        print(f"step {step + 1}: loss {loss.item():.4f}")

with torch.profiler.record_function("check"):
    body_moved = (body.weight - body_start).abs().sum().item()
    head_moved = (head.weight - head_start).abs().sum().item()
print("body weights changed:", body_moved > 0)
print("head weights changed:", head_moved > 0)
