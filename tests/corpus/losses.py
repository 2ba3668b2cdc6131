import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0]], requires_grad=True)
target = torch.tensor([0, 2, 1])
for reduction in ["mean", "sum", "none"]:
    print(reduction, F.cross_entropy(logits, target, reduction=reduction))
print(nn.CrossEntropyLoss(label_smoothing=0.1)(logits, target))
print(nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(logits, target))
loss = nn.NLLLoss()(F.log_softmax(logits, dim=1), target)
print(loss)
loss.backward()
print(logits.grad)
pred = torch.tensor([0.5, 1.5, -0.5], requires_grad=True)
true = torch.tensor([1.0, 1.0, 0.0])
print(nn.MSELoss()(pred, true), nn.MSELoss(reduction="sum")(pred, true))
print(F.l1_loss(pred, true))
p = torch.sigmoid(pred)
print(nn.BCELoss()(p, true))
print(nn.BCEWithLogitsLoss()(pred, true))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 2.0, 2.0]))(pred, true))
print(nn.CrossEntropyLoss(), nn.MSELoss(), nn.BCEWithLogitsLoss())
F.binary_cross_entropy_with_logits(pred, true[:2])
