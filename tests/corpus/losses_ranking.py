# Ranking, embedding and count losses (MarginRanking, Triplet,
# CosineEmbedding, HingeEmbedding, SoftMargin, MultiLabelSoftMargin,
# PoissonNLL, GaussianNLL, MultiMargin): PyTorch's values, node names and
# gradients, as functions and modules, in every reduction.
import torch
import torch.nn as nn
import torch.nn.functional as F

a = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
b = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 1.0]], requires_grad=True)
c = torch.tensor([[-0.5, 1.0, 0.5], [2.0, -1.0, 0.0]], requires_grad=True)
y = torch.tensor([1.0, -1.0])


def show(label, out, inputs):
    print(label, tuple(out.shape), out.grad_fn.name())
    print(out.detach().round(decimals=4))
    grads = torch.autograd.grad(out.sum(), inputs, create_graph=True)
    for g in grads:
        print(g.detach().round(decimals=4) + 0.0)
    total = sum((g * g).sum() for g in grads)
    if not total.requires_grad:
        print("piecewise linear: no second derivative")
        return
    try:
        second = torch.autograd.grad(total, inputs, allow_unused=True)
    except RuntimeError as e:
        print(type(e).__name__, e)
        return
    for g in second:
        print(None if g is None else g.round(decimals=3) + 0.0)


for reduction in ["mean", "sum", "none"]:
    show(f"margin_ranking {reduction}", F.margin_ranking_loss(a[:, 0], b[:, 0], y, margin=0.5, reduction=reduction),
         [a, b])
show("hinge_embedding", F.hinge_embedding_loss(a, torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])), [a])
show("soft_margin", F.soft_margin_loss(a, torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])), [a])
show("soft_margin none", F.soft_margin_loss(a, b.sign().detach(), reduction="none"), [a])
show("cosine_embedding", F.cosine_embedding_loss(a, b, y), [a, b])
show("cosine_embedding margin", F.cosine_embedding_loss(a, c, -y, margin=-0.5, reduction="sum"), [a, c])
show("triplet", F.triplet_margin_loss(a, b, c), [a, b, c])
show("triplet p=1 swap", F.triplet_margin_loss(a, b, c, margin=2.0, p=1, swap=True), [a, b, c])
show("multilabel_soft_margin", F.multilabel_soft_margin_loss(a, torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])),
     [a])
show("multilabel weight", F.multilabel_soft_margin_loss(a, torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]),
                                                       weight=torch.tensor([1.0, 2.0, 0.5])), [a])
counts = torch.tensor([[0.0, 2.0, 5.0], [1.0, 3.0, 0.0]])
show("poisson_nll", F.poisson_nll_loss(a, counts), [a])
show("poisson_nll full", F.poisson_nll_loss(a.exp(), counts, log_input=False, full=True), [a])
var = torch.tensor([[0.5, 1.0, 2.0], [1.5, 0.25, 1.0]], requires_grad=True)
show("gaussian_nll", F.gaussian_nll_loss(a, b, var), [a, b, var])
show("gaussian_nll full sum", F.gaussian_nll_loss(a, b, var[:, :1], full=True, reduction="sum"), [a, var])
labels = torch.tensor([1, 2])
show("multi_margin", F.multi_margin_loss(a, labels), [a])
show("multi_margin p=2 weight", F.multi_margin_loss(a, labels, p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 3.0])),
     [a])

modules = [nn.MarginRankingLoss(0.1), nn.HingeEmbeddingLoss(), nn.SoftMarginLoss(reduction="sum"),
           nn.CosineEmbeddingLoss(margin=0.2), nn.TripletMarginLoss(margin=0.5), nn.MultiLabelSoftMarginLoss(),
           nn.PoissonNLLLoss(), nn.GaussianNLLLoss(), nn.MultiMarginLoss()]
print(modules)
signs = b.sign().detach()
print(modules[0](a[:, 0], b[:, 0], y).item(), modules[1](a, signs).item(), modules[2](a, signs).item())
print(round(modules[3](a, b, y).item(), 4), round(modules[4](a, b, c).item(), 4),
      round(modules[5](a, (b > 0).float()).item(), 4))
print(round(modules[6](a, counts).item(), 4), round(modules[7](a, b, var).item(), 4), round(modules[8](a, labels).item(), 4))

for bad in [lambda: F.gaussian_nll_loss(a, b, -var), lambda: F.gaussian_nll_loss(a, b, var[:, :2]),
            lambda: F.multi_margin_loss(a, labels, p=3), lambda: nn.TripletMarginLoss(margin=0.0),
            lambda: F.margin_ranking_loss(a, b[:, 0], y), lambda: F.soft_margin_loss(a, b.sign())]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
